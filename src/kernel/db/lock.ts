import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export interface DirectoryLock {
  release(): Promise<void>;
}

export class DirectoryLockedError extends Error {
  constructor(dir: string, pid: number | undefined) {
    super(
      `The embedded database directory ${dir} is in use by another Portier process (pid ${pid ?? 'unknown'}). ` +
        'PGlite allows one process per directory; stop that process or set PGLITE_DIR to another directory.',
    );
    this.name = 'DirectoryLockedError';
  }
}

/**
 * How the lock goes stale: its holder touches it every LOCK_UPDATE_MS; one untouched for
 * LOCK_STALE_MS belongs to a dead process (kill -9, OOM kill, power loss) and is taken over.
 * A start waits up to LOCK_WAIT_MS for that, so a restart right after a crash succeeds, and a
 * second live process is refused after that wait.
 */
export const LOCK_STALE_MS = 15_000;
export const LOCK_UPDATE_MS = 3_000;
export const LOCK_WAIT_MS = LOCK_STALE_MS + 5_000;

const LOCK_NAME = 'portier.lock';
/** Beside the lock (which must stay an empty directory): the holder's pid, for the refusal message. */
const PID_FILE = 'portier.lock.pid';

function pidIn(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, PID_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Earlier versions kept a pid file at the lock's path, held while that pid was alive — which
 * never ends when the pid is reused or is 1 (a container). Such a file is from a version that is
 * not running any more (an upgrade stops it first): it is removed.
 */
function removeLegacyPidFile(lockPath: string): void {
  try {
    if (statSync(lockPath).isFile()) rmSync(lockPath);
  } catch {
    // not there
  }
}

/**
 * An exclusive lock on a PGlite directory (proper-lockfile: an atomic mkdir whose mtime the holder
 * keeps fresh). PGlite itself takes no lock, and two processes on one directory silently lose data.
 * A holder that cannot keep its lock fresh (the lock was taken over) stops the process: writing on
 * would corrupt the database.
 */
export async function acquireDirectoryLock(
  dir: string,
  onCompromised?: (error: Error) => void,
): Promise<DirectoryLock> {
  const lockPath = join(dir, LOCK_NAME);
  removeLegacyPidFile(lockPath);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_UPDATE_MS,
      retries: { retries: Math.ceil(LOCK_WAIT_MS / 1_000), factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
      ...(onCompromised ? { onCompromised } : {}),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DirectoryLockedError(dir, pidIn(dir));
    throw error;
  }
  const pidFile = join(dir, PID_FILE);
  writeFileSync(pidFile, String(process.pid), { mode: 0o600 });
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= (async () => {
        rmSync(pidFile, { force: true });
        await release().catch(() => undefined); // already gone or taken over: nothing to give back
      })();
      return released;
    },
  };
}
