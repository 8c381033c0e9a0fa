import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// A tenant's booking count by status, kept as the bookings change (docs/performance.md, round
// thirteen): a listing's total (`pagination.total`, `totalCount`) with no filter or a status filter
// reads a handful of rows instead of counting every index entry of the tenant (2.1 ms for 28,500).
//
// Writers never wait on each other: a row trigger appends a delta (+1, -1) to
// booking_count_deltas, in the writing transaction, so a count read in any snapshot is exact. The
// dispatcher's sweep folds the deltas into booking_counts now and then (one statement: the deltas
// it deletes and the sums it adds commit together). A count is booking_counts' n plus the deltas
// not folded yet. No foreign keys: a tenant's deletion cascades to its bookings, whose -1 deltas
// must not refer to the tenant being deleted.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE booking_counts (
    tenant_id uuid NOT NULL,
    status text NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (tenant_id, status)
  )`.execute(db);
  await sql`CREATE TABLE booking_count_deltas (
    tenant_id uuid NOT NULL,
    status text NOT NULL,
    delta integer NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX booking_count_deltas_tenant_status_idx ON booking_count_deltas (tenant_id, status)`.execute(
    db,
  );
  await sql`CREATE FUNCTION portier_count_bookings() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO booking_count_deltas (tenant_id, status, delta) VALUES (NEW.tenant_id, NEW.status, 1);
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO booking_count_deltas (tenant_id, status, delta) VALUES (OLD.tenant_id, OLD.status, -1);
      ELSE
        INSERT INTO booking_count_deltas (tenant_id, status, delta)
          VALUES (OLD.tenant_id, OLD.status, -1), (NEW.tenant_id, NEW.status, 1);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_count AFTER INSERT OR DELETE ON bookings
    FOR EACH ROW EXECUTE FUNCTION portier_count_bookings()`.execute(db);
  // Only an update that moves a booking between counts calls the function at all.
  await sql`CREATE TRIGGER bookings_count_status AFTER UPDATE OF status, tenant_id ON bookings
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
    EXECUTE FUNCTION portier_count_bookings()`.execute(db);
  // The triggers exist before the counts are taken, and both commit with this migration: a booking
  // written meanwhile waits for the trigger's lock on bookings, then adds its delta.
  await sql`INSERT INTO booking_counts (tenant_id, status, n)
    SELECT tenant_id, status, count(*) FROM bookings GROUP BY tenant_id, status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER bookings_count_status ON bookings`.execute(db);
  await sql`DROP TRIGGER bookings_count ON bookings`.execute(db);
  await sql`DROP FUNCTION portier_count_bookings()`.execute(db);
  await sql`DROP TABLE booking_count_deltas`.execute(db);
  await sql`DROP TABLE booking_counts`.execute(db);
}
