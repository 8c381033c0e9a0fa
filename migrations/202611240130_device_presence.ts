import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Device presence events (docs/webhooks.md#device-presence): `offline_since` is set when a
// device.offline event is written (to the last heartbeat before the silence) and cleared when the
// device.online event is written; the conditional UPDATEs on it make each transition happen once,
// whichever process sees it. `event_sequence` is the last `data.sequence` of the device's events.
// Devices silent for more than 3 heartbeat intervals (45 s) when this runs count as offline
// already, so an upgrade does not announce every long-gone device at once.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('offline_since', 'timestamptz')
    .addColumn('event_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE devices SET offline_since = last_heartbeat_at WHERE last_heartbeat_at < now() - interval '45 seconds'`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('offline_since').dropColumn('event_sequence').execute();
}
