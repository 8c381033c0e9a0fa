import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/kernel/db/types.js';
import { createApiKey, createTenant } from '../../src/modules/tenants/tenants.service.js';
import type { Scenario } from '../run.js';

// The reports (docs/reports.md) over a year of one busy tenant: 25 objects open 08:00–22:00, six
// bookings a day on each for the last 365 days (54,750 bookings: mostly CONFIRMED/COMPLETED, some
// cancelled, 3 % no-shows), a payment for four in five of them (half online, half at the venue)
// and a refund for the cancelled ones that were paid. Written set-based; with --scale=large the
// bookings table also holds ~1,000,000 rows of other tenants.

export const REPORT_SIZE = { objects: 25, bookingsPerDay: 6, days: 365 };
const RATE = 5;

export interface ReportsDataset {
  tenantId: string;
  apiKey: string;
  from: string;
  to: string;
  day: string;
  summary: string;
}

export async function seedReports(db: Kysely<DB>): Promise<ReportsDataset> {
  const { tenant } = await db.transaction().execute((trx) => createTenant(trx, 'Report Club'));
  const { apiKey } = await createApiKey(db, { tenantId: tenant.id, name: 'reports bench', scopes: ['bookings:read'] });
  const hours = JSON.stringify(
    Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        { open: '08:00', close: '22:00' },
      ]),
    ),
  );
  await sql`INSERT INTO accommodations (tenant_id, name, address, time_zone)
            VALUES (${tenant.id}, 'Report park', 'Report street 1', 'Europe/Berlin')`.execute(db);
  await sql`INSERT INTO objects (tenant_id, accommodation_id, name, price_per_hour, opening_hours)
            SELECT a.tenant_id, a.id, 'Court ' || g, 1500 + (g % 5) * 250, ${hours}::jsonb
              FROM accommodations a CROSS JOIN generate_series(1, ${REPORT_SIZE.objects}) g
             WHERE a.tenant_id = ${tenant.id}`.execute(db);
  // Slot s of day d on object o: local 08:00 + 2 h × s (90 minutes long), in Berlin's zone.
  const bookings = await sql<{ n: number }>`
    WITH inserted AS (
      INSERT INTO bookings (tenant_id, object_id, reference, guest_name, guest_email, start_time, end_time, blocked_until,
                            status, total_price, no_show_at)
      -- A reference of its own (object, day, slot): the trigger that draws one checks each draw
      -- with a plan made while the table was empty, a scan per row (minutes for this insert).
      SELECT o.tenant_id, o.id, 'PRT-' || replace(o.name, 'Court ', 'C') || 'D' || d || 'S' || s,
             'Guest ' || d || '-' || s, 'guest' || d || '.' || s || '@example.com', t, t + interval '90 minutes',
             t + interval '90 minutes',
             CASE WHEN (d + s) % 17 = 0 THEN 'CANCELLED' WHEN d > 7 THEN 'COMPLETED' ELSE 'CONFIRMED' END,
             o.price_per_hour * 3 / 2,
             CASE WHEN (d * 7 + s) % 33 = 0 AND (d + s) % 17 <> 0 THEN t + interval '15 minutes' END
        FROM objects o
        CROSS JOIN generate_series(1, ${REPORT_SIZE.days}) d
        CROSS JOIN generate_series(0, ${REPORT_SIZE.bookingsPerDay - 1}) s
        CROSS JOIN LATERAL (SELECT ((current_date - d) + make_interval(hours => 8 + 2 * s)) AT TIME ZONE 'Europe/Berlin') x(t)
       WHERE o.tenant_id = ${tenant.id}
      RETURNING id, tenant_id, total_price, start_time, status)
    , paid AS (
      INSERT INTO payments (tenant_id, booking_id, kind, provider, amount, currency, reason, actor_label, created_at)
      SELECT tenant_id, id, 'payment', CASE WHEN hashtext(id::text) % 2 = 0 THEN 'stripe' ELSE 'venue' END, total_price, 'EUR',
             'checkout', 'bench', start_time - interval '2 hours'
        FROM inserted WHERE abs(hashtext(id::text)) % 5 <> 0
      RETURNING booking_id, provider, amount, created_at)
    , refunded AS (
      -- The paid cancellations, chosen as paid chooses them: a join of the two CTEs (no index, rows
      -- unknown to the planner) ran as a nested loop for more than ten minutes.
      INSERT INTO payments (tenant_id, booking_id, kind, provider, amount, currency, reason, actor_label, created_at)
      SELECT tenant_id, id, 'refund', CASE WHEN hashtext(id::text) % 2 = 0 THEN 'stripe' ELSE 'venue' END, total_price,
             'EUR', 'cancellation', 'bench', start_time - interval '1 hour'
        FROM inserted WHERE status = 'CANCELLED' AND abs(hashtext(id::text)) % 5 <> 0
      RETURNING 1)
    SELECT (SELECT count(*) FROM inserted)::int AS n`.execute(db);
  await sql`ANALYZE bookings`.execute(db);
  await sql`ANALYZE payments`.execute(db);
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  return {
    tenantId: tenant.id,
    apiKey,
    from: yearAgo,
    to: today,
    day,
    summary: `reports tenant: ${bookings.rows[0]?.n ?? 0} bookings over ${REPORT_SIZE.days} days`,
  };
}

/** One GET per report over the whole year (the cash-up: one day), at RATE requests a second each. */
export function reportScenarios(r: ReportsDataset): Scenario[] {
  const headers = { authorization: `Bearer ${r.apiKey}` };
  const base = `/api/v1/tenants/${r.tenantId}/reports`;
  const year = `from=${r.from}&to=${r.to}`;
  const get = (name: string, path: string): Scenario => ({
    name: `report ${name} (a year) @${RATE}/s`,
    mode: 'fixed',
    rate: RATE,
    source: () => ({ method: 'GET', path: `${base}/${path}`, headers }),
  });
  return [
    get('occupancy', `occupancy?${year}`),
    get('revenue by month', `revenue?${year}&period=MONTH`),
    get('revenue by day', `revenue?${year}&period=DAY`),
    get('payments by week', `payments?${year}&period=WEEK`),
    { ...get('cash-up', `cash-up?date=${r.day}`), name: `report cash-up (a day) @${RATE}/s` },
    get('no-shows', `no-shows?${year}`),
    get('occupancy CSV', `occupancy.csv?${year}`),
  ];
}
