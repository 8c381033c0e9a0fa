import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The last `data.sequence` given to an event of the booking (docs/webhooks.md): incremented in the
// transaction that writes the event, under the booking row's lock, so it grows in commit order.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('event_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('event_sequence').execute();
}
