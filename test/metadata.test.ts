import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildVenue, slotInDays } from './builders.js';

// Metadata and change tracking (issue #27; docs/bookings.md, "Metadata" and "Changes since"):
// bookings and objects take a string→string map at creation, merge it on update (null deletes a
// key), show it on get and list, filter lists by exact pairs; updatedAt moves on every change and
// `updatedSince` filters both lists. Through REST and GraphQL, as an integrator calls them.

let h: Harness;
type Venue = Awaited<ReturnType<typeof buildVenue>>;
let v: Venue;

beforeAll(async () => {
  h = await harness();
  v = await buildVenue(h, { objects: 2 });
});

const bookingsUrl = (venue: Venue, rest = '') => `/api/v1/tenants/${venue.tenantId}/bookings${rest}`;
const objectsUrl = (venue: Venue, rest = '') => `/api/v1/tenants/${venue.tenantId}/objects${rest}`;

let day = 2;
/** A REST booking on its own day (no overlaps between tests). */
async function book(venue: Venue, extra: Record<string, unknown> = {}, objectIndex = 0) {
  day += 1;
  const slot = slotInDays(day, 10);
  return h.request({
    method: 'POST',
    url: bookingsUrl(venue),
    apiKey: venue.apiKey,
    body: {
      objectId: venue.objects[objectIndex]?.id,
      guestName: 'Ada',
      guestEmail: 'ada@example.com',
      ...slot,
      ...extra,
    },
  });
}

const patch = (venue: Venue, id: string, body: Record<string, unknown>) =>
  h.request({ method: 'PATCH', url: bookingsUrl(venue, `/${id}`), apiKey: venue.apiKey, body });

/** Waits until the clock has passed `instant`, so the next change gets a later updatedAt. */
async function after(instant: string) {
  while (Date.now() <= new Date(instant).getTime()) await new Promise((resolve) => setTimeout(resolve, 2));
}

const fieldsOf = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);
const graphqlFields = (res: {
  body: { errors?: { extensions: { code: string; fields?: { field: string }[] } }[] };
}) => {
  const [error] = res.body.errors ?? [];
  expect(error?.extensions.code).toBe('BAD_USER_INPUT');
  return (error?.extensions.fields ?? []).map((f) => f.field);
};

describe('booking metadata over REST', () => {
  it('is set at creation and shown on create, get and list; {} when none', async () => {
    const created = await book(v, { metadata: { orderRef: 'A-1042', 'crm.id': 'c_77' } });
    expect(created.status).toBe(201);
    const { booking } = created.body;
    expect(booking.metadata).toEqual({ orderRef: 'A-1042', 'crm.id': 'c_77' });
    expect(booking.updatedAt).toBe(booking.createdAt);
    const one = await h.request({ method: 'GET', url: bookingsUrl(v, `/${booking.id}`), apiKey: v.apiKey });
    expect(one.body.booking).toMatchObject({ metadata: booking.metadata, updatedAt: booking.updatedAt });
    const list = await h.request({ method: 'GET', url: bookingsUrl(v, '?pageSize=100'), apiKey: v.apiKey });
    expect(list.body.bookings.find((b: { id: string }) => b.id === booking.id)).toMatchObject({
      metadata: booking.metadata,
      updatedAt: booking.updatedAt,
    });
    const plain = await book(v);
    expect(plain.body.booking.metadata).toEqual({});
  });

  it('PATCH merges: string values set, null deletes, other keys stay; updatedAt moves', async () => {
    const created = await book(v, { metadata: { a: '1', b: '2' } });
    const { id, updatedAt } = created.body.booking;
    await after(updatedAt);
    const res = await patch(v, id, { metadata: { b: null, c: '3', a: '1' } });
    expect(res.status).toBe(200);
    expect(res.body.booking.metadata).toEqual({ a: '1', c: '3' });
    expect(res.body.booking.status).toBe('PENDING');
    expect(new Date(res.body.booking.updatedAt).getTime()).toBeGreaterThan(new Date(updatedAt).getTime());
    // Deleting a key that is not there, with nothing else: nothing changes, updatedAt stays.
    const same = await patch(v, id, { metadata: { zzz: null } });
    expect(same.body.booking).toMatchObject({ metadata: { a: '1', c: '3' }, updatedAt: res.body.booking.updatedAt });
  });

  it('PATCH takes metadata with a status change: both apply, and the event carries the new metadata', async () => {
    const fresh = await buildVenue(h);
    const created = await book(fresh, { metadata: { ref: 'old' } });
    const { id } = created.body.booking;
    const res = await patch(fresh, id, { status: 'CONFIRMED', metadata: { ref: 'new' } });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ status: 'CONFIRMED', metadata: { ref: 'new' } });
    // The feed serves an event once every transaction older than it has ended, on the whole
    // database server (docs/webhooks.md): with other tests' transactions open, it may lag a moment.
    type FeedEvent = { type: string; data: { booking: { id: string; metadata: unknown } } };
    let mine: FeedEvent[] = [];
    for (const deadline = Date.now() + 30_000; mine.length < 2 && Date.now() < deadline;) {
      const feed = await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${fresh.tenantId}/events?types=booking.created,booking.confirmed&limit=100`,
        apiKey: fresh.apiKey,
      });
      expect(feed.status).toBe(200);
      mine = (feed.body.events as FeedEvent[]).filter((e) => e.data.booking.id === id);
      if (mine.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(
      mine.map((e: { type: string; data: { booking: { metadata: unknown } } }) => [e.type, e.data.booking.metadata]),
    ).toEqual([
      ['booking.created', { ref: 'old' }],
      ['booking.confirmed', { ref: 'new' }],
    ]);
  });

  it('PATCH takes metadata with a reschedule', async () => {
    const created = await book(v);
    const { id } = created.body.booking;
    day += 1;
    const res = await patch(v, id, { ...slotInDays(day, 12), metadata: { moved: 'yes' } });
    expect(res.status).toBe(200);
    expect(res.body.booking.metadata).toEqual({ moved: 'yes' });
    expect(res.body.previous).toBeTruthy();
  });

  const long = (n: number, c = 'k') => c.repeat(n);
  const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
  const refusals: [string, unknown, string][] = [
    ['not an object (a list)', ['a'], 'metadata'],
    ['not an object (a string)', 'orderRef=1', 'metadata'],
    ['51 keys', { ...fifty, one: 'more' }, 'metadata'],
    ['a key of 41 characters', { [long(41)]: 'v' }, `metadata.${long(41)}`],
    ['an empty key', { '': 'v' }, 'metadata.""'],
    ['a key with a control character', { 'a\tb': 'v' }, 'metadata."a\\tb"'],
    ['a value of 501 characters', { note: long(501, 'x') }, 'metadata.note'],
    ['a number as value', { count: 3 }, 'metadata.count'],
    ['an object as value', { nested: { a: 'b' } }, 'metadata.nested'],
  ];

  it.each(refusals)('refuses %s at creation (400 naming the field)', async (_name, metadata, field) => {
    const res = await book(v, { metadata });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fieldsOf(res)).toEqual([field]);
  });

  it('accepts the limits exactly: 50 keys, a 40-character key, a 500-character value', async () => {
    const res = await book(v, { metadata: { ...fifty } });
    expect(res.status).toBe(201);
    const edge = await book(v, { metadata: { [long(40)]: long(500, 'x') } });
    expect(edge.status).toBe(201);
    expect(edge.body.booking.metadata[long(40)]).toHaveLength(500);
  });

  it('refuses a merge that would leave more than 50 keys, and keeps the booking as it was', async () => {
    const created = await book(v, { metadata: fifty });
    const { id } = created.body.booking;
    const res = await patch(v, id, { metadata: { extra: 'x' } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['metadata']);
    // Swapping one key for another stays at 50.
    const swap = await patch(v, id, { metadata: { k0: null, extra: 'x' } });
    expect(swap.status).toBe(200);
    expect(Object.keys(swap.body.booking.metadata)).toHaveLength(50);
  });

  it('lists by exact metadata[key]=value pairs (all must match), only the tenant’s own', async () => {
    const tag = `t${Date.now()}`;
    const a = (await book(v, { metadata: { batch: tag, kind: 'a', '0': 'zero' } })).body.booking.id;
    const b = (await book(v, { metadata: { batch: tag, kind: 'b', '12': 'twelve' } })).body.booking.id;
    await book(v, { metadata: { batch: `${tag}-other`, kind: 'a' } });
    const other = await buildVenue(h);
    await book(other, { metadata: { batch: tag, kind: 'a' } });
    const ids = async (query: string) => {
      const res = await h.request({ method: 'GET', url: bookingsUrl(v, query), apiKey: v.apiKey });
      expect(res.status).toBe(200);
      return res.body.bookings.map((x: { id: string }) => x.id);
    };
    expect(await ids(`?metadata[batch]=${tag}`)).toEqual([a, b]);
    expect(await ids(`?metadata[batch]=${tag}&metadata[kind]=b`)).toEqual([b]);
    expect(await ids(`?metadata[batch]=${tag.toUpperCase()}`)).toEqual([]);
    // Numeric keys are keys, not list indices.
    expect(await ids(`?metadata[batch]=${tag}&metadata[12]=twelve`)).toEqual([b]);
    expect(await ids(`?metadata[0]=zero&metadata[batch]=${tag}`)).toEqual([a]);
    const total = await h.request({ method: 'GET', url: bookingsUrl(v, `?metadata[batch]=${tag}`), apiKey: v.apiKey });
    expect(total.body.pagination.total).toBe(2);
  });

  it.each([
    ['?metadata=plain', 'metadata'],
    ['?metadata[a][b]=c', 'metadata.a'],
    [`?metadata[${'k'.repeat(41)}]=v`, `metadata.${'k'.repeat(41)}`],
    ['?updatedSince=yesterday', 'updatedSince'],
  ])('refuses the filter %s (400 naming %s)', async (query, field) => {
    const res = await h.request({ method: 'GET', url: bookingsUrl(v, query), apiKey: v.apiKey });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain(field);
  });
});

describe('booking metadata over GraphQL', () => {
  const CREATE = `mutation ($o: ID!, $s: DateTime!, $e: DateTime!, $m: JSONObject) {
    createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e, metadata: $m) {
      booking { id metadata updatedAt createdAt } } }`;
  const UPDATE = `mutation ($id: ID!, $m: JSONObject!) { updateBookingMetadata(bookingId: $id, metadata: $m) { booking { id metadata updatedAt } } }`;

  async function create(metadata?: unknown) {
    day += 1;
    const slot = slotInDays(day, 10);
    return h.graphql(v.apiKey, CREATE, { o: v.object.id, s: slot.startTime, e: slot.endTime, m: metadata });
  }

  it('creates with metadata, merges with updateBookingMetadata, reads it back', async () => {
    const created = await create({ ref: 'G-1', drop: 'me' });
    expect(created.body.errors).toBeUndefined();
    const { id, updatedAt } = created.body.data.createBooking.booking;
    await after(updatedAt);
    const updated = await h.graphql(v.apiKey, UPDATE, { id, m: { drop: null, added: 'yes' } });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateBookingMetadata.booking.metadata).toEqual({ ref: 'G-1', added: 'yes' });
    const read = await h.graphql(v.apiKey, `query ($id: ID!) { booking(id: $id) { metadata updatedAt } }`, { id });
    expect(read.body.data.booking).toEqual({
      metadata: { ref: 'G-1', added: 'yes' },
      updatedAt: updated.body.data.updateBookingMetadata.booking.updatedAt,
    });
  });

  it('refuses bad metadata as BAD_USER_INPUT naming the key', async () => {
    expect(graphqlFields(await create({ n: 1 }))).toEqual(['metadata.n']);
    const ok = await create({});
    const { id } = ok.body.data.createBooking.booking;
    expect(graphqlFields(await h.graphql(v.apiKey, UPDATE, { id, m: { ['x'.repeat(41)]: 'v' } }))).toEqual([
      `metadata.${'x'.repeat(41)}`,
    ]);
    // A literal that is not an object is refused by the scalar itself.
    const literal = await h.graphql(
      v.apiKey,
      `mutation { updateBookingMetadata(bookingId: "${id}", metadata: "x") { booking { id } } }`,
    );
    expect(literal.body.errors?.[0]?.message).toMatch(/JSONObject/);
  });

  it('filters bookingsConnection and bookingPage by metadata and updatedSince', async () => {
    const tag = `g${Date.now()}`;
    const first = (await create({ tag })).body.data.createBooking.booking;
    const second = (await create({ tag })).body.data.createBooking.booking;
    await after(second.updatedAt);
    const touched = await h.graphql(v.apiKey, UPDATE, { id: first.id, m: { seen: '1' } });
    const since = touched.body.data.updateBookingMetadata.booking.updatedAt as string;
    const connection = await h.graphql(
      v.apiKey,
      `query ($m: JSONObject, $u: DateTime) { bookingsConnection(first: 100, metadata: $m, updatedSince: $u) { totalCount nodes { id metadata } } }`,
      { m: { tag } },
    );
    expect(connection.body.data.bookingsConnection.nodes.map((n: { id: string }) => n.id)).toEqual([
      first.id,
      second.id,
    ]);
    const changed = await h.graphql(
      v.apiKey,
      `query ($m: JSONObject, $u: DateTime) { bookingsConnection(first: 100, metadata: $m, updatedSince: $u) { totalCount nodes { id } } }`,
      { m: { tag }, u: since },
    );
    expect(changed.body.data.bookingsConnection).toEqual({ totalCount: 1, nodes: [{ id: first.id }] });
    const page = await h.graphql(
      v.apiKey,
      `query ($m: JSONObject) { bookingPage(metadata: $m) { bookings { id } pagination { total } } }`,
      { m: { tag, seen: '1' } },
    );
    expect(page.body.data.bookingPage).toEqual({ bookings: [{ id: first.id }], pagination: { total: 1 } });
    expect(graphqlFields(await h.graphql(v.apiKey, `{ bookingsConnection(metadata: {a: 1}) { totalCount } }`))).toEqual(
      ['metadata.a'],
    );
  });
});

describe('updatedAt and updatedSince on bookings (REST)', () => {
  it('moves on a status change and on a guest edit; updatedSince lists what changed since', async () => {
    const fresh = await buildVenue(h);
    const a = (await book(fresh)).body.booking;
    const b = (await book(fresh)).body.booking;
    await after(b.updatedAt);
    const confirmed = await patch(fresh, a.id, { status: 'CONFIRMED' });
    const at = confirmed.body.booking.updatedAt as string;
    expect(new Date(at).getTime()).toBeGreaterThan(new Date(a.updatedAt).getTime());
    const since = await h.request({
      method: 'GET',
      url: bookingsUrl(fresh, `?updatedSince=${encodeURIComponent(at)}`),
      apiKey: fresh.apiKey,
    });
    expect(since.body.bookings.map((x: { id: string }) => x.id)).toEqual([a.id]);
    await after(at);
    const guest = await h.graphql(
      fresh.apiKey,
      `mutation ($id: ID!) { updateBookingGuest(bookingId: $id, guestName: "Grace") { booking { updatedAt } } }`,
      { id: b.id },
    );
    const guestAt = guest.body.data.updateBookingGuest.booking.updatedAt as string;
    expect(new Date(guestAt).getTime()).toBeGreaterThan(new Date(at).getTime());
    const later = await h.request({
      method: 'GET',
      url: bookingsUrl(fresh, `?updatedSince=${encodeURIComponent(guestAt)}`),
      apiKey: fresh.apiKey,
    });
    expect(later.body.bookings.map((x: { id: string }) => x.id)).toEqual([b.id]);
  });
});

describe('object metadata and updatedAt', () => {
  const CREATE = `mutation ($a: ID!, $n: String!, $m: JSONObject) {
    createObject(accommodationId: $a, name: $n, pricePerHour: 1000, metadata: $m) { id metadata updatedAt createdAt } }`;
  const UPDATE = `mutation ($id: ID!, $name: String, $m: JSONObject) { updateObject(id: $id, name: $name, metadata: $m) { id name metadata updatedAt } }`;

  it('sets, merges, lists (REST and GraphQL) and filters objects by metadata and updatedSince', async () => {
    const venue = await buildVenue(h, { objects: 0 });
    const made = await h.graphql(venue.apiKey, CREATE, {
      a: venue.accommodation.id,
      n: 'Court A',
      m: { sku: 'court-a', floor: 'clay' },
    });
    expect(made.body.errors).toBeUndefined();
    const a = made.body.data.createObject;
    expect(a.metadata).toEqual({ sku: 'court-a', floor: 'clay' });
    expect(a.updatedAt).toBe(a.createdAt);
    const b = (await h.graphql(venue.apiKey, CREATE, { a: venue.accommodation.id, n: 'Court B' })).body.data
      .createObject;
    expect(b.metadata).toEqual({});

    await after(b.updatedAt);
    const updated = await h.graphql(venue.apiKey, UPDATE, { id: a.id, m: { floor: null, lights: 'yes' } });
    expect(updated.body.errors).toBeUndefined();
    const changed = updated.body.data.updateObject;
    expect(changed.metadata).toEqual({ sku: 'court-a', lights: 'yes' });
    expect(new Date(changed.updatedAt).getTime()).toBeGreaterThan(new Date(a.updatedAt).getTime());

    const rest = await h.request({ method: 'GET', url: objectsUrl(venue), apiKey: venue.apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body.objects.map((o: { name: string; metadata: unknown }) => [o.name, o.metadata])).toEqual([
      ['Court A', { sku: 'court-a', lights: 'yes' }],
      ['Court B', {}],
    ]);
    const bySku = await h.request({
      method: 'GET',
      url: objectsUrl(venue, '?metadata[sku]=court-a'),
      apiKey: venue.apiKey,
    });
    expect(bySku.body.objects.map((o: { id: string }) => o.id)).toEqual([a.id]);
    const since = await h.request({
      method: 'GET',
      url: objectsUrl(venue, `?updatedSince=${encodeURIComponent(changed.updatedAt)}`),
      apiKey: venue.apiKey,
    });
    expect(since.body).toMatchObject({ objects: [{ id: a.id }], pagination: { total: 1 } });
    const graph = await h.graphql(
      venue.apiKey,
      `query ($m: JSONObject, $u: DateTime) { bookableObjects(metadata: $m, updatedSince: $u) { id } }`,
      { m: { lights: 'yes' }, u: changed.updatedAt },
    );
    expect(graph.body.data.bookableObjects).toEqual([{ id: a.id }]);

    // Opening-hours and booking-rules changes count as changes of the object.
    await after(changed.updatedAt);
    await h.graphql(
      venue.apiKey,
      `mutation ($o: ID!) { setBookingRules(objectId: $o, rules: { bufferMinutes: 15 }) { bufferMinutes } }`,
      {
        o: b.id,
      },
    );
    const read = await h.graphql(venue.apiKey, `query ($id: ID!) { bookableObject(id: $id) { updatedAt } }`, {
      id: b.id,
    });
    expect(new Date(read.body.data.bookableObject.updatedAt).getTime()).toBeGreaterThan(
      new Date(changed.updatedAt).getTime(),
    );
  });

  it('refuses bad object metadata naming the key, and bad filters', async () => {
    const venue = await buildVenue(h, { objects: 1 });
    const res = await h.graphql(venue.apiKey, CREATE, { a: venue.accommodation.id, n: 'X', m: { '': 'v' } });
    expect(graphqlFields(res)).toEqual(['metadata.""']);
    const upd = await h.graphql(venue.apiKey, UPDATE, { id: venue.object.id, m: { k: 'x'.repeat(501) } });
    expect(graphqlFields(upd)).toEqual(['metadata.k']);
    const bad = await h.request({ method: 'GET', url: objectsUrl(venue, '?metadata[k][x]=1'), apiKey: venue.apiKey });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['metadata.k']);
  });
});
