import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import type { AccessLogEntry } from './access.repository.js';
import { insertAccessLogBatch } from './access.repository.js';

/** How long an access-log entry may wait before it is written, and how many are written at once. */
export const ACCESS_LOG_FLUSH_MS = 10;
export const ACCESS_LOG_BATCH = 500;

/**
 * Writes access-log entries in small batches, off the door's critical path: the access check
 * answers without waiting for its log row, and the rows of ~10 ms are written in one statement.
 * Reads of the log (and shutdown) flush first, so a process always reads its own writes. The cost:
 * a process that crashes loses at most the last ~10 ms of log entries; a failed batch is retried
 * row by row and what still fails is reported in the logs.
 */
/** An entry as written, with the id it got (given here, so no statement has to hand it back). */
export type WrittenAccessLogEntry = AccessLogEntry & { id: string };

export class AccessLogWriter {
  private pending: WrittenAccessLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly onError: (error: unknown, lost: number) => void,
    /** Told of the entries once they are committed (live updates: accessDecided); never awaited. */
    private readonly onWritten?: (entries: readonly WrittenAccessLogEntry[]) => void,
  ) {}

  append(entry: AccessLogEntry): void {
    this.pending.push({ ...entry, id: randomUUID() });
    if (this.pending.length >= ACCESS_LOG_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), ACCESS_LOG_FLUSH_MS);
  }

  /** Writes everything appended so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.pending;
    this.pending = [];
    // Batches are written one after another, so entries land in the order they were appended.
    this.inFlight = this.inFlight.then(() => (batch.length ? this.write(batch) : undefined));
    return this.inFlight;
  }

  private async write(batch: WrittenAccessLogEntry[]): Promise<void> {
    try {
      await insertAccessLogBatch(this.db, batch);
      this.onWritten?.(batch);
    } catch {
      // One bad row (say, of a device deleted meanwhile) must not cost the others: one by one.
      for (const entry of batch) {
        try {
          await insertAccessLogBatch(this.db, [entry]);
          this.onWritten?.([entry]);
        } catch (error) {
          this.onError(error, 1);
        }
      }
    }
  }
}
