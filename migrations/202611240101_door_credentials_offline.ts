import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Offline-verifiable door credentials (docs/devices.md): each tenant's Ed25519 signing keys (private
// keys sealed with PORTIER_SECRET), the signed token's id, key and window on each booking's
// credentials, the ids of revoked tokens (for heartbeats), each tenant's offline policy, and the
// mode (online/offline) of access-log entries with the idempotency key of reported offline ones.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('door_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('public_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('retired_at', 'timestamptz')
    .execute();
  // One signing key per tenant at a time; retired keys still verify the tokens they signed.
  await sql`CREATE UNIQUE INDEX door_signing_keys_active_idx ON door_signing_keys (tenant_id) WHERE retired_at IS NULL`.execute(
    db,
  );
  await db.schema
    .createIndex('door_signing_keys_tenant_idx')
    .on('door_signing_keys')
    .columns(['tenant_id', 'created_at'])
    .execute();

  // Legacy (opaque) QR tokens keep their hash; signed tokens are found by booking id and token id.
  await db.schema
    .alterTable('booking_credentials')
    .alterColumn('qr_token_hash', (c) => c.dropNotNull())
    .execute();
  await db.schema.alterTable('booking_credentials').addColumn('token_id', 'text').execute();
  await db.schema.alterTable('booking_credentials').addColumn('key_id', 'text').execute();
  await db.schema.alterTable('booking_credentials').addColumn('valid_from', 'timestamptz').execute();
  await db.schema.alterTable('booking_credentials').addColumn('valid_until', 'timestamptz').execute();
  await db.schema.alterTable('booking_credentials').addColumn('object_id', 'uuid').execute();
  await sql`CREATE UNIQUE INDEX booking_credentials_token_id_idx ON booking_credentials (tenant_id, token_id) WHERE token_id IS NOT NULL`.execute(
    db,
  );
  // Which retired keys still verify unexpired tokens (the JWKS of device configs).
  await sql`CREATE INDEX booking_credentials_key_idx ON booking_credentials (tenant_id, key_id, valid_until) WHERE key_id IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('revoked_tokens')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'uuid', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('revoked_tokens_pk', ['tenant_id', 'token_id'])
    .execute();
  await db.schema
    .createIndex('revoked_tokens_recent_idx')
    .on('revoked_tokens')
    .columns(['tenant_id', 'revoked_at'])
    .execute();

  await db.schema
    .createTable('door_offline_policies')
    .addColumn('tenant_id', 'uuid', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('max_offline_seconds', 'integer', (c) => c.notNull().check(sql`max_offline_seconds BETWEEN 0 AND 86400`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('access_log')
    .addColumn('mode', 'text', (c) =>
      c
        .notNull()
        .defaultTo('online')
        .check(sql`mode IN ('online','offline')`),
    )
    .execute();
  await db.schema.alterTable('access_log').addColumn('token_id', 'text').execute();
  await db.schema.alterTable('access_log').addColumn('offline_key', 'text').execute();
  // A reported offline decision is stored once however often the door sends it.
  await sql`CREATE UNIQUE INDEX access_log_offline_key_idx ON access_log (tenant_id, device_id, offline_key) WHERE offline_key IS NOT NULL`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS access_log_offline_key_idx`.execute(db);
  await db.schema
    .alterTable('access_log')
    .dropColumn('offline_key')
    .dropColumn('token_id')
    .dropColumn('mode')
    .execute();
  await db.schema.dropTable('door_offline_policies').ifExists().execute();
  await db.schema.dropTable('revoked_tokens').ifExists().execute();
  await sql`DROP INDEX IF EXISTS booking_credentials_key_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS booking_credentials_token_id_idx`.execute(db);
  await db.schema
    .alterTable('booking_credentials')
    .dropColumn('object_id')
    .dropColumn('valid_until')
    .dropColumn('valid_from')
    .dropColumn('key_id')
    .dropColumn('token_id')
    .execute();
  // Rows issued with signed tokens only have no opaque hash: they cannot go back to the old shape.
  await db.deleteFrom('booking_credentials').where('qr_token_hash', 'is', null).execute();
  await db.schema
    .alterTable('booking_credentials')
    .alterColumn('qr_token_hash', (c) => c.setNotNull())
    .execute();
  await db.schema.dropTable('door_signing_keys').ifExists().execute();
}
