import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// notifications.kind: 'series_confirmed', the one mail a guest receives when a recurring booking
// (a series, src/modules/series) is created confirmed: every booked date, the skipped ones, and
// the series' recurring calendar invite (issue #43, docs/bookings.md "Recurring bookings").
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('confirmed', 'rescheduled', 'cancelled', 'reminder', 'payment_due', 'receipt', 'series_confirmed'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM notifications WHERE kind = 'series_confirmed'`.execute(db);
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('confirmed', 'rescheduled', 'cancelled', 'reminder', 'payment_due', 'receipt'))`.execute(db);
}
