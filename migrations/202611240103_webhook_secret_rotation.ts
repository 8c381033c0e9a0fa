import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Secret rotation (docs/webhooks.md): the secret a rotation replaced keeps signing, beside the new
// one, until previous_secret_expires_at (24 hours).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .dropColumn('previous_secret_sealed')
    .dropColumn('previous_secret_expires_at')
    .execute();
}
