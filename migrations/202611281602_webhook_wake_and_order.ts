import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Webhooks delivered on commit and in order per booking (docs/webhooks.md#delivery-guarantees):
// - every statement that writes outbox events sends NOTIFY portier_webhook_events; PostgreSQL
//   delivers it when the transaction commits (never on rollback) to every dispatcher LISTENing,
//   in any process, so none waits for its poll;
// - a delivery carries its event's order key (the booking's or device's id) and sequence, copied
//   at fan-out, so a dispatcher holds a delivery while an earlier one of the same key to the same
//   subscription is pending. Deliveries made before this migration have nulls (unordered).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN order_key text, ADD COLUMN order_sequence integer`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, order_key, order_sequence)
    WHERE status = 'pending' AND order_key IS NOT NULL`.execute(db);
  await sql`CREATE FUNCTION portier_notify_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('portier_webhook_events', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_notify_dispatchers AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION portier_notify_webhook_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER events_notify_dispatchers ON events`.execute(db);
  await sql`DROP FUNCTION portier_notify_webhook_events()`.execute(db);
  await sql`DROP INDEX webhook_deliveries_order_idx`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN order_key, DROP COLUMN order_sequence`.execute(db);
}
