import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Recurring bookings (issue #43, docs/bookings.md "Recurring bookings"): a `booking_series` row holds
// the rule (an RFC 5545 RRULE subset), the local start time and length in the object's time zone,
// and the guest; every occurrence is an ordinary booking with `bookings.series_id` pointing at it
// (NULL for a single booking) and `bookings.series_start` the occurrence's start as the rule made it
// (the invite's RECURRENCE-ID: an occurrence moved since keeps it). Rule starts with no live booking
// are the invite's EXDATEs (left out for a conflict, or cancelled).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('booking_series')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('object_id', 'uuid', (c) => c.notNull().references('objects.id'))
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('first_start', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().check(sql`duration_minutes > 0`))
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text', (c) => c.notNull())
    .addColumn('guest_phone', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('ACTIVE')
        .check(sql`status IN ('ACTIVE', 'CANCELLED')`),
    )
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('booking_series_tenant_created')
    .on('booking_series')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('series_id', 'uuid', (c) => c.references('booking_series.id'))
    .addColumn('series_start', 'timestamptz')
    .execute();
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_series_start CHECK ((series_id IS NULL) = (series_start IS NULL))`.execute(
    db,
  );
  await sql`CREATE INDEX bookings_series ON bookings (series_id, start_time) WHERE series_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_series`.execute(db);
  await db.schema.alterTable('bookings').dropConstraint('bookings_series_start').execute();
  await db.schema.alterTable('bookings').dropColumn('series_start').dropColumn('series_id').execute();
  await db.schema.dropTable('booking_series').execute();
}
