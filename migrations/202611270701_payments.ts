import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Payments (docs/payments.md). A booking carries its payment summary (status, cents paid and
// refunded, provider, when paid); `payments` is the ledger behind it, one row per charge or refund.
// A provider event is applied at most once: (provider, provider_event_id) is unique, and the row is
// inserted under the booking's row lock. `checkout_sessions` remembers the Checkout Session a
// booking's paymentUrl opened, so it is reused while it has not expired. `tenant_settings` holds
// confirmOnPayment (default on) and pendingExpiryMinutes (default off: NULL).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('payment_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('UNPAID')
        .check(sql`payment_status IN ('UNPAID','PAID','REFUNDED','PARTIALLY_REFUNDED')`),
    )
    .addColumn('amount_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_provider', 'text')
    .addColumn('paid_at', 'timestamptz')
    .execute();
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_payment_amounts CHECK (amount_paid >= 0 AND amount_refunded >= 0 AND amount_refunded <= amount_paid)`.execute(
    db,
  );

  await db.schema
    .createTable('payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('payment','refund')`))
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider IN ('stripe','venue')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('provider_event_id', 'text')
    .addColumn('provider_reference', 'text')
    .addColumn('note', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payments_booking_idx').on('payments').columns(['booking_id', 'created_at']).execute();
  await db.schema
    .createIndex('payments_provider_event_key')
    .on('payments')
    .columns(['provider', 'provider_event_id'])
    .unique()
    .execute();
  // The same charge (payment intent) or refund is recorded once, whichever path saw it first
  // (the webhook, or the success page asking the provider).
  await sql`CREATE UNIQUE INDEX payments_provider_reference_key ON payments (provider, kind, provider_reference) WHERE provider_reference IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('checkout_sessions_booking_idx')
    .on('checkout_sessions')
    .columns(['booking_id', 'expires_at'])
    .execute();

  await db.schema
    .createTable('tenant_settings')
    .addColumn('tenant_id', 'uuid', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('confirm_on_payment', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('pending_expiry_minutes', 'integer', (c) => c.check(sql`pending_expiry_minutes BETWEEN 1 AND 10080`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The hold sweep looks for unpaid PENDING bookings by creation time.
  await sql`CREATE INDEX bookings_unpaid_pending_idx ON bookings (created_at) WHERE status = 'PENDING' AND payment_status = 'UNPAID'`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_unpaid_pending_idx`.execute(db);
  await db.schema.dropTable('tenant_settings').execute();
  await db.schema.dropTable('checkout_sessions').execute();
  await db.schema.dropTable('payments').execute();
  await sql`ALTER TABLE bookings DROP CONSTRAINT bookings_payment_amounts`.execute(db);
  await db.schema
    .alterTable('bookings')
    .dropColumn('payment_status')
    .dropColumn('amount_paid')
    .dropColumn('amount_refunded')
    .dropColumn('payment_provider')
    .dropColumn('paid_at')
    .execute();
}
