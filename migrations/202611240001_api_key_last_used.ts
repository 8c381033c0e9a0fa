import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// When an API key was last used (shown in the dashboard's Admin → API Keys), refreshed at most once a
// minute per key so the hot path does not write on every request.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'timestamptz').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
}
