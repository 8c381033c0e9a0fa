import { parseSpecialDate } from '../src/modules/catalog/catalog.commands.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildVenue, type VenueOptions } from './builders.js';
import { setSpecialDate } from '../src/modules/catalog/catalog.service.js';
import { bookingEventData } from '../src/modules/bookings/index.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
// Friday 2026-11-20, 10:00 in Berlin.
const NOW = '2026-11-20T09:00:00.000Z';
beforeEach(() => h.clock.set(NOW));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;

const guest = { guestName: 'Ada Lovelace', guestEmail: 'ada@example.com' };
// Saturday 2026-11-21, 10:00–11:00 in Berlin.
const SAT_10 = { startTime: '2026-11-21T10:00:00+01:00', endTime: '2026-11-21T11:00:00+01:00' };

function post(v: Venue, body: Record<string, unknown>) {
  return h.request({ method: 'POST', url: `/api/v1/tenants/${v.tenantId}/bookings`, apiKey: v.apiKey, body });
}

async function countBookings(v: Venue): Promise<number> {
  const rows = await h.deps.database.db
    .selectFrom('bookings')
    .select('id')
    .where('tenant_id', '=', v.tenantId)
    .execute();
  return rows.length;
}

describe('POST /bookings', () => {
  it('answers with the booking’s object as a later read of it gives', async () => {
    const v = await buildVenue(h, { pricePerHour: 2000 });
    const object =
      'objectName object { id name pricePerHour accommodationId timeZone metadata createdAt updatedAt accommodation { name } }';
    const created = (await h.graphql(
      v.apiKey,
      `mutation M($o: ID!) { createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: "2026-11-21T16:00:00+01:00", endTime: "2026-11-21T17:00:00+01:00") { booking { id ${object} } } }`,
      { o: v.object.id },
    )) as { body: { data: { createBooking: { booking: { id: string } & Record<string, unknown> } } } };
    const { id, ...answered } = created.body.data.createBooking.booking;
    const read = (await h.graphql(v.apiKey, `query B($id: ID!) { booking(id: $id) { ${object} } }`, { id })) as {
      body: { data: { booking: Record<string, unknown> } };
    };
    expect(answered).toEqual(read.body.data.booking);
    expect(answered).toMatchObject({ objectName: v.object.name, object: { id: v.object.id, pricePerHour: 2000 } });
  });

  it('answers in five statements: the guest’s customer matched in one, booking, event and credentials in one, no sequence update, no look for credentials a new booking cannot have, no second read of its object or of its (no) notifications', async () => {
    const v = await buildVenue(h, { pricePerHour: 2000 });
    // The counter is the process's: a background job's statement (a poll) may land in one count,
    // never in all three, so the fewest of three is the request's own.
    const counts: number[] = [];
    for (const hour of [10, 12, 14]) {
      const before = h.deps.database.queries.count;
      const res = await post(v, {
        objectId: v.object.id,
        ...guest,
        startTime: `2026-11-21T${hour}:00:00+01:00`,
        endTime: `2026-11-21T${hour + 1}:00:00+01:00`,
      });
      expect(res.status).toBe(201);
      expect(res.body.booking.notifications).toEqual([]);
      counts.push(h.deps.database.queries.count - before);
    }
    // Begin, the object's context (locked), one statement for the booking (with its first event
    // sequence), its event and its credentials (with the tenant's signing key read in it), commit.
    // The API key is not read: the request
    // before (within API_KEY_CACHE_MS) did. Round eight's twelve also read the key, updated the
    // booking's event sequence, looked for existing credentials first and read the object again
    // for the answer; round twelve's eight also read the answer's notifications, which a booking
    // just created cannot have (none is queued for a PENDING booking); round thirteen's seven
    // read the signing key in a statement of its own, and wrote booking, event and credentials in three.
    // Customers (issue #43) add one: the guest's customer matched by email or phone (a new guest's
    // first booking has a sixth, the customer's insert; the fewest of three is a known guest's).
    expect(Math.min(...counts)).toBe(5);
  });

  it('creates a PENDING booking priced for its duration, with a payment link', async () => {
    const v = await buildVenue(h, { pricePerHour: 2000 });
    const res = await post(v, {
      objectId: v.object.id,
      ...guest,
      guestPhone: '+49 30 1234567',
      startTime: '2026-11-21T10:00:00+01:00',
      endTime: '2026-11-21T11:30:00+01:00',
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const { booking } = res.body;
    expect(booking).toMatchObject({
      status: 'PENDING',
      totalPrice: 3000,
      currency: 'EUR',
      createdAt: NOW,
      guestPhone: '+49 30 1234567',
    });
    expect(booking.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(booking.paymentUrl).toMatch(/^http:\/\/portier\.test\/pay\/[A-Za-z0-9_-]+$/);
    expect(booking.startTime).toBe('2026-11-21T09:00:00.000Z');
    expect(booking.endTime).toBe('2026-11-21T10:30:00.000Z');

    const got = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
    });
    expect(got.body.booking).toMatchObject({
      id: booking.id,
      status: 'PENDING',
      totalPrice: 3000,
      paymentUrl: booking.paymentUrl,
      guestName: 'Ada Lovelace',
    });
  });

  it('writes booking.created to the outbox in the same statement: the event carries the row as stored; an overlap writes nothing', async () => {
    const v = await buildVenue(h);
    const res = await post(v, {
      objectId: v.object.id,
      ...guest,
      guestPhone: '+4915112345678',
      metadata: { zeta: 'last', a: 'first', order: '7' },
      ...SAT_10,
    });
    expect(res.status).toBe(201);
    const db = h.deps.database.db;
    const events = await db.selectFrom('events').select(['type', 'data']).where('tenant_id', '=', v.tenantId).execute();
    expect(events.map((e) => e.type)).toEqual(['booking.created']);
    // Built before the insert from the values written; equal to what the stored row gives.
    const row = await db
      .selectFrom('bookings')
      .selectAll()
      .where('id', '=', res.body.booking.id)
      .executeTakeFirstOrThrow();
    expect(events[0].data).toEqual({ ...bookingEventData(row, v.object.name), sequence: 1 });
    expect(row).toMatchObject({ event_sequence: 1, currency: 'EUR', refund_amount: null });
    const credentials = await db
      .selectFrom('booking_credentials')
      .selectAll()
      .where('booking_id', '=', row.id)
      .execute();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ tenant_id: v.tenantId, object_id: v.object.id, sms_nonce: 0 });
    expect(credentials[0].key_id).toEqual(expect.any(String));

    const overlap = await post(v, { objectId: v.object.id, ...guest, ...SAT_10 });
    expect(overlap.status).toBe(409);
    expect(await db.selectFrom('events').select('id').where('tenant_id', '=', v.tenantId).execute()).toHaveLength(1);
    expect(
      await db.selectFrom('booking_credentials').select('booking_id').where('tenant_id', '=', v.tenantId).execute(),
    ).toHaveLength(1);
  });

  it('works through GraphQL with the same rules', async () => {
    const v = await buildVenue(h);
    const mutation = `mutation($o: ID!, $s: DateTime!, $e: DateTime!) {
      createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { id status totalPrice paymentUrl } } }`;
    const ok = await h.graphql(v.apiKey, mutation, { o: v.object.id, s: SAT_10.startTime, e: SAT_10.endTime });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.createBooking.booking).toMatchObject({ status: 'PENDING', totalPrice: 2000 });
    const refused = await h.graphql(v.apiKey, mutation, {
      o: v.object.id,
      s: '2026-11-21T10:30:00+01:00',
      e: '2026-11-21T11:30:00+01:00',
    });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'start_not_aligned' });
    expect(refused.body.errors[0].extensions.fields[0]).toMatchObject({
      field: 'startTime',
      code: 'start_not_aligned',
    });
  });
});

describe('POST /bookings with a status (the desk confirming at once, issue #41)', () => {
  // In the order they were written: each carries its booking's sequence (one clock tick, so not created_at).
  type EventData = { booking: { id: string }; sequence: number };
  const eventsOf = async (v: Venue) =>
    (
      await h.deps.database.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('tenant_id', '=', v.tenantId)
        .execute()
    ).sort(
      (a, b) =>
        (a.data as EventData).booking.id.localeCompare((b.data as EventData).booking.id) ||
        (a.data as EventData).sequence - (b.data as EventData).sequence,
    );

  it('creates it CONFIRMED over REST: booking.created, then booking.confirmed as a confirm writes it', async () => {
    const v = await buildVenue(h, { pricePerHour: 2000 });
    const res = await post(v, { objectId: v.object.id, ...guest, ...SAT_10, status: 'CONFIRMED' });
    expect(res.status).toBe(201);
    expect(res.body.booking).toMatchObject({ status: 'CONFIRMED', totalPrice: 2000 });
    const got = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${res.body.booking.id}`,
      apiKey: v.apiKey,
    });
    expect(got.body.booking.status).toBe('CONFIRMED');
    const events = await eventsOf(v);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
    expect(events[0].data).toMatchObject({ booking: { id: res.body.booking.id, status: 'PENDING' }, sequence: 1 });
    expect(events[1].data).toMatchObject({ booking: { id: res.body.booking.id, status: 'CONFIRMED' }, sequence: 2 });

    // PENDING, said or left out, is the booking as before: one event.
    const pending = await post(v, {
      objectId: v.object.id,
      ...guest,
      startTime: '2026-11-21T12:00:00+01:00',
      endTime: '2026-11-21T13:00:00+01:00',
      status: 'PENDING',
    });
    expect(pending.status).toBe(201);
    expect(pending.body.booking.status).toBe('PENDING');
    const after = await eventsOf(v);
    expect(
      after.filter((e) => (e.data as EventData).booking.id === pending.body.booking.id).map((e) => e.type),
    ).toEqual(['booking.created']);
    expect(after).toHaveLength(3);
  });

  it('takes the status through GraphQL too', async () => {
    const v = await buildVenue(h);
    const res = await h.graphql(
      v.apiKey,
      `mutation($o: ID!, $s: DateTime!, $e: DateTime!) {
        createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e, status: CONFIRMED) { booking { id status notifications { id } } } }`,
      { o: v.object.id, s: SAT_10.startTime, e: SAT_10.endTime },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createBooking.booking.status).toBe('CONFIRMED');
    expect((await eventsOf(v)).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
  });

  it('refuses CANCELLED or COMPLETED with a 400 naming status, and writes nothing; an overlap stays a 409', async () => {
    const v = await buildVenue(h);
    for (const status of ['CANCELLED', 'COMPLETED']) {
      const res = await post(v, { objectId: v.object.id, ...guest, ...SAT_10, status });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field: 'status', message: 'must be PENDING or CONFIRMED' });
    }
    expect(await countBookings(v)).toBe(0);
    expect(await eventsOf(v)).toEqual([]);
    expect((await post(v, { objectId: v.object.id, ...guest, ...SAT_10, status: 'CONFIRMED' })).status).toBe(201);
    const overlap = await post(v, { objectId: v.object.id, ...guest, ...SAT_10, status: 'CONFIRMED' });
    expect(overlap.status).toBe(409);
    expect(await countBookings(v)).toBe(1);
    expect((await eventsOf(v)).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
  });
});

describe('POST /bookings refuses, naming the rule and the field', () => {
  // [name, venue options, body overrides, status, code, field]
  const cases: [string, VenueOptions, Record<string, unknown>, number, string, string][] = [
    ['a missing objectId', {}, { objectId: undefined }, 400, 'validation_failed', 'objectId'],
    ['a malformed objectId', {}, { objectId: 'court-1' }, 400, 'validation_failed', 'objectId'],
    ['an unknown object', {}, { objectId: '00000000-0000-4000-8000-000000000000' }, 404, 'unknown_object', 'objectId'],
    ['an empty guestName', {}, { guestName: '  ' }, 400, 'validation_failed', 'guestName'],
    ['a missing guestEmail', {}, { guestEmail: undefined }, 400, 'validation_failed', 'guestEmail'],
    ['an invalid guestEmail', {}, { guestEmail: 'ada.example.com' }, 400, 'validation_failed', 'guestEmail'],
    ['an invalid guestPhone', {}, { guestPhone: 'call me' }, 400, 'validation_failed', 'guestPhone'],
    ['a startTime that is no timestamp', {}, { startTime: 'tomorrow' }, 400, 'validation_failed', 'startTime'],
    ['a startTime without an offset', {}, { startTime: '2026-11-21T10:00:00' }, 400, 'validation_failed', 'startTime'],
    ['an endTime that is no timestamp', {}, { endTime: '2026-13-01T00:00:00Z' }, 400, 'validation_failed', 'endTime'],
    ['an end equal to the start', {}, { endTime: SAT_10.startTime }, 400, 'invalid_time_range', 'endTime'],
    ['an end before the start', {}, { endTime: '2026-11-21T09:00:00+01:00' }, 400, 'invalid_time_range', 'endTime'],
    [
      'a duration below minDurationMinutes',
      {},
      { endTime: '2026-11-21T10:30:00+01:00' },
      400,
      'duration_out_of_range',
      'endTime',
    ],
    [
      'a duration above maxDurationMinutes',
      { bookingRules: { maxDurationMinutes: 120 } },
      { endTime: '2026-11-21T13:00:00+01:00' },
      400,
      'duration_out_of_range',
      'endTime',
    ],
    [
      'a start off the slot grid',
      {},
      { startTime: '2026-11-21T10:30:00+01:00', endTime: '2026-11-21T11:30:00+01:00' },
      400,
      'start_not_aligned',
      'startTime',
    ],
    [
      'a start off a 30-minute grid from 08:15',
      { openingHours: { saturday: { open: '08:15', close: '22:00' } }, bookingRules: { slotIncrementMinutes: 30 } },
      { startTime: '2026-11-21T10:00:00+01:00', endTime: '2026-11-21T11:00:00+01:00' },
      400,
      'start_not_aligned',
      'startTime',
    ],
    [
      'a start before opening',
      {},
      { startTime: '2026-11-21T07:00:00+01:00', endTime: '2026-11-21T08:00:00+01:00' },
      400,
      'outside_opening_hours',
      'startTime',
    ],
    [
      'an end after closing',
      {},
      { startTime: '2026-11-21T21:00:00+01:00', endTime: '2026-11-21T23:00:00+01:00' },
      400,
      'outside_opening_hours',
      'endTime',
    ],
    [
      'a weekday without opening hours',
      { openingHours: { monday: { open: '08:00', close: '22:00' } } },
      {},
      400,
      'outside_opening_hours',
      'startTime',
    ],
    [
      'a start inside minAdvanceMinutes',
      { bookingRules: { minAdvanceMinutes: 120 } },
      { startTime: '2026-11-20T11:00:00+01:00', endTime: '2026-11-20T12:00:00+01:00' },
      400,
      'too_short_notice',
      'startTime',
    ],
    [
      'a start in the past',
      {},
      { startTime: '2026-11-20T09:00:00+01:00', endTime: '2026-11-20T10:00:00+01:00' },
      400,
      'too_short_notice',
      'startTime',
    ],
    [
      'a start beyond maxAdvanceDays',
      { bookingRules: { maxAdvanceDays: 30 } },
      { startTime: '2026-12-21T10:00:00+01:00', endTime: '2026-12-21T11:00:00+01:00' },
      400,
      'too_far_ahead',
      'startTime',
    ],
  ];

  it.each(cases)('%s', async (_name, venue, overrides, status, code, field) => {
    const v = await buildVenue(h, venue);
    const res = await post(v, { objectId: v.object.id, ...guest, ...SAT_10, ...overrides });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: expect.stringContaining('/problems/') });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.body.detail).toContain(field);
    expect(await countBookings(v)).toBe(0);
  });

  it('an empty body: every missing required field is named, in plain words', async () => {
    const v = await buildVenue(h);
    const res = await post(v, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      ['objectId', 'guestName', 'guestEmail', 'startTime', 'endTime'].map((field) => ({
        field,
        message: 'is required',
      })),
    );
    expect(res.body.detail).toBe(
      'objectId: is required; guestName: is required; guestEmail: is required; startTime: is required; endTime: is required',
    );
  });

  it("refuses an object of another tenant as unknown (404, like any other tenant's resource)", async () => {
    const v = await buildVenue(h);
    const other = await buildVenue(h);
    const res = await post(v, { objectId: other.object.id, ...guest, ...SAT_10 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'unknown_object', errors: [{ field: 'objectId' }] });
    expect(await countBookings(other)).toBe(0);
  });

  it('refuses a closed special date, and follows the hours of an open one', async () => {
    const v = await buildVenue(h);
    const db = h.deps.database.db;
    await setSpecialDate(
      db,
      v.tenantId,
      v.object.id,
      parseSpecialDate({ date: '2026-11-21', closed: true, reason: 'Tournament' }),
    );
    await setSpecialDate(
      db,
      v.tenantId,
      v.object.id,
      parseSpecialDate({ date: '2026-11-22', closed: false, reason: 'Short day', open: '12:00', close: '15:00' }),
    );
    const closed = await post(v, { objectId: v.object.id, ...guest, ...SAT_10 });
    expect(closed.status).toBe(400);
    expect(closed.body).toMatchObject({
      code: 'closed_date',
      errors: [{ field: 'startTime', code: 'closed_date', message: 'the object is closed on 2026-11-21 (Tournament)' }],
    });
    const early = await post(v, {
      objectId: v.object.id,
      ...guest,
      startTime: '2026-11-22T10:00:00+01:00',
      endTime: '2026-11-22T11:00:00+01:00',
    });
    expect(early.body.code).toBe('outside_opening_hours');
    const inside = await post(v, {
      objectId: v.object.id,
      ...guest,
      startTime: '2026-11-22T12:00:00+01:00',
      endTime: '2026-11-22T15:00:00+01:00',
    });
    expect(inside.status).toBe(201);
  });

  it('lists every broken rule, the first one giving the code', async () => {
    const v = await buildVenue(h);
    const res = await post(v, {
      objectId: v.object.id,
      ...guest,
      startTime: '2026-11-20T07:30:00+01:00',
      endTime: '2026-11-20T08:00:00+01:00',
    });
    expect(res.body.code).toBe('duration_out_of_range');
    expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual([
      'duration_out_of_range',
      'outside_opening_hours',
      'too_short_notice',
    ]);
  });

  it('collects all malformed fields at once', async () => {
    const v = await buildVenue(h);
    const res = await post(v, { objectId: v.object.id, guestName: '', guestEmail: 'nope', ...SAT_10 });
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['guestEmail', 'guestName']);
  });

  it('reads hours in the accommodation’s zone, on both daylight-saving change days', async () => {
    const v = await buildVenue(h, { timeZone: 'Europe/Berlin' });
    h.clock.set('2026-03-01T00:00:00Z');
    // 2026-03-29: 08:00 CEST is 06:00Z; 07:00Z would be 08:00 only in CET.
    expect(
      (
        await post(v, {
          objectId: v.object.id,
          ...guest,
          startTime: '2026-03-29T06:00:00Z',
          endTime: '2026-03-29T07:00:00Z',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await post(v, {
          objectId: v.object.id,
          ...guest,
          startTime: '2026-03-29T05:00:00Z',
          endTime: '2026-03-29T06:00:00Z',
        })
      ).body.code,
    ).toBe('outside_opening_hours');
    // 2026-10-25: 08:00 CET is 07:00Z; 21:00–22:00 CET is 20:00–21:00Z.
    expect(
      (
        await post(v, {
          objectId: v.object.id,
          ...guest,
          startTime: '2026-10-25T07:00:00Z',
          endTime: '2026-10-25T08:00:00Z',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await post(v, {
          objectId: v.object.id,
          ...guest,
          startTime: '2026-10-25T20:00:00Z',
          endTime: '2026-10-25T21:00:00Z',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await post(v, {
          objectId: v.object.id,
          ...guest,
          startTime: '2026-10-25T06:00:00Z',
          endTime: '2026-10-25T07:00:00Z',
        })
      ).body.code,
    ).toBe('outside_opening_hours');
  });

  it('needs bookings:write and the key’s own tenant', async () => {
    const v = await buildVenue(h);
    const reader = await h.key(v.tenantId, ['bookings:read']);
    const body = { objectId: v.object.id, ...guest, ...SAT_10 };
    const forbidden = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: reader,
      body,
    });
    expect(forbidden.status).toBe(403);
    const other = await buildVenue(h);
    const mismatch = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${other.tenantId}/bookings`,
      apiKey: v.apiKey,
      body,
    });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.code).toBe('tenant_mismatch');
    const anonymous = await h.request({ method: 'POST', url: `/api/v1/tenants/${v.tenantId}/bookings`, body });
    expect(anonymous.status).toBe(401);
    expect(await countBookings(v)).toBe(0);
  });
});
