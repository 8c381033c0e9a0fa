import type { Logger } from 'pino';
import type { Database } from '../../kernel/db/database.js';
import type { LiveMessage, LiveSource, LiveTopic } from '../../kernel/live/index.js';
import { feedPage, lastSettledPosition } from './event-feed.repository.js';
import type { FeedPosition } from './event-feed.rules.js';
import { WAKE_CHANNEL } from './outbox.js';
import { detached } from '../../kernel/tracing.js';

// The live tail of the outbox (docs/subscriptions.md, "Where events come from"): the source of
// bookingChanged and deviceStatusChanged. Every statement that writes events NOTIFYs WAKE_CHANNEL
// when its transaction commits (never on rollback), in every process; each process then reads the
// events after its cursor of every tenant it has subscribers of, in the feed's order (the same read
// as the events feed: an event is read once every transaction before it has ended, so none is
// skipped), and hands them to its own subscribers.

/** Events read per tenant per statement. */
const PAGE = 100;
/**
 * Reads again at these delays after a wake (one chain at a time; a new wake starts it over): an
 * event whose transaction committed while an older transaction was still running — anywhere on the
 * database server, the snapshot's xmin is server-wide — becomes readable when that one ends, which
 * sends no NOTIFY of its own.
 */
const SETTLE_RETRY_MS = [50, 100, 150, 200, 250, 250, 500, 500];
/** The fallback poll while anyone subscribes, in case a notification was lost. */
const POLL_MS = 2_000;

export function outboxTail(database: Database, log: Logger): LiveSource {
  const cursors = new Map<string, FeedPosition | null>();
  let reading: Promise<void> | undefined;
  let again = false;
  let deliver: (message: LiveMessage) => void = () => undefined;

  const readTenant = async (tenantId: string) => {
    for (;;) {
      if (!cursors.has(tenantId)) return;
      const rows = await feedPage(database.db, tenantId, null, cursors.get(tenantId) ?? null, PAGE);
      if (!cursors.has(tenantId)) return;
      for (const row of rows) {
        deliver({
          topic: 'event',
          tenantId,
          data: { id: row.id, type: row.type, data: row.data, createdAt: row.created_at.toISOString() },
        });
      }
      const last = rows.at(-1);
      if (last) cursors.set(tenantId, { xactId: last.position_xid, seq: last.position_seq });
      if (rows.length < PAGE) return;
    }
  };
  const readAll = async () => {
    for (const tenantId of [...cursors.keys()]) {
      try {
        await readTenant(tenantId);
      } catch (error) {
        log.warn({ err: error, tenantId }, 'the live tail of the events could not be read; retrying');
      }
    }
  };
  /** One read at a time; a wake during a read reads once more after it. */
  const read = () => {
    if (cursors.size === 0) return;
    if (reading) {
      again = true;
      return;
    }
    reading = readAll().finally(() => {
      reading = undefined;
      if (again) {
        again = false;
        read();
      }
    });
  };
  let settle: NodeJS.Timeout | undefined;
  const settleFrom = (step: number) => {
    clearTimeout(settle);
    const delay = SETTLE_RETRY_MS[step];
    if (delay === undefined) return;
    settle = setTimeout(() => {
      read();
      settleFrom(step + 1);
    }, delay);
    settle.unref();
  };

  return {
    async start(onMessage) {
      deliver = onMessage;
      // Woken by a commit, maybe a request's: the reads are not part of its trace.
      const stopListening = await database.listen(WAKE_CHANNEL, () =>
        detached(() => {
          read();
          settleFrom(0);
        }),
      );
      const poll = setInterval(read, POLL_MS);
      poll.unref();
      return async () => {
        clearInterval(poll);
        clearTimeout(settle);
        cursors.clear();
        await stopListening();
        await reading;
      };
    },
    async watch(tenantId: string, topic: LiveTopic) {
      if (topic !== 'event' || cursors.has(tenantId)) return;
      // Only events the feed serves after this point: a subscription sees what happens once it is open.
      const position = await lastSettledPosition(database.db, tenantId);
      if (!cursors.has(tenantId)) cursors.set(tenantId, position);
    },
    unwatch(tenantId: string, topic: LiveTopic) {
      if (topic === 'event') cursors.delete(tenantId);
    },
  };
}
