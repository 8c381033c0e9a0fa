import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Guest notifications (docs/notifications.md). `notification_settings` holds a tenant's choices
// (no row: email and SMS on, no reminder). `notifications` is the outbox of mails and text
// messages: a row is written in the transaction of the booking change it tells about, so it exists
// exactly when the change does; the sender claims due rows with FOR UPDATE SKIP LOCKED and a lease
// (next_attempt_at moved forward), sends, and records the outcome. One row per (booking, channel,
// kind, sequence): the booking's event sequence, so the same change is never queued twice.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_settings')
    .addColumn('tenant_id', 'uuid', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('email_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('sms_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('sender_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('reminder_hours_before', 'integer')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid')
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('email', 'sms')`))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind IN ('confirmed', 'rescheduled', 'cancelled', 'reminder')`),
    )
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'sent', 'failed', 'cancelled')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('notifications_change_once')
    .on('notifications')
    .columns(['tenant_id', 'booking_id', 'channel', 'kind', 'sequence'])
    .unique()
    .execute();
  await sql`CREATE INDEX notifications_due ON notifications (next_attempt_at, id) WHERE status = 'pending'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('notification_settings').execute();
}
