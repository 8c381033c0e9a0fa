import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Issue #43 (docs/bookings.md "No-shows and cancellation reasons", docs/reports.md):
// - bookings.no_show_at: when staff marked a CONFIRMED booking a no-show (after its start). The
//   contract fixes the statuses (PENDING, CONFIRMED, CANCELLED, COMPLETED), so a no-show is a mark
//   on the booking, not a status.
// - bookings.cancellation_reason_code / cancellation_reason: why it was cancelled (a code and up to
//   500 characters of free text), set with the cancellation.
// - The reports' aggregates: a covering index of a tenant's bookings by start (index-only scans of
//   what the reports add up), and the payments ledger by tenant and time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('no_show_at', 'timestamptz')
    .addColumn('cancellation_reason_code', 'text', (c) =>
      c.check(
        sql`cancellation_reason_code IN ('GUEST_REQUEST', 'NO_PAYMENT', 'WEATHER', 'MAINTENANCE', 'DUPLICATE', 'VENUE_CLOSED', 'OTHER')`,
      ),
    )
    .addColumn('cancellation_reason', 'text', (c) => c.check(sql`char_length(cancellation_reason) <= 500`))
    .execute();
  await sql`CREATE INDEX bookings_tenant_start_report_idx ON bookings (tenant_id, start_time)
    INCLUDE (end_time, object_id, status, total_price, currency, no_show_at)`.execute(db);
  await sql`CREATE INDEX payments_tenant_created_idx ON payments (tenant_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS payments_tenant_created_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS bookings_tenant_start_report_idx`.execute(db);
  await db.schema
    .alterTable('bookings')
    .dropColumn('cancellation_reason')
    .dropColumn('cancellation_reason_code')
    .dropColumn('no_show_at')
    .execute();
}
