import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// OAuth 2.0: the apps tenants register, the grants tenants give them, and oidc-provider's own
// state (codes, tokens, grants, sessions, interactions) kept through Portier's adapter.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_apps')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', sql`text[]`, (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(false))
    // SHA-256 of the client secret (a 256-bit random value); null for a public app.
    .addColumn('secret_hash', 'text')
    .addColumn('secret_rotated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'oauth_apps_secret_check',
      sql`(public AND secret_hash IS NULL) OR (NOT public AND secret_hash IS NOT NULL)`,
    )
    .execute();
  await db.schema.createIndex('oauth_apps_tenant_idx').on('oauth_apps').columns(['tenant_id', 'created_at']).execute();

  // One row per consent ("Allow"): which tenant granted which app what, through which user.
  await db.schema
    .createTable('oauth_grants')
    .addColumn('grant_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_apps.client_id').onDelete('cascade'))
    // The user who allowed it; a removed user's grants end with them.
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    // When the grant ends unless revoked before (oidc-provider's Grant TTL).
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_grants_tenant_client_idx')
    .on('oauth_grants')
    .columns(['tenant_id', 'client_id'])
    .execute();
  await db.schema.createIndex('oauth_grants_client_idx').on('oauth_grants').columns(['client_id']).execute();

  // oidc-provider's models. Identifiers are stored as SHA-256 hashes (an opaque token's identifier
  // is the token itself) and payloads sealed with PORTIER_SECRET, so no token is readable here.
  await db.schema
    .createTable('oauth_store')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id_hash', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid_hash', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oauth_store_pkey', ['model', 'id_hash'])
    .execute();
  await sql`CREATE INDEX oauth_store_grant_idx ON oauth_store (grant_id) WHERE grant_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX oauth_store_uid_idx ON oauth_store (model, uid_hash) WHERE uid_hash IS NOT NULL`.execute(db);
  await sql`CREATE INDEX oauth_store_expires_idx ON oauth_store (expires_at) WHERE expires_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['oauth_store', 'oauth_grants', 'oauth_apps']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
