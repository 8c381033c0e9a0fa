import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import { REFERENCE_ALPHABET } from '../src/modules/bookings/reference.js';

// The booking's short reference (issue #41, docs/bookings.md "Reference"): PRT- and 5 characters
// without ambiguous ones, unique per tenant, made on every path that creates a booking, found by the
// listing's search with or without PRT- in any case, and shown in GraphQL, REST and the CSV export.

const REFERENCE = new RegExp(`^PRT-[${REFERENCE_ALPHABET}]{5}$`);

let h: Harness;
type Venue = Awaited<ReturnType<typeof buildVenue>>;
let v: Venue;

beforeAll(async () => {
  h = await harness();
  v = await buildVenue(h);
}, 120_000);

const restCreate = (venue: Venue, days: number, extra: Record<string, unknown> = {}) =>
  h.request({
    method: 'POST',
    url: `/api/v1/tenants/${venue.tenantId}/bookings`,
    apiKey: venue.apiKey,
    body: {
      objectId: venue.object.id,
      guestName: `Guest ${days}`,
      guestEmail: `guest${days}@example.com`,
      ...slotInDays(days),
      ...extra,
    },
  });

describe('the booking reference', () => {
  it('is made on every create, unique under 50 concurrent creates in one tenant', async () => {
    const venue = await buildVenue(h);
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => restCreate(venue, i + 1)));
    for (const res of created) expect(res.status, res.text).toBe(201);
    const references = created.map((res) => res.body.booking.reference as string);
    for (const reference of references) expect(reference).toMatch(REFERENCE);
    expect(new Set(references).size).toBe(50);
    const stored = await h.deps.database.db
      .selectFrom('bookings')
      .select(['id', 'reference'])
      .where('tenant_id', '=', venue.tenantId)
      .execute();
    expect(new Set(stored.map((b) => b.reference)).size).toBe(50);
  });

  it('is made by GraphQL createBooking and by the import path too', async () => {
    const res = await h.graphql(
      v.apiKey,
      `mutation($o: ID!, $s: DateTime!, $e: DateTime!) {
        createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { id reference } } }`,
      { o: v.object.id, s: slotInDays(60).startTime, e: slotInDays(60).endTime },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createBooking.booking.reference).toMatch(REFERENCE);
    const imported = await buildBooking(h, v.tenantId, v.object.id, {
      start: '2025-01-10T10:00:00Z',
      end: '2025-01-10T11:00:00Z',
      status: 'COMPLETED',
    });
    expect(imported.reference).toMatch(REFERENCE);
  });

  it('may repeat across tenants but not within one (the unique index)', async () => {
    const other = await buildVenue(h);
    const mine = await restCreate(v, 61);
    const reference = mine.body.booking.reference as string;
    const db = h.deps.database.db;
    const insert = (venue: Venue, days: number) =>
      sql`INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price, reference)
          VALUES (${venue.tenantId}, ${venue.object.id}, 'X', 'x@example.com', ${slotInDays(days).startTime}::timestamptz,
                  ${slotInDays(days).endTime}::timestamptz, ${slotInDays(days).endTime}::timestamptz, 'PENDING', 100, ${reference})`.execute(
        db,
      );
    await expect(insert(other, 61)).resolves.toBeDefined();
    await expect(insert(v, 62)).rejects.toMatchObject({ code: '23505' });
  });

  it('is drawn again when the draw is taken in the tenant (a collision)', async () => {
    const venue = await buildVenue(h);
    const third = await buildVenue(h);
    // The same seed makes random() draw the same candidate twice: the second insert must retry.
    const references = await h.deps.database.db.transaction().execute(async (trx) => {
      const drawn: string[] = [];
      for (const days of [70, 71]) {
        await sql`SELECT setseed(0.42)`.execute(trx);
        const { rows } = await sql<{ reference: string }>`
          INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
          VALUES (${venue.tenantId}, ${venue.object.id}, 'X', 'x@example.com', ${slotInDays(days).startTime}::timestamptz,
                  ${slotInDays(days).endTime}::timestamptz, ${slotInDays(days).endTime}::timestamptz, 'PENDING', 100)
          RETURNING reference`.execute(trx);
        drawn.push(rows[0].reference);
      }
      // A third tenant's booking with the same seed draws the first candidate: not taken there.
      await sql`SELECT setseed(0.42)`.execute(trx);
      const { rows } = await sql<{ reference: string }>`
        INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
        VALUES (${third.tenantId}, ${third.object.id}, 'X', 'x@example.com', ${slotInDays(70).startTime}::timestamptz,
                ${slotInDays(70).endTime}::timestamptz, ${slotInDays(70).endTime}::timestamptz, 'PENDING', 100)
        RETURNING reference`.execute(trx);
      drawn.push(rows[0].reference);
      return drawn;
    });
    const [first, second, elsewhere] = references;
    expect(first).toMatch(REFERENCE);
    expect(second).toMatch(REFERENCE);
    expect(second).not.toBe(first);
    expect(elsewhere).toBe(first);
  });
});

describe('searching by reference', () => {
  let reference: string;
  let id: string;
  beforeAll(async () => {
    const res = await restCreate(v, 80, { guestName: 'Grace Hopper' });
    expect(res.status, res.text).toBe(201);
    reference = res.body.booking.reference;
    id = res.body.booking.id;
  });

  const forms = () => [
    reference,
    reference.toLowerCase(),
    reference.slice(4),
    reference.slice(4).toLowerCase(),
    ` ${reference.slice(4)} `,
    `PRT ${reference.slice(4)}`,
  ];

  it('REST ?search= finds it, with or without PRT-, in any case', async () => {
    for (const search of forms()) {
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${v.tenantId}/bookings?search=${encodeURIComponent(search)}`,
        apiKey: v.apiKey,
      });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.bookings.map((b: { id: string }) => b.id),
        search,
      ).toEqual([id]);
      expect(res.body.bookings[0].reference).toBe(reference);
    }
  });

  it('GraphQL bookingPage and bookingsConnection search find it', async () => {
    for (const search of forms()) {
      const res = await h.graphql(
        v.apiKey,
        `query($q: String) { bookingPage(search: $q) { bookings { id reference } }
           bookingsConnection(search: $q) { nodes { id reference } } }`,
        { q: search },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.bookingPage.bookings).toEqual([{ id, reference }]);
      expect(res.body.data.bookingsConnection.nodes).toEqual([{ id, reference }]);
    }
  });

  it("does not find another tenant's booking of the same reference", async () => {
    const other = await buildVenue(h);
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${other.tenantId}/bookings?search=${reference}`,
      apiKey: other.apiKey,
    });
    expect(res.body.bookings).toEqual([]);
  });

  it('a name search still works, and a fragment of a reference finds nothing by reference', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?search=grace`,
      apiKey: v.apiKey,
    });
    expect(res.body.bookings.map((b: { id: string }) => b.id)).toContain(id);
    const part = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?search=${reference.slice(4, 8)}`,
      apiKey: v.apiKey,
    });
    expect(part.body.bookings.map((b: { id: string }) => b.id)).not.toContain(id);
  });

  it('is a column of the CSV export and is in the REST detail and GraphQL booking', async () => {
    const csv = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/export.csv?search=${reference}`,
      apiKey: v.apiKey,
    });
    expect(csv.status).toBe(200);
    const [header, row] = csv.text.trim().split('\r\n');
    // Appended after the payment columns (later additions come after it: columns are only appended).
    const column = header.split(',').indexOf('reference');
    expect(column).toBeGreaterThan(header.split(',').indexOf('amount_refunded'));
    expect(row.split(',')[column]).toBe(reference);
    const detail = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${id}`,
      apiKey: v.apiKey,
    });
    expect(detail.body.booking.reference).toBe(reference);
    const gql = await h.graphql(v.apiKey, 'query($id: ID!) { booking(id: $id) { reference } }', { id });
    expect(gql.body.data.booking.reference).toBe(reference);
    const list = await h.graphql(v.apiKey, '{ bookings(first: 100) { id reference } }');
    expect(list.body.data.bookings.find((b: { id: string }) => b.id === id).reference).toBe(reference);
  });
});

describe("the guest's language", () => {
  it('createBooking takes locale (EN or DE) and stores it; anything else is refused naming locale', async () => {
    const de = await restCreate(v, 90, { locale: 'DE' });
    expect(de.status, de.text).toBe(201);
    const none = await restCreate(v, 91);
    const rows = await h.deps.database.db
      .selectFrom('bookings')
      .select(['id', 'guest_locale'])
      .where('id', 'in', [de.body.booking.id, none.body.booking.id])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.guest_locale]))).toEqual({
      [de.body.booking.id]: 'de',
      [none.body.booking.id]: null,
    });
    const bad = await restCreate(v, 92, { locale: 'fr' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('locale');
  });
});
