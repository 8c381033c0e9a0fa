import { MODULES } from '../src/app/modules.js';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildDevice, buildDoor, buildVenue, buildWebhook } from './builders.js';
import { parse, validate } from 'graphql';
import { buildSchema, publicSchemaOf, restOnlyFields } from '../src/transport/graphql/schema.js';
import { REST_ROUTES } from '../src/transport/rest/routes.js';
import { CONNECTION_MAX_PAGE_SIZE } from '../src/kernel/paging.js';
import { recordEvent } from '../src/modules/webhooks/index.js';

// The cursor connections (issue 15, "Cursor pagination") and the REST-only root fields kept out
// of the published schema ("One field per concept"); docs/schema.md describes both.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

interface Seeded {
  id: string;
  start: string;
  objectId: string;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';
  email: string;
}

const STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
const byStartThenId = (a: { start: string; id: string }, b: { start: string; id: string }) =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** 250 bookings: 125 hourly slots from 2027-03-01, each on both objects (equal start times: the id decides). */
async function seedBookings() {
  const v = await buildVenue(h, { objects: 2, pricePerHour: 1000 });
  const made: Seeded[] = [];
  for (let i = 0; i < 125; i += 1) {
    const start = new Date(Date.UTC(2027, 2, 1) + i * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    for (const [k, object] of v.objects.entries()) {
      const status = STATUSES[(i + k) % 4];
      const email = i % 3 === 0 ? 'Grace@Example.com' : `guest${i}@example.com`;
      const b = await buildBooking(h, v.tenantId, object.id, {
        start: start.toISOString(),
        end: end.toISOString(),
        status,
        guestEmail: email,
      });
      made.push({ id: b.id, start: start.toISOString(), objectId: object.id, status, email });
    }
  }
  return { v, made, ordered: [...made].sort(byStartThenId) };
}

let seeded: Awaited<ReturnType<typeof seedBookings>>;
beforeAll(async () => {
  seeded = await seedBookings();
}, 120_000);

const PAGE = `query Page($first: Int, $after: String, $status: BookingStatus, $objectId: ID, $from: DateTime, $to: DateTime, $guestEmail: String) {
  bookingsConnection(first: $first, after: $after, status: $status, objectId: $objectId, from: $from, to: $to, guestEmail: $guestEmail) {
    edges { cursor node { id startTime status objectId guestEmail } }
    nodes { id }
    pageInfo { hasNextPage endCursor hasPreviousPage startCursor }
    totalCount
  }
}`;

interface Page {
  edges: Array<{
    cursor: string;
    node: { id: string; startTime: string; status: string; objectId: string; guestEmail: string };
  }>;
  nodes: Array<{ id: string }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null; hasPreviousPage: boolean; startCursor: string | null };
  totalCount: number;
}

async function page(apiKey: string, variables: Record<string, unknown>): Promise<Page> {
  const res = await h.graphql(apiKey, PAGE, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.bookingsConnection as Page;
}

/** Every page of the connection with these filters: the ids in order and each page. */
async function pageThrough(apiKey: string, variables: Record<string, unknown>) {
  const pages: Page[] = [];
  let after: string | null = null;
  do {
    const p = await page(apiKey, { ...variables, after });
    pages.push(p);
    after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
  } while (after !== null && pages.length < 100);
  return { pages, ids: pages.flatMap((p) => p.edges.map((e) => e.node.id)) };
}

function errorsOf(res: {
  status: number;
  body: { errors?: Array<{ message: string; extensions?: { code?: string; fields?: Array<{ field: string }> } }> };
}) {
  expect(res.status).toBe(200);
  return (res.body.errors ?? []).map((e) => ({
    code: e.extensions?.code,
    fields: (e.extensions?.fields ?? []).map((f) => f.field),
    message: e.message,
  }));
}

/** The key's last-use write (once a minute, off the request's path) must not land in a statement count. */
async function settleKey(v: { tenantId: string; apiKey: string }) {
  await h.graphql(v.apiKey, '{ bookings(first: 1) { id } }');
  const deadline = Date.now() + 30_000;
  while (
    !(
      await h.deps.database.db
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('tenant_id', '=', v.tenantId)
        .executeTakeFirst()
    )?.last_used_at
  ) {
    if (Date.now() > deadline) throw new Error('the key’s last use was never recorded');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The statements `run` sends: the fewest of three runs, since a background write (a key's last use,
 * a flush) can only add to a count, never take from it.
 */
async function statementsOf(run: () => Promise<unknown>): Promise<number> {
  const counts: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const before = h.deps.database.queries.count;
    await run();
    counts.push(h.deps.database.queries.count - before);
  }
  return Math.min(...counts);
}

describe('bookingsConnection', () => {
  it('pages through 250 bookings 100 at a time, each exactly once, in (start time, id) order', async () => {
    const { pages, ids } = await pageThrough(seeded.v.apiKey, { first: 100 });
    expect(pages.map((p) => p.edges.length)).toEqual([100, 100, 50]);
    expect(ids).toEqual(seeded.ordered.map((b) => b.id));
    expect(pages.map((p) => p.pageInfo.hasNextPage)).toEqual([true, true, false]);
    expect(pages.map((p) => p.pageInfo.hasPreviousPage)).toEqual([false, true, true]);
    for (const p of pages) {
      expect(p.totalCount).toBe(250);
      expect(p.nodes.map((n) => n.id)).toEqual(p.edges.map((e) => e.node.id));
      expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor);
      expect(p.pageInfo.startCursor).toBe(p.edges[0]?.cursor);
    }
  });

  it('defaults to 20 and documents one maximum of 100', async () => {
    expect(CONNECTION_MAX_PAGE_SIZE).toBe(100);
    const p = await page(seeded.v.apiKey, {});
    expect(p.edges).toHaveLength(20);
    expect(p.pageInfo.hasNextPage).toBe(true);
  });

  it('combines the filters (status, objectId, from/to, guestEmail) across pages, with a matching totalCount', async () => {
    const [court1, court2] = seeded.v.objects;
    const from = '2027-03-02T00:00:00.000Z';
    const to = '2027-03-05T00:00:00.000Z';
    const cases: Array<[Record<string, unknown>, (b: Seeded) => boolean]> = [
      [{ status: 'CONFIRMED' }, (b) => b.status === 'CONFIRMED'],
      [{ objectId: court2.id }, (b) => b.objectId === court2.id],
      [{ from, to }, (b) => b.start >= from && b.start < to],
      [{ guestEmail: 'grace@EXAMPLE.com' }, (b) => b.email.toLowerCase() === 'grace@example.com'],
      [
        { status: 'PENDING', objectId: court1.id, from, to, guestEmail: 'GRACE@example.com' },
        (b) =>
          b.status === 'PENDING' &&
          b.objectId === court1.id &&
          b.start >= from &&
          b.start < to &&
          b.email.toLowerCase() === 'grace@example.com',
      ],
    ];
    for (const [filters, keep] of cases) {
      const expected = seeded.ordered.filter(keep).map((b) => b.id);
      expect(expected.length, JSON.stringify(filters)).toBeGreaterThan(0);
      const { pages, ids } = await pageThrough(seeded.v.apiKey, { ...filters, first: 7 });
      expect(ids, JSON.stringify(filters)).toEqual(expected);
      for (const p of pages) expect(p.totalCount).toBe(expected.length);
    }
  });

  it('refuses first outside 1…100 and a cursor it did not issue, naming the argument', async () => {
    for (const first of [0, 101, -1]) {
      const errors = errorsOf(await h.graphql(seeded.v.apiKey, PAGE, { first }));
      expect(errors).toEqual([
        { code: 'BAD_USER_INPUT', fields: ['first'], message: 'first: must be a whole number from 1 to 100' },
      ]);
    }
    const auditCursor = Buffer.from('audit:12').toString('base64url');
    const tampered = Buffer.from('booking:2027-03-01T00:00:00.000Z|not-a-uuid').toString('base64url');
    for (const after of ['garbage!', 'Zm9v', auditCursor, tampered, '']) {
      const errors = errorsOf(await h.graphql(seeded.v.apiKey, PAGE, { after }));
      expect(errors, after).toEqual([
        { code: 'BAD_USER_INPUT', fields: ['after'], message: 'after: is not a cursor this connection returned' },
      ]);
    }
  });

  it('shows another tenant nothing, even with this tenant’s cursor', async () => {
    const other = await buildVenue(h);
    const first = await page(seeded.v.apiKey, { first: 10 });
    const theirs = await page(other.apiKey, { first: 100 });
    expect(theirs).toMatchObject({
      edges: [],
      nodes: [],
      totalCount: 0,
      pageInfo: { hasNextPage: false, endCursor: null },
    });
    const withCursor = await page(other.apiKey, { first: 100, after: first.pageInfo.endCursor });
    expect(withCursor.edges).toEqual([]);
    const named = await h.graphql(
      other.apiKey,
      `{ bookingsConnection(tenantId: "${seeded.v.tenantId}") { totalCount } }`,
    );
    expect(named.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('neither repeats nor skips a booking when one is added between pages', async () => {
    const v = await buildVenue(h, { objects: 1 });
    const hour = (i: number) => new Date(Date.UTC(2027, 5, 1) + i * 3_600_000);
    const book = (i: number) =>
      buildBooking(h, v.tenantId, v.object.id, {
        start: hour(i).toISOString(),
        end: new Date(hour(i).getTime() + 3_600_000).toISOString(),
      });
    const original: string[] = [];
    for (let i = 0; i < 30; i += 2) original.push((await book(i)).id);
    const first = await page(v.apiKey, { first: 5 });
    expect(first.edges.map((e) => e.node.id)).toEqual(original.slice(0, 5));
    const earlier = await book(1); // before the cursor: on a page already read
    const later = await book(21); // after it: on a page still to come
    const rest: string[] = [];
    let after = first.pageInfo.endCursor;
    while (after) {
      const p = await page(v.apiKey, { first: 5, after });
      rest.push(...p.edges.map((e) => e.node.id));
      after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
    }
    // Every original booking after the first page exactly once, in order; the later one in its place; the earlier one not at all.
    expect(rest).toEqual([...original.slice(5, 11), later.id, ...original.slice(11)]);
    expect(rest).not.toContain(earlier.id);
  });

  it('runs the same number of statements for first 10 and first 100, objects and totalCount included', async () => {
    await settleKey(seeded.v);
    const query = `query($first: Int) { bookingsConnection(first: $first) {
      edges { cursor node { id objectName object { name accommodation { name } } } }
      nodes { id guestName }
      pageInfo { hasNextPage endCursor }
      totalCount } }`;
    const run = (first: number) => async () => {
      const res = await h.graphql(seeded.v.apiKey, query, { first });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.bookingsConnection.edges).toHaveLength(first);
      expect(res.body.data.bookingsConnection.totalCount).toBe(250);
    };
    const ten = await statementsOf(run(10));
    expect(await statementsOf(run(100))).toBe(ten);
    // the key lookup and the one listing statement (page, objects, accommodations and total)
    expect(ten).toBeLessThanOrEqual(3);
  });

  it('leaves the contract’s bookings(status, first) list as it was', async () => {
    const res = await h.graphql(seeded.v.apiKey, '{ bookings(status: CONFIRMED, first: 3) { id status } }');
    expect(res.body.data.bookings).toEqual(
      seeded.ordered
        .filter((b) => b.status === 'CONFIRMED')
        .slice(0, 3)
        .map((b) => ({ id: b.id, status: 'CONFIRMED' })),
    );
  });
});

/** Pages through a smaller connection `first` at a time; the query's `$after`/`$first` drive it. */
async function pageAll(
  apiKey: string,
  field: string,
  query: string,
  first: number,
  variables: Record<string, unknown> = {},
) {
  const ids: string[] = [];
  const totals: number[] = [];
  const more: boolean[] = [];
  let after: string | null = null;
  for (let n = 0; n < 50; n += 1) {
    const res = await h.graphql(apiKey, query, { ...variables, first, after });
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    const conn = res.body.data[field] as {
      edges: Array<{ cursor: string; node: { id: string } }>;
      nodes: Array<{ id: string }>;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      totalCount: number;
    };
    expect(conn.nodes.map((x) => x.id)).toEqual(conn.edges.map((e) => e.node.id));
    expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor ?? null);
    ids.push(...conn.edges.map((e) => e.node.id));
    totals.push(conn.totalCount);
    more.push(conn.pageInfo.hasNextPage);
    if (!conn.pageInfo.hasNextPage) break;
    after = conn.pageInfo.endCursor;
  }
  return { ids, totals, more };
}

/** Checks shared by the smaller connections: errors naming the argument, another tenant, fixed statements. */
async function checkCommon(options: {
  apiKey: string;
  tenantId: string;
  field: string;
  query: string;
  otherKey: string;
  total: number;
}) {
  const { apiKey, field, query } = options;
  for (const first of [0, 101, -1]) {
    const errors = errorsOf(await h.graphql(apiKey, query, { first }));
    expect(errors.map((e) => e.fields)).toEqual([['first']]);
  }
  for (const after of [
    'garbage!',
    Buffer.from('booking:2027-03-01T00:00:00.000Z|00000000-0000-0000-0000-000000000000').toString('base64url'),
  ]) {
    const errors = errorsOf(await h.graphql(apiKey, query, { after }));
    expect(errors.map((e) => e.fields)).toEqual([['after']]);
  }
  const mine = await h.graphql(apiKey, query, { first: 2 });
  const theirs = await h.graphql(options.otherKey, query, { first: 100 });
  expect(theirs.body.data[field]).toMatchObject({ edges: [], totalCount: 0 });
  const theirsAfter = await h.graphql(options.otherKey, query, {
    first: 100,
    after: mine.body.data[field].pageInfo.endCursor,
  });
  expect(theirsAfter.body.data[field].edges).toEqual([]);
  await settleKey(options);
  const run = (first: number) => async () => {
    const res = await h.graphql(apiKey, query, { first });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data[field].edges).toHaveLength(Math.min(first, options.total));
  };
  const few = await statementsOf(run(2));
  expect(await statementsOf(run(20))).toBe(few);
}

describe('accessLogConnection', () => {
  const QUERY = `query($first: Int, $after: String, $deviceId: ID, $bookingId: ID) {
    accessLogConnection(first: $first, after: $after, deviceId: $deviceId, bookingId: $bookingId) {
      edges { cursor node { id checkedAt deviceId } } nodes { id } pageInfo { hasNextPage endCursor } totalCount } }`;

  it('pages newest first (microseconds and ids break ties), filters, counts and refuses bad arguments', async () => {
    const v = await buildVenue(h);
    const door = await buildDoor(h, v.tenantId, [v.object.id]);
    const [a, b] = [await buildDevice(h, v.tenantId, [door.id], 'A'), await buildDevice(h, v.tenantId, [door.id], 'B')];
    const booking = await buildBooking(h, v.tenantId, v.object.id, {
      start: '2027-04-01T10:00:00Z',
      end: '2027-04-01T11:00:00Z',
      status: 'CONFIRMED',
    });
    const rows: Array<{
      tenant_id: string;
      device_id: string;
      door_id: string;
      booking_id: string | null;
      allowed: boolean;
      reason: string | null;
      checked_at: string;
    }> = [];
    for (let i = 0; i < 23; i += 1) {
      // Pairs share a millisecond and differ in microseconds; two entries share the instant exactly.
      const at = `2027-04-01T10:00:${String(Math.floor(i / 2)).padStart(2, '0')}.123${i === 22 ? '001' : i % 2 ? '999' : '001'}Z`;
      rows.push({
        tenant_id: v.tenantId,
        device_id: i % 3 === 0 ? b.device.id : a.device.id,
        door_id: door.id,
        booking_id: i % 4 === 0 ? booking.id : null,
        allowed: i % 2 === 0,
        reason: i % 2 === 0 ? null : 'invalid_token',
        checked_at: at,
      });
    }
    const inserted = await h.deps.database.db
      .insertInto('access_log')
      .values(rows)
      .returning(['id', 'checked_at', 'device_id', 'booking_id'])
      .execute();
    const stamp = (i: number) => rows[i]?.checked_at ?? '';
    const order = inserted
      .map((r, i) => ({ ...r, at: stamp(i) }))
      .sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : x.id < y.id ? 1 : -1));
    const all = await pageAll(v.apiKey, 'accessLogConnection', QUERY, 5);
    expect(all.ids).toEqual(order.map((r) => r.id));
    expect(all.totals.every((t) => t === 23)).toBe(true);
    expect(all.more).toEqual([true, true, true, true, false]);
    const ofB = await pageAll(v.apiKey, 'accessLogConnection', QUERY, 3, { deviceId: b.device.id });
    expect(ofB.ids).toEqual(order.filter((r) => r.device_id === b.device.id).map((r) => r.id));
    const ofBooking = await pageAll(v.apiKey, 'accessLogConnection', QUERY, 2, {
      bookingId: booking.id,
      deviceId: b.device.id,
    });
    expect(ofBooking.ids).toEqual(
      order.filter((r) => r.device_id === b.device.id && r.booking_id === booking.id).map((r) => r.id),
    );
    expect(ofBooking.totals[0]).toBe(ofBooking.ids.length);
    const other = await h.tenant();
    await checkCommon({
      apiKey: v.apiKey,
      tenantId: v.tenantId,
      field: 'accessLogConnection',
      query: QUERY,
      otherKey: other.apiKey,
      total: 23,
    });
  });
});

describe('webhookDeliveriesConnection', () => {
  const QUERY = `query($first: Int, $after: String, $webhookId: ID, $bookingId: ID, $status: WebhookDeliveryStatus) {
    webhookDeliveriesConnection(first: $first, after: $after, webhookId: $webhookId, bookingId: $bookingId, status: $status) {
      edges { cursor node { id eventType status attempts { attemptedAt } } } nodes { id } pageInfo { hasNextPage endCursor } totalCount } }`;

  it('pages newest first over every subscription or one, filters by booking and status, and refuses bad arguments', async () => {
    const v = await buildVenue(h);
    const db = h.deps.database.db;
    const hooks = [
      await buildWebhook(h, v.tenantId, { url: 'http://127.0.0.1:9/one' }),
      await buildWebhook(h, v.tenantId, { url: 'http://127.0.0.1:9/two' }),
    ];
    const bookingId = '11111111-1111-4111-8111-111111111111';
    const made: Array<{ id: string; at: string; webhookId: string; booking: boolean; status: string }> = [];
    for (let i = 0; i < 12; i += 1) {
      const booking = i % 3 === 0;
      const event = await db
        .insertInto('events')
        .values({
          tenant_id: v.tenantId,
          type: 'booking.created',
          data: JSON.stringify({ booking: { id: booking ? bookingId : '22222222-2222-4222-8222-222222222222' } }),
          fanned_out_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const hook of hooks) {
        const at = `2027-05-01T10:00:0${String(i % 10)}.000${i >= 10 ? '500' : '100'}Z`;
        const status = i % 2 ? 'failed' : 'succeeded';
        const row = await db
          .insertInto('webhook_deliveries')
          .values({ tenant_id: v.tenantId, webhook_id: hook.id, event_id: event.id, status, created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        made.push({ id: row.id, at, webhookId: hook.id, booking, status });
      }
    }
    const order = [...made].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : x.id < y.id ? 1 : -1));
    const all = await pageAll(v.apiKey, 'webhookDeliveriesConnection', QUERY, 5);
    expect(all.ids).toEqual(order.map((d) => d.id));
    expect(all.totals.every((t) => t === 24)).toBe(true);
    const one = await pageAll(v.apiKey, 'webhookDeliveriesConnection', QUERY, 4, {
      webhookId: hooks[1]?.id,
      status: 'FAILED',
      bookingId,
    });
    expect(one.ids).toEqual(
      order.filter((d) => d.webhookId === hooks[1]?.id && d.status === 'failed' && d.booking).map((d) => d.id),
    );
    expect(one.totals[0]).toBe(one.ids.length);
    const other = await h.tenant();
    await checkCommon({
      apiKey: v.apiKey,
      tenantId: v.tenantId,
      field: 'webhookDeliveriesConnection',
      query: QUERY,
      otherKey: other.apiKey,
      total: 24,
    });
  });
});

describe('auditLog connection', () => {
  const QUERY = `query($first: Int, $after: String) {
    auditLog(first: $first, after: $after) { edges { cursor node { id action } } nodes { id } pageInfo { hasNextPage endCursor hasPreviousPage startCursor } totalCount } }`;

  it('pages newest first with nodes, totalCount and the full pageInfo, and refuses bad arguments', async () => {
    const t = await h.tenant();
    const db = h.deps.database.db;
    for (let i = 0; i < 13; i += 1) {
      await db
        .insertInto('audit_log')
        .values({
          tenant_id: t.tenantId,
          occurred_at: new Date(),
          actor_type: 'cli',
          actor_id: null,
          actor_label: 'command line',
          action: 'user.created',
          details: '{}',
        })
        .execute();
    }
    const ids = (
      await db.selectFrom('audit_log').select('id').where('tenant_id', '=', t.tenantId).orderBy('id', 'desc').execute()
    ).map((r) => r.id);
    const all = await pageAll(t.apiKey, 'auditLog', QUERY, 5);
    expect(all.ids).toEqual(ids);
    expect(all.totals.every((n) => n === ids.length)).toBe(true);
    const second = await h.graphql(t.apiKey, QUERY, {
      first: 5,
      after: (await h.graphql(t.apiKey, QUERY, { first: 5 })).body.data.auditLog.pageInfo.endCursor,
    });
    expect(second.body.data.auditLog.pageInfo).toMatchObject({
      hasPreviousPage: true,
      startCursor: second.body.data.auditLog.edges[0].cursor,
    });
    const other = await h.tenant();
    await checkCommon({
      apiKey: t.apiKey,
      tenantId: t.tenantId,
      field: 'auditLog',
      query: QUERY,
      otherKey: other.apiKey,
      total: ids.length,
    });
  });
});

describe('events', () => {
  const QUERY = `query($first: Int, $after: String) {
    events(first: $first, after: $after) {
      edges { cursor node { id type } } nodes { id } pageInfo { hasNextPage endCursor } totalCount } }`;

  it('pages in feed order, counts and refuses bad arguments like every connection', async () => {
    const t = await h.tenant();
    const ids = await h.deps.database.db.transaction().execute(async (trx) => {
      const written: string[] = [];
      for (let i = 0; i < 25; i += 1)
        written.push(await recordEvent(trx, t.tenantId, 'booking.created', { sequence: i }));
      return written;
    });
    // Served once every older transaction on the server has ended (docs/events.md).
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const res = await h.graphql(t.apiKey, QUERY, { first: 100 });
      if (res.body.data.events.totalCount === ids.length) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const first = await h.graphql(t.apiKey, QUERY, { first: 20 });
    expect(first.body.data.events.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(0, 20));
    expect(first.body.data.events.pageInfo.hasNextPage).toBe(true);
    const rest = await h.graphql(t.apiKey, QUERY, { first: 20, after: first.body.data.events.pageInfo.endCursor });
    expect(rest.body.data.events.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(20));
    expect(rest.body.data.events).toMatchObject({ totalCount: 25, pageInfo: { hasNextPage: false } });
    const other = await h.tenant();
    await checkCommon({
      apiKey: t.apiKey,
      tenantId: t.tenantId,
      field: 'events',
      query: QUERY,
      otherKey: other.apiKey,
      total: ids.length,
    });
  });
});

describe('REST-only root fields', () => {
  const HIDDEN = [
    'Query.eventFeed',
    'Query.bookingDetails',
    'Query.webhookList',
    'Query.webhookDetails',
    'Query.objectAvailability',
    'Query.objectPage',
    'Query.pricingRuleList',
    'Query.cancellationPolicyList',
    'Query.paymentIssueList',
    'Query.publicObjectList',
    'Query.customerList',
    'Query.customerDetails',
    'Mutation.updateBooking',
    'Query.bookingSeriesDetails',
    // issue #44: single reads of an object and an event (docs/api.md)
    'Query.objectDetails',
    'Query.eventDetails',
  ];

  it('are the @restOnly fields, each bridged by a REST route', () => {
    expect(restOnlyFields(buildSchema(MODULES)).sort()).toEqual([...HIDDEN].sort());
    const bridged = new Set(REST_ROUTES.map((r) => r.field));
    for (const field of HIDDEN) expect(bridged.has(field as never), field).toBe(true);
  });

  it('are absent from introspection and schema.graphql, and cannot be queried over GraphQL', async () => {
    const v = await buildVenue(h);
    const res = await h.graphql(
      v.apiKey,
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } directives { name } } }',
    );
    const names = [
      ...res.body.data.__schema.queryType.fields.map((f: { name: string }) => `Query.${f.name}`),
      ...res.body.data.__schema.mutationType.fields.map((f: { name: string }) => `Mutation.${f.name}`),
    ];
    expect(names).toContain('Query.bookingsConnection');
    for (const field of HIDDEN) expect(names).not.toContain(field);
    expect(res.body.data.__schema.directives.map((d: { name: string }) => d.name)).not.toContain('restOnly');
    for (const type of [
      'WebhookList',
      'PricingRuleList',
      'CancellationPolicyList',
      'AvailabilityByObject',
      'AvailabilityRange',
      'AvailabilityResult',
      'ObjectPage',
      'EventFeedPage',
    ]) {
      const t = await h.graphql(v.apiKey, `{ __type(name: "${type}") { name } }`);
      expect(t.body.data.__type, type).toBeNull();
    }
    const printed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    for (const field of HIDDEN) expect(printed).not.toMatch(new RegExp(`^ {2}${field.split('.')[1]}\\(`, 'm'));
    expect(printed).not.toContain('@restOnly');
    const direct = await h.graphql(v.apiKey, '{ webhookList { webhooks { id } } }');
    expect(direct.body.data ?? null).toBeNull();
    expect(direct.body.errors[0].message).toMatch(/Cannot query field "webhookList"/);
  });

  it('are used by no dashboard document (the dashboard talks to the published schema)', async () => {
    // `as string` keeps the dashboard's generated module out of the server's type-check (it has its own tsconfig).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const generated = (await import('../dashboard/src/gql/graphql.js' as string)) as Record<string, unknown>;
    const documents = Object.entries(generated).filter(
      ([name, value]) => name.endsWith('Document') && value instanceof String,
    );
    expect(documents.length).toBeGreaterThan(10);
    const published = publicSchemaOf(buildSchema(MODULES));
    for (const [name, document] of documents) {
      expect(
        validate(published, parse(String(document))).map((e) => e.message),
        name,
      ).toEqual([]);
    }
  });

  it('still answer their REST routes', async () => {
    const v = await buildVenue(h);
    const booking = await buildBooking(h, v.tenantId, v.object.id, {
      start: '2027-06-01T10:00:00Z',
      end: '2027-06-01T11:00:00Z',
      status: 'CONFIRMED',
    });
    const get = (path: string) =>
      h.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}${path}`, apiKey: v.apiKey });
    const one = await get(`/bookings/${booking.id}`);
    expect(one.status).toBe(200);
    expect(one.body.booking.id).toBe(booking.id);
    // `next`: the cursor of the following page (docs/api.md, "Cursor paging"); null, as there is none.
    expect((await get('/webhooks')).body).toEqual({ webhooks: [], next: null });
    expect((await get('/pricing-rules')).body).toEqual({ pricingRules: [], next: null });
    expect((await get('/cancellation-policies')).body).toEqual({ cancellationPolicies: [], next: null });
    const slots = await get(`/objects/availability?date=2027-06-01&objectId=${v.object.id}`);
    expect(slots.status).toBe(200);
    expect(slots.body.objects[0].objectId).toBe(v.object.id);
    const objects = await get('/objects');
    expect(objects.status).toBe(200);
    expect(objects.body.objects.map((o: { id: string }) => o.id)).toEqual([v.object.id]);
    const patched = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.booking.status).toBe('CANCELLED');
  });
});
