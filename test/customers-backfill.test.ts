import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateBackTo, migrateToLatest } from '../src/kernel/db/migrate.js';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database.js';

// Migration 202612030301_customers gives the existing bookings their customers: one per tenant and
// normalised guest email (case and surrounding spaces ignored), named and phoned as the latest of
// those bookings (a phone only when it reads as E.164), made when the first was.
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await openScratchDatabase('customers_backfill');
});
afterAll(() => scratch?.close());

it('backfills one customer per tenant and normalised email, linking every booking', async () => {
  const db = scratch.database.db;
  await migrateToLatest(db);
  const before = (
    await sql<{
      name: string;
    }>`SELECT name FROM kysely_migration WHERE name < '202612030301_customers' ORDER BY name DESC LIMIT 1`.execute(db)
  ).rows[0].name;
  await migrateBackTo(db, before);
  const guests: [string, string, string | null, string][] = [
    // [email, name, phone, start]
    ['Ada@Example.com', 'Ada L', '+49 30 1234567', '2025-01-01T10:00:00Z'],
    ['  ada@example.COM', 'Ada Lovelace', null, '2025-01-02T10:00:00Z'],
    ['grace@example.com', 'Grace', '030 1234', '2025-01-03T10:00:00Z'],
  ];
  for (const tenant of ['A', 'B']) {
    await sql`WITH t AS (INSERT INTO tenants (name) VALUES (${tenant}) RETURNING id),
      a AS (INSERT INTO accommodations (tenant_id, name, address, time_zone) SELECT id, 'Park', 'Street 1', 'Europe/Berlin' FROM t RETURNING id, tenant_id)
      INSERT INTO objects (tenant_id, accommodation_id, name, price_per_hour, opening_hours) SELECT tenant_id, id, 'Court', 1000, '{}'::jsonb FROM a`.execute(
      db,
    );
    for (const [email, name, phone, start] of guests) {
      await sql`INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, guest_phone, start_time, end_time, blocked_until, status, total_price, created_at)
        SELECT o.tenant_id, o.id, ${name}, ${email}, ${phone}, ${start}::timestamptz, ${start}::timestamptz + interval '1 hour',
               ${start}::timestamptz + interval '1 hour', 'COMPLETED', 1000, ${start}::timestamptz
          FROM objects o JOIN tenants t ON t.id = o.tenant_id WHERE t.name = ${tenant}`.execute(db);
    }
  }
  await migrateToLatest(db);
  const { rows: customers } = await sql<{
    tenant: string;
    name: string;
    email: string;
    phone: string | null;
    created_at: Date;
    bookings: number;
  }>`SELECT t.name AS tenant, c.name, c.email, c.phone, c.created_at,
            (SELECT count(*)::int FROM bookings b WHERE b.customer_id = c.id) AS bookings
       FROM customers c JOIN tenants t ON t.id = c.tenant_id ORDER BY t.name, c.email`.execute(db);
  expect(customers).toHaveLength(4);
  for (const tenant of ['A', 'B']) {
    const mine = customers.filter((c) => c.tenant === tenant);
    // The latest booking names the customer (and has no phone); the first one's time is its creation.
    expect(mine[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.COM', phone: null, bookings: 2 });
    expect(mine[0].created_at.toISOString()).toBe('2025-01-01T10:00:00.000Z');
    // A phone that does not read as E.164 is not kept.
    expect(mine[1]).toMatchObject({ name: 'Grace', email: 'grace@example.com', phone: null, bookings: 1 });
  }
  const { rows: unlinked } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM bookings WHERE customer_id IS NULL`.execute(db);
  expect(unlinked[0].n).toBe(0);
  // A tenant-scoped key: a booking cannot name another tenant's customer.
  await expect(
    sql`UPDATE bookings b SET customer_id = (SELECT c.id FROM customers c WHERE c.tenant_id <> b.tenant_id LIMIT 1)`.execute(
      db,
    ),
  ).rejects.toThrow(/foreign key/);
  // The unique email index holds per tenant, case-insensitively.
  await expect(
    sql`INSERT INTO customers (tenant_id, name, email) SELECT tenant_id, 'X', 'GRACE@example.com' FROM customers LIMIT 1`.execute(
      db,
    ),
  ).rejects.toThrow(/duplicate key|unique/);
});
