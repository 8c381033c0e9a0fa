import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Publishable keys (issue #41, docs/booking-page.md, "Publishable key"): an API key of kind
// 'publishable' (svc_pk_…) holds only the booking_page scope and is meant to sit in a browser, so
// its value is kept (publishable_key) and shown again in the dashboard; a secret key's value is
// never stored (publishable_key stays null). At most one working publishable key per tenant:
// rotating revokes the old one in the same transaction that creates the new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('secret')
        .check(sql`kind IN ('secret', 'publishable')`),
    )
    .addColumn('publishable_key', 'text')
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addCheckConstraint('api_keys_publishable_key_kind', sql`(kind = 'publishable') = (publishable_key IS NOT NULL)`)
    .execute();
  await db.schema
    .createIndex('api_keys_one_publishable_per_tenant')
    .on('api_keys')
    .column('tenant_id')
    .unique()
    .where(sql.ref('kind'), '=', 'publishable')
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_one_publishable_per_tenant').execute();
  await db.schema.alterTable('api_keys').dropConstraint('api_keys_publishable_key_kind').execute();
  await db.schema.alterTable('api_keys').dropColumn('publishable_key').dropColumn('kind').execute();
}
