import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/kernel/db/types.js';
import { createTenant, createApiKey } from '../src/modules/tenants/tenants.service.js';
import { createPricingRule } from '../src/modules/pricing/pricing-rules.service.js';
import { parsePricingRule } from '../src/modules/pricing/rule-input.js';

// The bench dataset, written straight into the database in bulk: 20 accommodations, 500 objects,
// 10,000 bookings (more seeders below for devices, doors and credentials).

export const SIZE = { accommodations: 20, objectsPerAccommodation: 25, bookingsPerObject: 20 };

export interface Dataset {
  tenantId: string;
  apiKey: string;
  accommodationIds: string[];
  objectIds: string[];
  /** A local date (Europe/Berlin) that has seeded bookings, for the availability scenario. */
  busyDate: string;
  /** The first day (UTC midnight) from which no seeded booking exists, for creation. */
  freeFrom: Date;
}

const everyDay = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '06:00', close: '23:00' },
  ]),
);

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function dayStart(offsetDays: number): Date {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d;
}

export async function seedDataset(db: Kysely<DB>): Promise<Dataset> {
  const { tenant } = await db.transaction().execute((trx) => createTenant(trx, 'Bench Club'));
  const { apiKey } = await createApiKey(db, { tenantId: tenant.id, name: 'bench', scopes: ['admin'] });

  const accommodations = await db
    .insertInto('accommodations')
    .values(
      Array.from({ length: SIZE.accommodations }, (_, i) => ({
        tenant_id: tenant.id,
        name: `Park ${i + 1}`,
        address: `Street ${i + 1}, Berlin`,
        time_zone: 'Europe/Berlin',
      })),
    )
    .returning('id')
    .execute();
  const accommodationIds = accommodations.map((a) => a.id);

  const objectValues = accommodationIds.flatMap((accommodation_id, a) =>
    Array.from({ length: SIZE.objectsPerAccommodation }, (_, i) => ({
      tenant_id: tenant.id,
      accommodation_id,
      name: `Court ${a + 1}.${i + 1}`,
      price_per_hour: 1500 + (i % 5) * 250,
      opening_hours: JSON.stringify(everyDay),
    })),
  );
  const objectIds: string[] = [];
  for (const chunk of chunks(objectValues, 250)) {
    objectIds.push(...(await db.insertInto('objects').values(chunk).returning('id').execute()).map((o) => o.id));
  }

  // Bookings: each object one per day on days 1..20 (10:00–11:00 UTC), mostly CONFIRMED.
  const bookingValues = objectIds.flatMap((object_id, o) =>
    Array.from({ length: SIZE.bookingsPerObject }, (_, d) => {
      const start = new Date(dayStart(d + 1).getTime() + (8 + (o % 10)) * 3_600_000);
      const end = new Date(start.getTime() + 3_600_000);
      return {
        tenant_id: tenant.id,
        object_id,
        guest_name: `Guest ${o}-${d}`,
        guest_email: `guest${o}.${d}@example.com`,
        guest_phone: null,
        start_time: start,
        end_time: end,
        blocked_until: end,
        status: d % 4 === 0 ? ('PENDING' as const) : ('CONFIRMED' as const),
        total_price: 2000,
      };
    }),
  );
  for (const chunk of chunks(bookingValues, 1000)) {
    await db.insertInto('bookings').values(chunk).execute();
  }
  // Pricing rules of every type, so quotes (preview and creation) run the whole engine.
  for (const rule of [
    { name: 'Evening peak', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 },
    { name: 'Weekend', type: 'day_based', weekdays: ['saturday', 'sunday'], percent: 10 },
    { name: 'Long booking', type: 'duration_based', minDurationMinutes: 120, percent: -10 },
    { name: 'Early bird', type: 'early_bird', minDaysInAdvance: 14, percent: -5 },
  ]) {
    await createPricingRule(db, tenant.id, parsePricingRule(rule));
  }
  const busy = dayStart(2);
  return {
    tenantId: tenant.id,
    apiKey,
    accommodationIds,
    objectIds,
    busyDate: busy.toISOString().slice(0, 10),
    freeFrom: dayStart(SIZE.bookingsPerObject + 5),
  };
}

/** `--scale=large`: 99 more tenants of 25 objects with 400 bookings each, ~1,000,000 bookings in all. */
export const LARGE = { tenants: 99, objectsPerTenant: 25, bookingsPerObject: 400 };

/**
 * The other tenants of a large installation, written set-based (INSERT … SELECT over
 * generate_series; the exclusion constraint still checks every row): one accommodation each, one
 * booking a day per object from a year back onwards, so the bench tenant's listing, availability
 * and door checks run against a table that is ~99 % other tenants' rows.
 */
export async function seedLargeScale(db: Kysely<DB>): Promise<number> {
  const hours = JSON.stringify(everyDay);
  await sql`INSERT INTO tenants (name) SELECT 'Filler ' || g FROM generate_series(1, ${LARGE.tenants}) g`.execute(db);
  await sql`INSERT INTO accommodations (tenant_id, name, address, time_zone)
            SELECT id, 'Filler park', 'Filler street 1', 'Europe/Berlin' FROM tenants WHERE name LIKE 'Filler %'`.execute(
    db,
  );
  await sql`INSERT INTO objects (tenant_id, accommodation_id, name, price_per_hour, opening_hours)
            SELECT a.tenant_id, a.id, 'Court ' || g, 1500, ${hours}::jsonb
              FROM accommodations a CROSS JOIN generate_series(1, ${LARGE.objectsPerTenant}) g WHERE a.name = 'Filler park'`.execute(
    db,
  );
  const result = await sql<{ n: number }>`
    WITH inserted AS (
      INSERT INTO bookings (tenant_id, object_id, reference, guest_name, guest_email, start_time, end_time, blocked_until,
                            status, total_price)
      -- A reference of its own (object and day): the trigger that draws one checks each draw with a
      -- plan made while the table was small, a scan of the table per row for this one statement.
      SELECT o.tenant_id, o.id, 'PRT-' || o.id || '-' || d, 'Guest ' || d, 'guest' || d || '@example.com', t, t + interval '1 hour', t + interval '1 hour',
             CASE WHEN d % 4 = 0 THEN 'COMPLETED' ELSE 'CONFIRMED' END, 2000
        FROM objects o
        JOIN accommodations a ON a.tenant_id = o.tenant_id AND a.id = o.accommodation_id AND a.name = 'Filler park'
        CROSS JOIN generate_series(0, ${LARGE.bookingsPerObject - 1}) d
        CROSS JOIN LATERAL (SELECT date_trunc('day', now()) - interval '365 days' + d * interval '1 day' + interval '9 hours') s(t)
      RETURNING 1)
    SELECT count(*)::int AS n FROM inserted`.execute(db);
  return result.rows[0].n;
}
