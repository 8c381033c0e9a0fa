import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

type Venue = Awaited<ReturnType<typeof buildVenue>>;
type Listed = { id: string; startTime: string; status: string; objectId: string; guestEmail: string };

const hourOn = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour)).toISOString();

/** Court 1 has 25 bookings on consecutive hours of 2026-11-02…; Court 2 has 3, the first at the same instant as Court 1's first. */
async function seed() {
  const v = await buildVenue(h, { objects: 2, pricePerHour: 1500 });
  const [court1, court2] = v.objects;
  const statuses = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
  const made: { id: string; start: string; objectId: string; status: string; email: string }[] = [];
  for (let i = 0; i < 25; i += 1) {
    const status = statuses[i % 4];
    const email = i % 5 === 0 ? 'Grace@Example.com' : `guest${i}@example.com`;
    const b = await buildBooking(h, v.tenantId, court1.id, {
      start: hourOn(2 + Math.floor(i / 10), 8 + (i % 10)),
      end: hourOn(2 + Math.floor(i / 10), 9 + (i % 10)),
      status,
      guestEmail: email,
    });
    made.push({ id: b.id, start: b.start_time.toISOString(), objectId: court1.id, status, email });
  }
  for (let i = 0; i < 3; i += 1) {
    const b = await buildBooking(h, v.tenantId, court2.id, {
      start: hourOn(2, 8 + i * 2),
      end: hourOn(2, 9 + i * 2),
      status: 'CONFIRMED',
      guestEmail: 'grace@example.com',
    });
    made.push({
      id: b.id,
      start: b.start_time.toISOString(),
      objectId: court2.id,
      status: 'CONFIRMED',
      email: 'grace@example.com',
    });
  }
  const ordered = [...made].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : 1));
  return { v, court1, court2, made, ordered };
}

let data: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  data = await seed();
});

function list(v: Venue, query = '', apiKey = v.apiKey) {
  return h.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}/bookings${query}`, apiKey });
}

const ids = (res: { body: { bookings: Listed[] } }) => res.body.bookings.map((b) => b.id);

describe('GET /bookings', () => {
  it('returns page 1 of 20 by default, ordered by start time then id, with the total', async () => {
    const res = await list(data.v);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, pageSize: 20, total: 28 });
    expect(ids(res)).toEqual(data.ordered.slice(0, 20).map((b) => b.id));
  });

  it('returns each booking with the contract fields', async () => {
    const res = await list(data.v, `?objectId=${data.court1.id}&pageSize=1`);
    const [first] = res.body.bookings;
    const expected = data.made[0];
    expect(first).toMatchObject({
      id: expected.id,
      objectId: data.court1.id,
      objectName: 'Court 1',
      guestName: 'Ada Lovelace',
      guestEmail: 'Grace@Example.com',
      startTime: '2026-11-02T08:00:00.000Z',
      endTime: '2026-11-02T09:00:00.000Z',
      status: 'PENDING',
      totalPrice: 1500,
      currency: 'EUR',
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    for (const field of [
      'id',
      'objectId',
      'objectName',
      'guestName',
      'guestEmail',
      'startTime',
      'endTime',
      'status',
      'totalPrice',
      'currency',
      'createdAt',
    ]) {
      expect(first).toHaveProperty(field);
    }
  });

  it('pages are stable and disjoint, and a page past the end is empty with the total', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(data.v, `?page=${page}&pageSize=10`)));
    expect(pages.map((p) => p.body.bookings.length)).toEqual([10, 10, 8]);
    expect(pages.flatMap(ids)).toEqual(data.ordered.map((b) => b.id));
    for (const [i, p] of pages.entries()) expect(p.body.pagination).toEqual({ page: i + 1, pageSize: 10, total: 28 });
    const beyond = await list(data.v, '?page=9&pageSize=10');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ bookings: [], pagination: { page: 9, pageSize: 10, total: 28 }, next: null });
  });

  it('allows pageSize 100 and refuses more, or less than 1, with a 400 naming the field', async () => {
    const max = await list(data.v, '?pageSize=100');
    expect(max.body.bookings).toHaveLength(28);
    expect(max.body.pagination.pageSize).toBe(100);
    for (const [query, field] of [
      ['?pageSize=101', 'pageSize'],
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=abc', 'pageSize'],
      ['?pageSize=2.5', 'pageSize'],
      ['?page=0', 'page'],
      ['?page=-1', 'page'],
      ['?page=x', 'page'],
    ]) {
      const res = await list(data.v, query);
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors, query).toEqual([expect.objectContaining({ field })]);
    }
  });

  it.each(['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'])('filters by status %s', async (status) => {
    const res = await list(data.v, `?status=${status}&pageSize=100`);
    const expected = data.ordered.filter((b) => b.status === status);
    expect(ids(res)).toEqual(expected.map((b) => b.id));
    expect(res.body.pagination.total).toBe(expected.length);
  });

  it('filters by objectId', async () => {
    const res = await list(data.v, `?objectId=${data.court2.id}`);
    expect(ids(res)).toEqual(data.ordered.filter((b) => b.objectId === data.court2.id).map((b) => b.id));
    expect(res.body.pagination.total).toBe(3);
  });

  it('filters by from (inclusive) and to (exclusive) on the start time', async () => {
    const from = '2026-11-03T08:00:00Z';
    const to = '2026-11-04T08:00:00Z';
    const res = await list(data.v, `?from=${from}&to=${to}&pageSize=100`);
    const expected = data.ordered.filter(
      (b) => b.start >= new Date(from).toISOString() && b.start < new Date(to).toISOString(),
    );
    expect(expected).toHaveLength(10);
    expect(ids(res)).toEqual(expected.map((b) => b.id));
    const offset = await list(data.v, `?from=${encodeURIComponent('2026-11-03T09:00:00+01:00')}&pageSize=100`);
    expect(offset.body.pagination.total).toBe(data.ordered.filter((b) => b.start >= '2026-11-03T08:00:00.000Z').length);
  });

  it('takes a date YYYY-MM-DD for from and to (ISO 8601, as the contract says), as midnight UTC', async () => {
    const res = await list(data.v, `?from=2026-11-03&to=2026-11-04&pageSize=100`);
    expect(res.status).toBe(200);
    const expected = data.ordered.filter(
      (b) => b.start >= '2026-11-03T00:00:00.000Z' && b.start < '2026-11-04T00:00:00.000Z',
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(res)).toEqual(expected.map((b) => b.id));
  });

  it('filters by guestEmail, exactly and case-insensitively', async () => {
    const res = await list(data.v, `?guestEmail=${encodeURIComponent('GRACE@example.COM')}&pageSize=100`);
    const expected = data.ordered.filter((b) => b.email.toLowerCase() === 'grace@example.com');
    expect(expected).toHaveLength(8);
    expect(ids(res)).toEqual(expected.map((b) => b.id));
    expect((await list(data.v, '?guestEmail=grace')).body.pagination.total).toBe(0);
  });

  it('combines filters', async () => {
    const res = await list(
      data.v,
      `?status=CONFIRMED&objectId=${data.court1.id}&guestEmail=grace@example.com&from=2026-11-02T00:00:00Z&to=2026-11-05T00:00:00Z`,
    );
    const expected = data.ordered.filter(
      (b) => b.status === 'CONFIRMED' && b.objectId === data.court1.id && b.email.toLowerCase() === 'grace@example.com',
    );
    expect(ids(res)).toEqual(expected.map((b) => b.id));
  });

  it('refuses malformed filters with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['?status=OPEN', 'status'],
      ['?objectId=court-1', 'objectId'],
      ['?from=yesterday', 'from'],
      ['?to=2026-11-02T10:00', 'to'],
      ['?to=2026-11-31', 'to'],
    ]) {
      const res = await list(data.v, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors, query).toEqual([expect.objectContaining({ field })]);
      expect(res.body.detail, query).toContain(field);
    }
  });

  it('lists only the key’s tenant, and refuses another tenant’s path', async () => {
    const other = await buildVenue(h);
    await buildBooking(h, other.tenantId, other.object.id, { start: hourOn(2, 8), end: hourOn(2, 9) });
    const own = await list(other);
    expect(own.body.pagination.total).toBe(1);
    const mismatch = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${data.v.tenantId}/bookings`,
      apiKey: other.apiKey,
    });
    expect(mismatch.status).toBe(403);
  });

  it('runs a fixed number of SQL statements whatever the page size', async () => {
    // The key's last-use write (once a minute, off the request's path) must not land in a count.
    await list(data.v, '?pageSize=1');
    const deadline = Date.now() + 30_000;
    while (
      !(
        await h.deps.database.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('tenant_id', '=', data.v.tenantId)
          .executeTakeFirst()
      )?.last_used_at
    ) {
      if (Date.now() > deadline) throw new Error('the key’s last use was never recorded');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The counter is the process's: a background job's statement (a poll) may land in one count,
    // never in all three, so the fewest of three is the request's own.
    const statements = async (pageSize: number) => {
      const counts: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const before = h.deps.database.queries.count;
        const res = await list(data.v, `?pageSize=${pageSize}`);
        expect(res.status).toBe(200);
        expect(res.body.bookings).toHaveLength(Math.min(pageSize, data.made.length));
        counts.push(h.deps.database.queries.count - before);
      }
      return Math.min(...counts);
    };
    const one = await statements(1);
    expect(await statements(5)).toBe(one);
    expect(await statements(100)).toBe(one);
    expect(one).toBeLessThanOrEqual(3);
  });

  it('needs bookings:read', async () => {
    expect((await list(data.v, '', await h.key(data.v.tenantId, ['bookings:read']))).status).toBe(200);
    expect((await list(data.v, '', await h.key(data.v.tenantId, ['catalog:read']))).status).toBe(403);
  });
});

describe('GET /bookings/{bookingId}', () => {
  it('returns {booking} with every field', async () => {
    const b = data.made[1];
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${data.v.tenantId}/bookings/${b.id}`,
      apiKey: data.v.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({
      id: b.id,
      objectId: data.court1.id,
      objectName: 'Court 1',
      status: 'CONFIRMED',
      currency: 'EUR',
      totalPrice: 1500,
    });
  });

  it('is 404 for an unknown, malformed or other tenant’s booking', async () => {
    const other = await buildVenue(h);
    const foreign = await buildBooking(h, other.tenantId, other.object.id, { start: hourOn(2, 8), end: hourOn(2, 9) });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', foreign.id]) {
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${data.v.tenantId}/bookings/${id}`,
        apiKey: data.v.apiKey,
      });
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('GraphQL bookings', () => {
  const QUERY = `query($status: BookingStatus, $first: Int) {
    bookings(status: $status, first: $first) {
      id guestName guestEmail startTime endTime status totalPrice
      object { id name accommodation { name address } }
    } }`;

  it('returns bookings with object and accommodation, 20 by default, filtered by status', async () => {
    const all = await h.graphql(data.v.apiKey, QUERY);
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.bookings.map((b: { id: string }) => b.id)).toEqual(data.ordered.slice(0, 20).map((b) => b.id));
    expect(all.body.data.bookings[0].object).toEqual({
      id: data.ordered[0].objectId,
      name: expect.stringMatching(/^Court/),
      accommodation: { name: 'Sportpark Test', address: 'Teststrasse 1, 10115 Berlin' },
    });
    const cancelled = await h.graphql(data.v.apiKey, QUERY, { status: 'CANCELLED', first: 3 });
    expect(cancelled.body.data.bookings.map((b: { id: string }) => b.id)).toEqual(
      data.ordered
        .filter((b) => b.status === 'CANCELLED')
        .slice(0, 3)
        .map((b) => b.id),
    );
  });

  it.each([0, 101])('refuses first: %i', async (first) => {
    const res = await h.graphql(data.v.apiKey, QUERY, { first });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'first' }] });
  });

  it('offers the paginated list and a booking by id', async () => {
    const page = await h.graphql(
      data.v.apiKey,
      `{ bookingPage(page: 2, pageSize: 5, objectId: "${data.court1.id}") { bookings { id objectName } pagination { page pageSize total } } }`,
    );
    expect(page.body.data.bookingPage.pagination).toEqual({ page: 2, pageSize: 5, total: 25 });
    expect(page.body.data.bookingPage.bookings.map((b: { id: string }) => b.id)).toEqual(
      data.ordered
        .filter((b) => b.objectId === data.court1.id)
        .slice(5, 10)
        .map((b) => b.id),
    );
    const one = await h.graphql(
      data.v.apiKey,
      `{ booking(id: "${data.made[0].id}") { id status paymentUrl object { name } } }`,
    );
    expect(one.body.data.booking).toMatchObject({
      id: data.made[0].id,
      status: 'PENDING',
      object: { name: 'Court 1' },
    });
    const missing = await h.graphql(data.v.apiKey, `{ booking(id: "00000000-0000-4000-8000-000000000000") { id } }`);
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('runs a constant number of SQL statements whatever the number of bookings', async () => {
    async function statementsFor(count: number): Promise<number> {
      const v = await buildVenue(h, { objects: 3 });
      for (let i = 0; i < count; i += 1) {
        const object = v.objects[i % 3];
        const start = new Date(Date.UTC(2026, 11, 1) + i * 3_600_000);
        await buildBooking(h, v.tenantId, object.id, {
          start: start.toISOString(),
          end: new Date(start.getTime() + 3_600_000).toISOString(),
        });
      }
      // The least of two identical requests: a key's first request also records its use, in the
      // background, and may land in either window.
      let statements = Infinity;
      let res = await h.graphql(v.apiKey, QUERY, { first: 100 });
      for (let round = 0; round < 2; round += 1) {
        const before = h.deps.database.queries.count;
        res = await h.graphql(v.apiKey, QUERY, { first: 100 });
        statements = Math.min(statements, h.deps.database.queries.count - before);
      }
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.bookings).toHaveLength(count);
      expect(
        res.body.data.bookings.every(
          (b: { object: { accommodation: { name: string } } }) => b.object.accommodation.name === 'Sportpark Test',
        ),
      ).toBe(true);
      return statements;
    }
    const few = await statementsFor(5);
    const many = await statementsFor(100);
    expect(many).toBe(few);
    // the key lookup and one listing query that joins objects and accommodations (issue 8: ≤ 3)
    expect(few).toBeLessThanOrEqual(3);
  });

  it('reads only what the selection needs, and answers the same through fragments, aliases and __typename', async () => {
    const ids = data.ordered.map((b) => b.id);
    const lean = await h.graphql(data.v.apiKey, '{ bookings(first: 100) { id } }');
    expect(lean.body.errors).toBeUndefined();
    expect(lean.body.data.bookings).toEqual(ids.map((id) => ({ id })));
    const viaFragments = await h.graphql(
      data.v.apiKey,
      `query { bookings(first: 100) { __typename ...F ... on Booking { when: startTime guestPhone } } }
       fragment F on Booking { id objectName paymentUrl object { name accommodation { name } } }`,
    );
    expect(viaFragments.body.errors).toBeUndefined();
    const first = viaFragments.body.data.bookings[0];
    expect(Object.keys(first).sort()).toEqual([
      '__typename',
      'guestPhone',
      'id',
      'object',
      'objectName',
      'paymentUrl',
      'when',
    ]);
    expect(first).toMatchObject({
      __typename: 'Booking',
      id: ids[0],
      object: { accommodation: { name: expect.any(String) } },
      when: data.ordered[0].start,
    });
    expect(first.paymentUrl).toMatch(/\/pay\//);
    const full = await h.graphql(
      data.v.apiKey,
      '{ bookings(first: 100) { id objectId objectName guestName guestEmail guestPhone startTime endTime status totalPrice currency createdAt paymentUrl refundAmount } }',
    );
    expect(full.body.errors).toBeUndefined();
    expect(full.body.data.bookings.map((b: { id: string }) => b.id)).toEqual(ids);
    expect(
      full.body.data.bookings.every(
        (b: Record<string, unknown>) => typeof b.createdAt === 'string' && typeof b.totalPrice === 'number',
      ),
    ).toBe(true);
  });
});
