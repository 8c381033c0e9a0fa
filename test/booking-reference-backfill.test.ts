import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateBackTo, migrateToLatest } from '../src/kernel/db/migrate.js';
import { REFERENCE_ALPHABET } from '../src/modules/bookings/reference.js';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database.js';

// Migration 202612021720_booking_reference_messages gives every existing booking a reference:
// distinct within each tenant, of the documented form, the same reference allowed in two tenants.
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await openScratchDatabase('reference_backfill');
});
afterAll(() => scratch?.close());

it('backfills a distinct reference for every existing booking, per tenant', async () => {
  const db = scratch.database.db;
  await migrateToLatest(db);
  await migrateBackTo(db, '202612021600_guest_side');
  for (const tenant of ['A', 'B']) {
    await sql`WITH t AS (INSERT INTO tenants (name) VALUES (${tenant}) RETURNING id),
      a AS (INSERT INTO accommodations (tenant_id, name, address, time_zone) SELECT id, 'Park', 'Street 1', 'Europe/Berlin' FROM t RETURNING id, tenant_id),
      o AS (INSERT INTO objects (tenant_id, accommodation_id, name, price_per_hour, opening_hours) SELECT tenant_id, id, 'Court', 1000, '{}'::jsonb FROM a RETURNING id, tenant_id)
      INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
      SELECT o.tenant_id, o.id, 'G', 'g@example.com', s, s + interval '1 hour', s + interval '1 hour', 'COMPLETED', 1000
        FROM o CROSS JOIN generate_series(timestamptz '2025-01-01', timestamptz '2025-01-01' + interval '1999 hours', interval '1 hour') s`.execute(
      db,
    );
  }
  await migrateToLatest(db);
  const { rows } = await sql<{
    tenant_id: string;
    reference: string;
  }>`SELECT tenant_id, reference FROM bookings`.execute(db);
  expect(rows).toHaveLength(4000);
  const form = new RegExp(`^PRT-[${REFERENCE_ALPHABET}]{5}$`);
  for (const row of rows) expect(row.reference).toMatch(form);
  const byTenant = new Map<string, Set<string>>();
  for (const row of rows) byTenant.set(row.tenant_id, (byTenant.get(row.tenant_id) ?? new Set()).add(row.reference));
  for (const references of byTenant.values()) expect(references.size).toBe(2000);
  // The same scramble in each tenant: the n-th booking of each has the same reference.
  const [a, b] = [...byTenant.values()];
  expect([...a].sort()).toEqual([...b].sort());
  // New bookings after the migration still get theirs from the trigger.
  const { rows: fresh } = await sql<{ reference: string }>`
    INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
    SELECT tenant_id, object_id, 'N', 'n@example.com', timestamptz '2026-01-01', timestamptz '2026-01-01 01:00', timestamptz '2026-01-01 01:00', 'PENDING', 1000
      FROM bookings LIMIT 1 RETURNING reference`.execute(db);
  expect(fresh[0]?.reference).toMatch(form);
});
