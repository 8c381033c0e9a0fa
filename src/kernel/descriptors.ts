import { readFileSync } from 'node:fs';

// The process's descriptor budget: read once by the HTTP server (its connection cap) and by the
// embedded database (how many relation files PGlite keeps open), so that together they fit `ulimit -n`.

/** The soft limit on open files (`ulimit -n`) from /proc/self/limits; undefined where that is not readable or unlimited. */
export function descriptorLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const value = soft === undefined ? NaN : Number(soft);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * PGlite's `max_files_per_process` for a descriptor limit: PostgreSQL's default (1000) when the
 * limit is unknown or large, an eighth of the limit otherwise, never below PostgreSQL's minimum (64).
 * Under `ulimit -n 512` the default let PGlite's file cache take every descriptor during migrations.
 */
export function pgliteMaxFiles(limit: number | undefined): number {
  if (limit === undefined) return 1000;
  return Math.min(1000, Math.max(64, Math.floor(limit / 8)));
}
