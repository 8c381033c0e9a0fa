import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Bookings search (docs/dashboard-ui.md#find-and-export): part of a guest's name or email, matched
// with ILIKE '%…%'. A trigram GIN index over both columns serves such matches (pg_trgm: every
// pattern of three or more characters uses it; the two ILIKEs of the OR are a BitmapOr over it).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX bookings_guest_search_idx ON bookings USING gin (guest_name gin_trgm_ops, guest_email gin_trgm_ops)`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_guest_search_idx`.execute(db);
}
