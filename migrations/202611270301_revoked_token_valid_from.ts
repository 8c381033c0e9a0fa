import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// A revoked token keeps the start of its window: an offline decision a door reports for a revoked
// token is accepted only inside the token's window (docs/devices.md#offline-decisions), and after a
// reschedule the booking's window is no longer the token's. Rows revoked before this column are null
// (their window then ends at expires_at with no lower bound).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('revoked_tokens').addColumn('valid_from', 'timestamptz').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('revoked_tokens').dropColumn('valid_from').execute();
}
