import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldBookingCounts } from '../src/modules/bookings/index.js';
import type { Database } from '../src/kernel/db/database.js';
import { migrateBackTo, migrateToLatest } from '../src/kernel/db/migrate.js';
import { harness, type Harness } from './harness.js';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { bookViaRest, buildBooking, buildVenue, setBookingStatus, slotInDays } from './builders.js';

// The listings' totals with no filter or a status filter come from the maintained counts
// (migration 202611300101_booking_counts): whatever writes the bookings, and whenever the deltas
// are folded, they must equal what counting the rows gives.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;

/** The truth: the tenant's rows, counted by status. */
async function counted(tenantId: string): Promise<Record<string, number>> {
  const rows = await h.deps.database.db
    .selectFrom('bookings')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('tenant_id', '=', tenantId)
    .groupBy('status')
    .execute();
  const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of rows) byStatus[row.status] = row.n;
  return byStatus;
}

/** What the API says: REST's pagination.total and GraphQL's totalCount, with no filter and by status. */
async function reported(v: { tenantId: string; apiKey: string }) {
  const rest = async (query: string) => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?pageSize=1${query}`,
      apiKey: v.apiKey,
    });
    expect(res.status).toBe(200);
    return res.body.pagination.total as number;
  };
  const graphql = async (status: string | null) => {
    const res = await h.graphql(
      v.apiKey,
      'query($status: BookingStatus) { bookingsConnection(status: $status, first: 1) { totalCount } }',
      { status },
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data.bookingsConnection.totalCount as number;
  };
  const byStatus: Record<string, { rest: number; graphql: number }> = {};
  for (const status of STATUSES)
    byStatus[status] = { rest: await rest(`&status=${status}`), graphql: await graphql(status) };
  return { all: { rest: await rest(''), graphql: await graphql(null) }, byStatus };
}

async function expectTotalsExact(v: { tenantId: string; apiKey: string }) {
  const truth = await counted(v.tenantId);
  const all = Object.values(truth).reduce((a, b) => a + b, 0);
  const api = await reported(v);
  expect(api.all).toEqual({ rest: all, graphql: all });
  for (const status of STATUSES) expect(api.byStatus[status]).toEqual({ rest: truth[status], graphql: truth[status] });
  return truth;
}

describe('listing totals from the maintained counts', () => {
  it('follow creates, status changes, imports and deletes, before and after a fold', async () => {
    const v = await buildVenue(h, { objects: 2 });
    const other = await buildVenue(h);
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 0, CONFIRMED: 0, CANCELLED: 0, COMPLETED: 0 });

    const ids: string[] = [];
    for (let day = 1; day <= 6; day += 1)
      ids.push(await bookViaRest(h, { ...v, objectId: v.object.id, ...slotInDays(day) }));
    await bookViaRest(h, { ...other, objectId: other.object.id, ...slotInDays(1) });
    await setBookingStatus(h, v, ids[0], 'CONFIRMED');
    await setBookingStatus(h, v, ids[1], 'CONFIRMED');
    await setBookingStatus(h, v, ids[1], 'COMPLETED');
    await setBookingStatus(h, v, ids[2], 'CANCELLED');
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 3, CONFIRMED: 1, CANCELLED: 1, COMPLETED: 1 });

    await foldBookingCounts(h.deps.database.db);
    expect(
      await h.deps.database.db
        .selectFrom('booking_count_deltas')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('tenant_id', '=', v.tenantId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: 0 });
    await expectTotalsExact(v);

    // Written past the API's rules (the import path), and a booking of the second object.
    await buildBooking(h, v.tenantId, v.objects[1].id, {
      start: '2026-12-01T09:00:00Z',
      end: '2026-12-01T10:00:00Z',
      status: 'COMPLETED',
    });
    await setBookingStatus(h, v, ids[3], 'CANCELLED');
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 2, CONFIRMED: 1, CANCELLED: 2, COMPLETED: 2 });

    // Deleting an object deletes its bookings (ON DELETE CASCADE): their counts go with them.
    await h.deps.database.db.deleteFrom('objects').where('id', '=', v.object.id).execute();
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 0, CONFIRMED: 0, CANCELLED: 0, COMPLETED: 1 });
    await foldBookingCounts(h.deps.database.db);
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 0, CONFIRMED: 0, CANCELLED: 0, COMPLETED: 1 });
    // The other tenant's count was never touched by any of it.
    expect((await reported(other)).all).toEqual({ rest: 1, graphql: 1 });
  });

  it('a filter besides the status still counts the matching rows', async () => {
    const v = await buildVenue(h, { objects: 2 });
    for (let day = 1; day <= 3; day += 1) await bookViaRest(h, { ...v, objectId: v.object.id, ...slotInDays(day) });
    await bookViaRest(h, { ...v, objectId: v.objects[1].id, ...slotInDays(1) });
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?pageSize=1&status=PENDING&objectId=${v.objects[1].id}`,
      apiKey: v.apiKey,
    });
    expect(res.body.pagination.total).toBe(1);
  });

  it('stay exact under concurrent creates, status changes and folds', async () => {
    const v = await buildVenue(h, { objects: 4 });
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        bookViaRest(h, { ...v, objectId: v.objects[i % 4].id, ...slotInDays(1 + Math.floor(i / 4)) }),
      ),
    );
    const db = h.deps.database.db;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i += 1) {
      if (i % 3 === 0) work.push(setBookingStatus(h, v, created[i], 'CONFIRMED'));
      if (i % 3 === 1) work.push(setBookingStatus(h, v, created[i], 'CANCELLED'));
      if (i % 4 === 0) work.push(foldBookingCounts(db));
    }
    for (let i = 0; i < 8; i += 1)
      work.push(bookViaRest(h, { ...v, objectId: v.objects[i % 4].id, ...slotInDays(20 + Math.floor(i / 4)) }));
    await Promise.all(work);
    expect(await expectTotalsExact(v)).toEqual({ PENDING: 16, CONFIRMED: 8, CANCELLED: 8, COMPLETED: 0 });
    await Promise.all([foldBookingCounts(db), foldBookingCounts(db)]);
    await expectTotalsExact(v);
  });
});

// The migration counts the bookings that exist when it runs: on a database of its own (a scratch
// PostgreSQL database, or an in-memory PGlite), bookings written before it, then it applied.
describe('migration 202611300101_booking_counts', () => {
  let scratch: ScratchDatabase;
  let database: Database;

  beforeAll(async () => {
    scratch = await openScratchDatabase('counts');
    database = scratch.database;
  });

  afterAll(() => scratch.close());

  it('takes the counts of the bookings already there, then keeps them', async () => {
    const db = database.db;
    await migrateToLatest(db);
    // Back to the version before the counts: the later migrations go first, the counts' last.
    expect((await migrateBackTo(db, '202611291501_bookings_tenant_status')).at(-1)).toBe('202611300101_booking_counts');
    expect(await tableExists(db, 'booking_counts')).toBe(false);

    const tenants = [];
    for (const name of ['First', 'Second']) {
      const { rows } = await sql<{ tenant: string; object: string }>`
        WITH t AS (INSERT INTO tenants (name) VALUES (${name}) RETURNING id),
        a AS (INSERT INTO accommodations (tenant_id, name, address, time_zone)
              SELECT id, 'Hall', 'Street 1', 'Europe/Berlin' FROM t RETURNING id, tenant_id)
        INSERT INTO objects (tenant_id, accommodation_id, name, price_per_hour)
        SELECT tenant_id, id, 'Court', 1000 FROM a RETURNING tenant_id AS tenant, id AS object`.execute(db);
      tenants.push(rows[0]);
    }
    const statuses = ['PENDING', 'PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'CANCELLED'];
    for (const [t, { tenant, object }] of tenants.entries()) {
      for (const [i, status] of statuses.slice(t).entries()) {
        const start = new Date(Date.UTC(2026, 11, 1 + i, 9));
        const end = new Date(start.getTime() + 3_600_000);
        await sql`INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
          VALUES (${tenant}, ${object}, 'Ada', 'ada@example.com', ${start}, ${end}, ${end}, ${status}, 1000)`.execute(
          db,
        );
      }
    }

    await migrateToLatest(db);
    const counts = await sql<{ tenant_id: string; status: string; n: string }>`
      SELECT tenant_id, status, n::text AS n FROM booking_counts ORDER BY tenant_id, status`.execute(db);
    const expected = tenants.flatMap(({ tenant }, t) => {
      const byStatus = new Map<string, number>();
      for (const status of statuses.slice(t)) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      return [...byStatus].map(([status, n]) => ({ tenant_id: tenant, status, n: String(n) }));
    });
    const order = (a: { tenant_id: string; status: string }, b: { tenant_id: string; status: string }) =>
      a.tenant_id === b.tenant_id ? a.status.localeCompare(b.status) : a.tenant_id.localeCompare(b.tenant_id);
    expect(counts.rows).toEqual(expected.sort(order));

    // From then on the trigger keeps them: a status change is a -1 and a +1.
    await sql`UPDATE bookings SET status = 'CONFIRMED' WHERE tenant_id = ${tenants[0].tenant} AND status = 'PENDING'`.execute(
      db,
    );
    const deltas = await sql<{ status: string; delta: number }>`
      SELECT status, sum(delta)::int AS delta FROM booking_count_deltas WHERE tenant_id = ${tenants[0].tenant}
      GROUP BY status ORDER BY status`.execute(db);
    expect(deltas.rows).toEqual([
      { status: 'CONFIRMED', delta: 2 },
      { status: 'PENDING', delta: -2 },
    ]);
  });
});

async function tableExists(db: Database['db'], name: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`SELECT to_regclass(${name}) IS NOT NULL AS found`.execute(db);
  return rows[0]?.found ?? false;
}
