import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The refund outbox (docs/payments.md, "Refunds"): a cancellation commits its state and a refund
// intent in one transaction, and the worker calls the provider later, outside any transaction, with
// the intent's idempotency key. A worker claims an intent by moving next_attempt_at past the call's
// deadline (FOR UPDATE SKIP LOCKED), so a process killed mid-call leaves an intent that is claimed
// again once that lease ends, and retried with the same key (the provider makes one refund).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refund_intents')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider IN ('stripe')`))
    .addColumn('payment_reference', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending','succeeded','failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('provider_refund_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX refund_intents_due_idx ON refund_intents (next_attempt_at) WHERE status = 'pending'`.execute(
    db,
  );
  await db.schema.createIndex('refund_intents_booking_idx').on('refund_intents').column('booking_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refund_intents').execute();
}
