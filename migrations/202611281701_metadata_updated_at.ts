import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Metadata and change tracking (issue #27): bookings and objects carry `metadata`, the
// integrator's own string→string map (≤ 50 keys; checked by the application), filtered by exact
// key/value pairs (`metadata @> '{"k":"v"}'`, served by a GIN jsonb_path_ops index), and
// objects get the `updated_at` bookings already had. `updatedSince` filters read
// (tenant_id, updated_at) btree indexes. Existing objects count as last changed when created.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
  await sql`ALTER TABLE objects ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
  await sql`ALTER TABLE objects ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`.execute(db);
  await sql`UPDATE objects SET updated_at = created_at`.execute(db);
  await sql`CREATE INDEX bookings_metadata_idx ON bookings USING gin (metadata jsonb_path_ops)`.execute(db);
  await sql`CREATE INDEX objects_metadata_idx ON objects USING gin (metadata jsonb_path_ops)`.execute(db);
  await sql`CREATE INDEX bookings_tenant_updated_idx ON bookings (tenant_id, updated_at)`.execute(db);
  await sql`CREATE INDEX objects_tenant_updated_idx ON objects (tenant_id, updated_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS objects_tenant_updated_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS bookings_tenant_updated_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS objects_metadata_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS bookings_metadata_idx`.execute(db);
  await sql`ALTER TABLE objects DROP COLUMN updated_at`.execute(db);
  await sql`ALTER TABLE objects DROP COLUMN metadata`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN metadata`.execute(db);
}
