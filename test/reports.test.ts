import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';

// Issue #43: the reports' numbers against answers worked out by hand for data the test makes
// (Europe/Berlin, 08:00–22:00 every day, 20.00 an hour), on both databases.

let h: Harness;
let v: Awaited<ReturnType<typeof buildVenue>>;
let court1: string;
let court2: string;
let other: Awaited<ReturnType<typeof buildVenue>>;

async function pay(
  bookingId: string,
  kind: 'payment' | 'refund',
  provider: 'stripe' | 'venue',
  amount: number,
  at: string,
) {
  await h.deps.database.db
    .insertInto('payments')
    .values({
      tenant_id: v.tenantId,
      booking_id: bookingId,
      kind,
      provider,
      amount,
      currency: 'EUR',
      reason: kind === 'payment' ? (provider === 'venue' ? 'venue' : 'checkout') : 'cancellation',
      actor_label: 'test',
      created_at: new Date(at),
    })
    .execute();
}

beforeAll(async () => {
  h = await harness();
  v = await buildVenue(h, { objects: 2, pricePerHour: 2000 });
  [court1, court2] = v.objects.map((o) => o.id) as [string, string];
  // Monday 16 November 2026 (CET, UTC+1).
  const b1 = await buildBooking(h, v.tenantId, court1, {
    start: '2026-11-16T09:00:00Z', // 10:00–11:30 local
    end: '2026-11-16T10:30:00Z',
    status: 'CONFIRMED',
  });
  const b2 = await buildBooking(h, v.tenantId, court1, {
    start: '2026-11-17T19:30:00Z', // Tuesday 20:30–21:30 local
    end: '2026-11-17T20:30:00Z',
    status: 'COMPLETED',
  });
  const b3 = await buildBooking(h, v.tenantId, court2, {
    start: '2026-11-16T09:00:00Z',
    end: '2026-11-16T10:00:00Z',
    status: 'CONFIRMED',
  });
  await h.deps.database.db
    .updateTable('bookings')
    .set({ no_show_at: new Date('2026-11-16T09:30:00Z') })
    .where('id', '=', b3.id)
    .execute();
  // Not booked: cancelled and pending ones, and one the week after.
  await buildBooking(h, v.tenantId, court2, {
    start: '2026-11-18T09:00:00Z',
    end: '2026-11-18T10:00:00Z',
    status: 'CANCELLED',
  });
  await buildBooking(h, v.tenantId, court2, {
    start: '2026-11-18T09:00:00Z',
    end: '2026-11-18T10:00:00Z',
    status: 'PENDING',
  });
  await buildBooking(h, v.tenantId, court2, {
    start: '2026-11-23T09:00:00Z',
    end: '2026-11-23T10:00:00Z',
    status: 'CONFIRMED',
  });
  // Court 2 closed on Sunday 22 November.
  await h.deps.database.db
    .insertInto('special_dates')
    .values({ tenant_id: v.tenantId, object_id: court2, date: '2026-11-22', closed: true, reason: 'Tournament' })
    .execute();
  await pay(b1.id, 'payment', 'stripe', 3000, '2026-11-16T12:00:00Z');
  await pay(b3.id, 'payment', 'venue', 2000, '2026-11-16T18:00:00Z');
  await pay(b2.id, 'payment', 'venue', 2000, '2026-11-16T23:30:00Z'); // 00:30 on the 17th, local
  await pay(b1.id, 'refund', 'stripe', 500, '2026-11-17T10:00:00Z');
  await pay(b2.id, 'refund', 'venue', 300, '2026-11-17T11:00:00Z');
  // Another tenant with the same times: none of it may show.
  other = await buildVenue(h, { objects: 1 });
  await buildBooking(h, other.tenantId, other.object.id, {
    start: '2026-11-16T09:00:00Z',
    end: '2026-11-16T12:00:00Z',
    status: 'CONFIRMED',
  });
  h.clock.set('2026-11-25T12:00:00Z');
});
afterAll(() => h.clock.set(null));

const WEEK = { from: '2026-11-16', to: '2026-11-22' };

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await h.graphql(v.apiKey, query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

describe('occupancyReport', () => {
  it('booked and open minutes per object and local hour of the week', async () => {
    const data = await gql(
      `query($from: LocalDate!, $to: LocalDate!) { occupancyReport(from: $from, to: $to) {
        range { from to timeZone objectIds }
        cells { objectId weekday hour bookedMinutes openMinutes occupancy }
        objects { objectId objectName bookedMinutes openMinutes occupancy } } }`,
      WEEK,
    );
    const r = data.occupancyReport;
    expect(r.range).toEqual({ ...WEEK, timeZone: 'Europe/Berlin', objectIds: [] });
    expect(r.objects).toEqual([
      { objectId: court1, objectName: 'Court 1', bookedMinutes: 150, openMinutes: 7 * 14 * 60, occupancy: 0.0255 },
      { objectId: court2, objectName: 'Court 2', bookedMinutes: 60, openMinutes: 6 * 14 * 60, occupancy: 0.0119 },
    ]);
    const cell = (objectId: string, weekday: number, hour: number) =>
      r.cells.find(
        (c: { objectId: string; weekday: number; hour: number }) =>
          c.objectId === objectId && c.weekday === weekday && c.hour === hour,
      );
    expect(cell(court1, 1, 10)).toEqual({
      objectId: court1,
      weekday: 1,
      hour: 10,
      bookedMinutes: 60,
      openMinutes: 60,
      occupancy: 1,
    });
    expect(cell(court1, 1, 11)).toMatchObject({ bookedMinutes: 30, openMinutes: 60, occupancy: 0.5 });
    expect(cell(court1, 2, 20)).toMatchObject({ bookedMinutes: 30, occupancy: 0.5 });
    expect(cell(court1, 2, 21)).toMatchObject({ bookedMinutes: 30, occupancy: 0.5 });
    expect(cell(court1, 3, 7)).toBeUndefined(); // closed before 08:00
    expect(cell(court1, 3, 8)).toMatchObject({ bookedMinutes: 0, openMinutes: 60, occupancy: 0 });
    expect(cell(court2, 7, 12)).toBeUndefined(); // the special date
    expect(r.cells.filter((c: { objectId: string }) => c.objectId === court1)).toHaveLength(7 * 14);
  });

  it('filters by object, refuses another tenant’s object, and reads another zone', async () => {
    const data = await gql(
      `query($ids: [ID!]) { occupancyReport(from: "2026-11-16", to: "2026-11-16", objectIds: $ids, timeZone: "UTC") {
        range { timeZone objectIds } cells { weekday hour bookedMinutes openMinutes } objects { objectId } } }`,
      { ids: [court2] },
    );
    // In UTC the Monday runs 23:00Z Sunday … 23:00Z Monday in Berlin terms: open 07:00–21:00 UTC.
    expect(data.occupancyReport.objects).toEqual([{ objectId: court2 }]);
    expect(data.occupancyReport.cells.find((c: { hour: number }) => c.hour === 9)).toEqual({
      weekday: 1,
      hour: 9,
      bookedMinutes: 60,
      openMinutes: 60,
    });
    expect(data.occupancyReport.cells.map((c: { hour: number }) => c.hour)).toEqual([
      7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    ]);
    const refused = await h.graphql(
      v.apiKey,
      `{ occupancyReport(from: "2026-11-16", to: "2026-11-16", objectIds: ["${other.object.id}"]) { cells { hour } } }`,
    );
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(refused.body.errors[0].message).toBe('objectIds[0]: is not an object of this tenant');
  });

  it('a DST day has 25 hours: the repeated local hour is counted twice', async () => {
    const data = await gql(`{ occupancyReport(from: "2026-10-25", to: "2026-10-25") { objects { openMinutes } } }`);
    // 08:00–22:00 is 14 hours on the day the clocks go back too (02:00–03:00 is before opening).
    expect(data.occupancyReport.objects).toEqual([{ openMinutes: 840 }, { openMinutes: 840 }]);
  });
});

describe('revenueReport', () => {
  const Q = `query($from: LocalDate!, $to: LocalDate!, $period: ReportPeriod, $ids: [ID!]) {
    revenueReport(from: $from, to: $to, period: $period, objectIds: $ids) {
      period rows { periodStart currency bookings revenue } byObject { objectId objectName currency bookings revenue }
      totals { currency bookings revenue } } }`;

  it.each([
    [
      'DAY',
      [
        { periodStart: '2026-11-16', currency: 'EUR', bookings: 2, revenue: 5000 },
        { periodStart: '2026-11-17', currency: 'EUR', bookings: 1, revenue: 2000 },
      ],
    ],
    ['WEEK', [{ periodStart: '2026-11-16', currency: 'EUR', bookings: 3, revenue: 7000 }]],
    ['MONTH', [{ periodStart: '2026-11-01', currency: 'EUR', bookings: 3, revenue: 7000 }]],
  ])('by %s, by object and in total (no-shows count, cancelled and pending do not)', async (period, rows) => {
    const { revenueReport: r } = await gql(Q, { ...WEEK, period });
    expect(r.period).toBe(period);
    expect(r.rows).toEqual(rows);
    expect(r.byObject).toEqual([
      { objectId: court1, objectName: 'Court 1', currency: 'EUR', bookings: 2, revenue: 5000 },
      { objectId: court2, objectName: 'Court 2', currency: 'EUR', bookings: 1, revenue: 2000 },
    ]);
    expect(r.totals).toEqual([{ currency: 'EUR', bookings: 3, revenue: 7000 }]);
  });

  it('days are local: a booking at 00:30 Berlin belongs to that day, not the UTC one', async () => {
    const late = await buildBooking(h, v.tenantId, court1, {
      start: '2026-10-24T22:30:00Z',
      end: '2026-10-24T23:30:00Z',
      status: 'CONFIRMED',
    });
    const { revenueReport: r } = await gql(Q, { from: '2026-10-24', to: '2026-10-25' });
    expect(r.rows).toEqual([{ periodStart: '2026-10-25', currency: 'EUR', bookings: 1, revenue: late.total_price }]);
  });

  it('REST: GET /reports/revenue with the same arguments', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/reports/revenue?from=2026-11-16&to=2026-11-22&period=WEEK&objectIds=${court2}`,
      apiKey: v.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([{ periodStart: '2026-11-16', currency: 'EUR', bookings: 1, revenue: 2000 }]);
    expect(res.body.range.objectIds).toEqual([court2]);
  });
});

describe('paymentsReport and cashUpReport', () => {
  it('payments and refunds per local day', async () => {
    const data = await gql(`{ paymentsReport(from: "2026-11-16", to: "2026-11-22") {
      rows { periodStart currency payments paymentCount refunds refundCount net } totals { currency payments refunds net } } }`);
    expect(data.paymentsReport.rows).toEqual([
      {
        periodStart: '2026-11-16',
        currency: 'EUR',
        payments: 5000,
        paymentCount: 2,
        refunds: 0,
        refundCount: 0,
        net: 5000,
      },
      {
        periodStart: '2026-11-17',
        currency: 'EUR',
        payments: 2000,
        paymentCount: 1,
        refunds: 800,
        refundCount: 2,
        net: 1200,
      },
    ]);
    expect(data.paymentsReport.totals).toEqual([{ currency: 'EUR', payments: 7000, refunds: 800, net: 6200 }]);
  });

  it.each([
    [
      '2026-11-16',
      undefined,
      {
        online: 3000,
        onlineCount: 1,
        atVenue: 2000,
        atVenueCount: 1,
        refundsOnline: 0,
        refundsAtVenue: 0,
        refundCount: 0,
        net: 5000,
        cashInHand: 2000,
      },
    ],
    [
      '2026-11-17',
      undefined,
      {
        online: 0,
        onlineCount: 0,
        atVenue: 2000,
        atVenueCount: 1,
        refundsOnline: 500,
        refundsAtVenue: 300,
        refundCount: 2,
        net: 1200,
        cashInHand: 1700,
      },
    ],
    // In UTC the 00:30 payment falls on the 16th.
    ['2026-11-16', 'UTC', { online: 3000, atVenue: 4000, atVenueCount: 2, net: 7000, cashInHand: 4000 }],
  ])('the cash-up of %s (zone %s)', async (date, timeZone, line) => {
    const data = await gql(
      `query($date: LocalDate!, $zone: String) { cashUpReport(date: $date, timeZone: $zone) { date timeZone lines {
        currency online onlineCount atVenue atVenueCount refundsOnline refundsAtVenue refundCount net cashInHand } } }`,
      { date, zone: timeZone },
    );
    expect(data.cashUpReport.date).toBe(date);
    expect(data.cashUpReport.timeZone).toBe(timeZone ?? 'Europe/Berlin');
    expect(data.cashUpReport.lines).toEqual([expect.objectContaining({ currency: 'EUR', ...line })]);
  });

  it('filters the ledger by the bookings’ objects', async () => {
    const data = await gql(
      `{ cashUpReport(date: "2026-11-16", objectIds: ["${court2}"]) { lines { online atVenue net } } }`,
    );
    expect(data.cashUpReport.lines).toEqual([{ online: 0, atVenue: 2000, net: 2000 }]);
  });
});

describe('noShowReport', () => {
  it('no-shows among the booked bookings that started', async () => {
    const data = await gql(`{ noShowReport(from: "2026-11-16", to: "2026-11-30") {
      byObject { objectId objectName bookings noShows rate } bookings noShows rate } }`);
    expect(data.noShowReport).toEqual({
      byObject: [
        { objectId: court2, objectName: 'Court 2', bookings: 2, noShows: 1, rate: 0.5 },
        { objectId: court1, objectName: 'Court 1', bookings: 2, noShows: 0, rate: 0 },
      ],
      bookings: 4,
      noShows: 1,
      rate: 0.25,
    });
  });
});

describe('input', () => {
  it.each([
    ['from: "2026-11-16", to: "2027-11-17"', 'to: the range may cover at most 366 days (it covers 367)'],
    ['from: "2026-11-16", to: "2026-11-15"', 'to: must not be before from (2026-11-16)'],
    [
      'from: "2026-11-16", to: "2026-11-16", timeZone: "Mars/Olympus"',
      'timeZone: must be an IANA time zone such as Europe/Berlin',
    ],
    ['from: "2026-11-16", to: "2026-11-16", objectIds: ["nope"]', 'objectIds[0]: must be an object id (UUID)'],
  ])('refuses (%s) naming the field', async (args, message) => {
    const res = await h.graphql(v.apiKey, `{ revenueReport(${args}) { totals { revenue } } }`);
    expect(res.body.errors[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('REST answers 400 problem+json, another tenant 403, a key without bookings:read 403', async () => {
    const bad = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/reports/occupancy?from=2026-11-16&to=2025-01-01`,
      apiKey: v.apiKey,
    });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    const foreign = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/reports/no-shows?from=2026-11-16&to=2026-11-22`,
      apiKey: other.apiKey,
    });
    expect(foreign.status).toBe(403);
    const pricing = await h.key(v.tenantId, ['pricing:read']);
    const denied = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/reports/cash-up.csv?date=2026-11-16`,
      apiKey: pricing,
    });
    expect(denied.status).toBe(403);
  });
});

describe('CSV', () => {
  const csv = async (path: string) => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/reports/${path}`,
      apiKey: v.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return res.text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
  };

  it('each report, with the numbers of the GraphQL answer', async () => {
    expect(await csv('revenue.csv?from=2026-11-16&to=2026-11-22&period=WEEK')).toEqual([
      ['period', 'period_start', 'currency', 'bookings', 'revenue'],
      ['WEEK', '2026-11-16', 'EUR', '3', '70'],
    ]);
    expect(await csv('revenue-by-object.csv?from=2026-11-16&to=2026-11-22')).toEqual([
      ['object_id', 'object', 'currency', 'bookings', 'revenue'],
      [court1, 'Court 1', 'EUR', '2', '50'],
      [court2, 'Court 2', 'EUR', '1', '20'],
    ]);
    expect(await csv('cash-up.csv?date=2026-11-17')).toEqual([
      [
        'date',
        'currency',
        'online',
        'online_count',
        'at_venue',
        'at_venue_count',
        'refunds_online',
        'refunds_at_venue',
        'refund_count',
        'net',
        'cash_in_hand',
      ],
      ['2026-11-17', 'EUR', '0', '0', '20', '1', '5', '3', '2', '12', '17'],
    ]);
    expect(await csv(`no-shows.csv?from=2026-11-16&to=2026-11-30&objectIds=${court1},${court2}`)).toEqual([
      ['object_id', 'object', 'bookings', 'no_shows', 'rate'],
      [court2, 'Court 2', '2', '1', '0.5'],
      [court1, 'Court 1', '2', '0', '0'],
      ['', 'All objects', '4', '1', '0.25'],
    ]);
    const payments = await csv('payments.csv?from=2026-11-16&to=2026-11-22');
    expect(payments[2]).toEqual(['DAY', '2026-11-17', 'EUR', '20', '1', '8', '2', '12']);
    const occupancy = await csv(`occupancy.csv?from=2026-11-16&to=2026-11-22&objectIds=${court1}`);
    expect(occupancy[0]).toEqual([
      'object_id',
      'object',
      'weekday',
      'hour',
      'booked_minutes',
      'open_minutes',
      'occupancy',
      'time_zone',
    ]);
    expect(occupancy).toContainEqual([court1, 'Court 1', '1', '11', '30', '60', '0.5', 'Europe/Berlin']);
    expect(occupancy).toHaveLength(1 + 7 * 14);
  });
});
