import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// At-most-once guest messages (issue #42, docs/notifications.md "Delivery"): a send is recorded as
// 'sending' (committed) before it leaves and reconciled after; a 'sending' row whose outcome was
// never recorded becomes 'unknown' once its lease ends, for staff to look at and resend by hand.
// The sweep looks for expired 'sending' rows, hence the partial index beside notifications_due.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_status_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_status_check
    CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'unknown', 'cancelled'))`.execute(db);
  await sql`CREATE INDEX notifications_sending ON notifications (next_attempt_at, id) WHERE status = 'sending'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX notifications_sending`.execute(db);
  await sql`UPDATE notifications SET status = 'failed' WHERE status IN ('sending', 'unknown')`.execute(db);
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_status_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_status_check
    CHECK (status IN ('pending', 'sent', 'failed', 'cancelled'))`.execute(db);
}
