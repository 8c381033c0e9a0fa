import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { FeedPosition } from './event-feed.rules.js';

// Reads of the events feed (docs/events.md, "Order"). An event is served only once every
// transaction with a smaller id has finished — its xact_id lies below the xmin of the statement's
// snapshot — and in (xact_id, seq) order. A transaction still running has an id at or above that
// xmin, and one not yet started will get a larger id still, so no event can later appear before a
// position already served: paging on neither skips nor repeats. Both databases (PGlite too) keep
// xid8 and pg_current_snapshot(); the indexes are migration 202611280101's.

/** One served event: the envelope's stored parts and its position (xid8 and int8 as text). */
export interface FeedRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
  /** The position as text: xid8 and int8 do not fit a JavaScript number. */
  position_xid: string;
  position_seq: string;
}

/** The one event type that is no part of the feed: a subscription's own test event (a literal in the SQL, so the partial index events_feed_idx applies whatever the plan). */
const TEST_EVENT = 'webhook.test';

/** Finished: every transaction with a smaller id has ended (committed or rolled back). */
const settled: RawBuilder<boolean> = sql<boolean>`xact_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))`;

const afterPosition = (after: FeedPosition | null): RawBuilder<boolean> =>
  after ? sql<boolean>`(xact_id, seq) > (${after.xactId}::xid8, ${after.seq}::bigint)` : sql<boolean>`true`;

// The position leaves as text under other names: an ORDER BY xact_id must mean the xid8 column.
const COLUMNS = sql`id, type, data, created_at, xact_id, seq, xact_id::text AS position_xid, seq::text AS position_seq`;

/**
 * Up to `limit` events after `after` in feed order, of `types` (null: every type). With types,
 * one index range per type, merged: each reads at most `limit` rows however rare the type.
 */
export async function feedPage(
  db: Executor,
  tenantId: string,
  types: readonly string[] | null,
  after: FeedPosition | null,
  limit: number,
): Promise<FeedRow[]> {
  if (!types) {
    const { rows } = await sql<FeedRow>`
      SELECT ${COLUMNS} FROM events
      WHERE tenant_id = ${tenantId} AND type <> ${sql.lit(TEST_EVENT)} AND ${settled} AND ${afterPosition(after)}
      ORDER BY xact_id, seq LIMIT ${limit}`.execute(db);
    return rows;
  }
  const ranges = types.map(
    (type) => sql`(
      SELECT ${COLUMNS} FROM events
      WHERE tenant_id = ${tenantId} AND type = ${type} AND ${settled} AND ${afterPosition(after)}
      ORDER BY xact_id, seq LIMIT ${limit})`,
  );
  const { rows } = await sql<FeedRow>`
    SELECT id, type, data, created_at, position_xid, position_seq FROM (${sql.join(ranges, sql` UNION ALL `)}) page
    ORDER BY xact_id, seq LIMIT ${limit}`.execute(db);
  return rows;
}

/** How many events the feed serves now (of `types`; null: every type). */
export async function countFeed(db: Executor, tenantId: string, types: readonly string[] | null): Promise<number> {
  const typeFilter = types ? sql`type = ANY (${[...types]}::text[])` : sql`type <> ${sql.lit(TEST_EVENT)}`;
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM events WHERE tenant_id = ${tenantId} AND ${typeFilter} AND ${settled}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The position of the tenant's event `eventId`, or undefined. */
export async function positionOf(db: Executor, tenantId: string, eventId: string): Promise<FeedPosition | undefined> {
  const { rows } = await sql<FeedPosition>`
    SELECT xact_id::text AS "xactId", seq::text AS seq FROM events WHERE tenant_id = ${tenantId} AND id = ${eventId}`.execute(
    db,
  );
  return rows[0];
}

/** The position of the tenant's last event the feed serves now, or null (none yet): a live tail starts after it. */
export async function lastSettledPosition(db: Executor, tenantId: string): Promise<FeedPosition | null> {
  const { rows } = await sql<FeedPosition>`
    SELECT xact_id::text AS "xactId", seq::text AS seq FROM events
    WHERE tenant_id = ${tenantId} AND type <> ${sql.lit(TEST_EVENT)} AND ${settled}
    ORDER BY xact_id DESC, seq DESC LIMIT 1`.execute(db);
  return rows[0] ?? null;
}

/** The tenant's event `eventId` as the feed serves it (its test events are no part of it), or undefined. */
export async function findFeedEvent(db: Executor, tenantId: string, eventId: string): Promise<FeedRow | undefined> {
  const { rows } = await sql<FeedRow>`
    SELECT ${COLUMNS} FROM events
    WHERE tenant_id = ${tenantId} AND id = ${eventId} AND type <> ${sql.lit(TEST_EVENT)}`.execute(db);
  return rows[0];
}
