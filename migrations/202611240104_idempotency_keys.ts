import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Idempotency keys (docs/idempotency.md): one row per (tenant, credential, key). While the first
// request runs the row is `running` with a lease; then it holds the answer to replay. Rows are
// pruned 24 hours after they were made.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    // The principal's key id: an API key's id, `user:<id>` for a dashboard session, `oauth:<client>:<tenant>`.
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // SHA-256 of the method, path and canonical body: a different request under the same key is refused.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('running', 'done')`))
    // While running: when another request may take the key over (its holder died).
    .addColumn('locked_until', 'timestamptz')
    .addColumn('status_code', 'integer')
    .addColumn('headers', 'jsonb')
    .addColumn('body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['tenant_id', 'credential', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
