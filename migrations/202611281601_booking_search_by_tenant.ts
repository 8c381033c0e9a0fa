import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Bookings search by tenant: the trigram index of 202611270401 held every tenant's names, so a
// fragment made of common trigrams ("uest 3-1": "ues", "est" are in every "Guest N") made the scan
// walk the posting lists of all tenants' rows and AND them with the tenant afterwards (95 ms p95 on
// the bench's --scale=large dataset, ~1,000,000 bookings). With tenant_id as the index's first
// column (btree_gin gives uuid a GIN operator class) each scan reads only the tenant's entries:
// 7 ms → 0.5 ms and 30 ms → 1.7 ms for the two plans measured on a million rows (docs/performance.md).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
  await sql`CREATE INDEX bookings_guest_search_tenant_idx ON bookings
              USING gin (tenant_id, guest_name gin_trgm_ops, guest_email gin_trgm_ops)`.execute(db);
  await sql`DROP INDEX IF EXISTS bookings_guest_search_idx`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS bookings_guest_search_idx ON bookings
              USING gin (guest_name gin_trgm_ops, guest_email gin_trgm_ops)`.execute(db);
  await sql`DROP INDEX IF EXISTS bookings_guest_search_tenant_idx`.execute(db);
}
