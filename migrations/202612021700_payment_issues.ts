import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Payment issues staff see on the dashboard (docs/payments.md, "Payment issues"): a difference the
// reconciliation (or the webhook's amount check) flagged is kept in payment_discrepancies, one row
// per provider object and kind, so repeated runs refresh the row instead of adding one; staff
// acknowledge it. A refund intent that failed for good is acknowledged on its own row.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_discrepancies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider IN ('stripe')`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('acknowledged_at', 'timestamptz')
    .addColumn('acknowledged_by', 'text')
    .addUniqueConstraint('payment_discrepancies_object_key', ['provider', 'kind', 'reference'])
    .execute();
  await sql`CREATE INDEX payment_discrepancies_open_idx ON payment_discrepancies (tenant_id, first_seen_at)
    WHERE acknowledged_at IS NULL`.execute(db);
  await db.schema
    .alterTable('refund_intents')
    .addColumn('acknowledged_at', 'timestamptz')
    .addColumn('acknowledged_by', 'text')
    .execute();
  await sql`CREATE INDEX refund_intents_failed_idx ON refund_intents (tenant_id, updated_at)
    WHERE status = 'failed' AND acknowledged_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS refund_intents_failed_idx`.execute(db);
  await db.schema.alterTable('refund_intents').dropColumn('acknowledged_at').dropColumn('acknowledged_by').execute();
  await db.schema.dropTable('payment_discrepancies').execute();
}
