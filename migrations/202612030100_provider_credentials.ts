import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// A venue's own Stripe, SMTP and SMS credentials, set in the dashboard (issue #41,
// docs/payments.md "Credentials in the dashboard"): one row per tenant and kind. `sealed` is the
// settings as JSON sealed with AES-256-GCM under a key derived from PORTIER_SECRET (the tenant and
// kind as associated data): the database never holds a credential in the clear. `hint` is what the
// dashboard may show again (the last 4 characters of a key, an SMTP host): never the secret.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('provider_credentials')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('stripe', 'smtp', 'sms')`))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('provider_credentials_pkey', ['tenant_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('provider_credentials').execute();
}
