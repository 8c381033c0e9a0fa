import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The dispatchers' wake-up (migration 202611281602) only when a statement wrote events: the access
// log's batches insert their opt-in access.decided events in the same statement (an INSERT … SELECT
// that writes none for tenants nobody subscribed), and a statement-level trigger fires even for
// zero rows; without the transition table every batch of scans would wake every dispatcher.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER events_notify_dispatchers ON events`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION portier_notify_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM written) THEN
        PERFORM pg_notify('portier_webhook_events', '');
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_notify_dispatchers AFTER INSERT ON events
    REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION portier_notify_webhook_events()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER events_notify_dispatchers ON events`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION portier_notify_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('portier_webhook_events', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_notify_dispatchers AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION portier_notify_webhook_events()`.execute(db);
}
