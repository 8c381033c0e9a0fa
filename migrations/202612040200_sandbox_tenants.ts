import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Test mode (issue #44, docs/test-mode.md): a live tenant may have one sandbox tenant, a tenants
// row with livemode = false that points at it. Every tenant-owned table is scoped by tenant_id, so
// the sandbox's bookings, objects, webhooks, devices and payment settings are apart from live data.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('livemode', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('live_tenant_id', 'uuid', (c) => c.references('tenants.id').onDelete('cascade'))
    .execute();
  // One sandbox per live tenant; a sandbox has a live tenant, a live tenant has none.
  await sql`CREATE UNIQUE INDEX tenants_live_tenant_key ON tenants (live_tenant_id)`.execute(db);
  await sql`ALTER TABLE tenants ADD CONSTRAINT tenants_sandbox_check
    CHECK ((livemode AND live_tenant_id IS NULL) OR (NOT livemode AND live_tenant_id IS NOT NULL))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM tenants WHERE NOT livemode`.execute(db);
  await db.schema.alterTable('tenants').dropConstraint('tenants_sandbox_check').execute();
  await db.schema.dropIndex('tenants_live_tenant_key').execute();
  await db.schema.alterTable('tenants').dropColumn('live_tenant_id').dropColumn('livemode').execute();
}
