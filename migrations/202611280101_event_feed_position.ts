import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The events feed's order (docs/events.md): each event keeps the id of the transaction that wrote
// it (xact_id, xid8) and a number from a sequence (seq, increasing within that transaction). The
// feed serves events in (xact_id, seq) order and only those whose transaction id lies below the
// reader's snapshot xmin — every transaction with a smaller id has finished — so an event whose
// transaction commits late can never appear behind a position a reader has already passed.
// Events written before this migration get xact_id 0 and seq in (created_at, id) order: they come
// first. Both columns have defaults, so a process of the previous version (a rolling deploy)
// writes events the feed orders correctly.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN xact_id xid8, ADD COLUMN seq bigint`.execute(db);
  await sql`CREATE SEQUENCE events_seq_seq OWNED BY events.seq`.execute(db);
  await sql`UPDATE events e SET xact_id = '0'::xid8, seq = o.n
    FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM events) o
    WHERE e.id = o.id`.execute(db);
  await sql`SELECT setval('events_seq_seq', (SELECT coalesce(max(seq), 0) + 1 FROM events), false)`.execute(db);
  await sql`ALTER TABLE events
    ALTER COLUMN xact_id SET DEFAULT pg_current_xact_id(),
    ALTER COLUMN xact_id SET NOT NULL,
    ALTER COLUMN seq SET DEFAULT nextval('events_seq_seq'),
    ALTER COLUMN seq SET NOT NULL`.execute(db);
  // A tenant's feed in order (the test event of one subscription is no part of it), and the same
  // per event type (a `types` filter reads one range per type and merges them).
  await sql`CREATE INDEX events_feed_idx ON events (tenant_id, xact_id, seq) WHERE type <> 'webhook.test'`.execute(db);
  await sql`CREATE INDEX events_feed_type_idx ON events (tenant_id, type, xact_id, seq)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS events_feed_type_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS events_feed_idx`.execute(db);
  await sql`ALTER TABLE events DROP COLUMN seq, DROP COLUMN xact_id`.execute(db);
}
