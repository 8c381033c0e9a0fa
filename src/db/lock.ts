import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DirectoryLock {
  release(): void;
}

export class DirectoryLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database directory ${dir} is in use by another Portier process (pid ${pid}). ` +
        'PGlite allows one process per directory; stop that process or set PGLITE_DIR to another directory.',
    );
    this.name = 'DirectoryLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive pid-file lock on a PGlite directory. PGlite itself takes no lock, and two processes
 * on one directory silently lose data; a lock left behind by a dead process is taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const file = join(dir, 'portier.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DirectoryLockedError(dir, pid);
      }
      if (pid === process.pid) throw new DirectoryLockedError(dir, pid);
      unlinkSync(file); // stale lock from a process that is gone
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
