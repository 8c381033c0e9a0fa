import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, bookViaRest, buildDoor, buildVenue, setBookingStatus } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

// Monday 23 November 2026, Europe/Berlin (UTC+1), open 08–22; booked 11:00–12:00 local, moved to 15:00–17:00.
const CREATED_AT = '2026-11-23T07:00:00Z';
const START = '2026-11-23T10:00:00.000Z';
const END = '2026-11-23T11:00:00.000Z';
const NEW_START = '2026-11-23T14:00:00.000Z';
const NEW_END = '2026-11-23T16:00:00.000Z';

async function setup(status: 'CONFIRMED' | 'PENDING' = 'CONFIRMED') {
  const venue = await buildVenue(h, { objects: 2, pricePerHour: 2000 });
  const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id]);
  const dev = await buildActiveDevice(h, venue.tenantId, [door.id]);
  h.clock.set(CREATED_AT);
  const bookingId = await bookViaRest(h, {
    tenantId: venue.tenantId,
    apiKey: venue.apiKey,
    objectId: venue.objects[0].id,
    startTime: START,
    endTime: END,
    status: status === 'PENDING' ? undefined : status,
  });
  const url = `/api/v1/tenants/${venue.tenantId}/bookings/${bookingId}`;
  return { ...venue, door, ...dev, bookingId, url };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const patch = (s: Setup, body: unknown) => h.request({ method: 'PATCH', url: s.url, apiKey: s.apiKey, body });
const eventsOf = (tenantId: string) =>
  h.deps.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
const check = (s: Setup, token: string) =>
  h.request({
    method: 'POST',
    url: `/api/devices/${s.deviceId}/access-check`,
    apiKey: s.deviceKey,
    body: { token, doorId: s.door.id },
  });

describe('reschedule: PATCH /bookings/{bookingId} with startTime and endTime', () => {
  it('moves the booking, recomputes the price, answers {booking, previous} and emits one booking.rescheduled', async () => {
    const s = await setup();
    const res = await patch(s, { startTime: NEW_START, endTime: NEW_END });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({
      id: s.bookingId,
      status: 'CONFIRMED',
      startTime: NEW_START,
      endTime: NEW_END,
      totalPrice: 4000,
      objectId: s.objects[0].id,
    });
    expect(res.body.previous).toEqual({ objectId: s.objects[0].id, startTime: START, endTime: END, totalPrice: 2000 });
    const got = await h.request({ method: 'GET', url: s.url, apiKey: s.apiKey });
    expect(got.body.booking).toMatchObject({ startTime: NEW_START, endTime: NEW_END, totalPrice: 4000 });

    const events = await eventsOf(s.tenantId);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.rescheduled']);
    const data = events[2].data as { booking: Record<string, unknown>; previous: unknown };
    expect(data.booking).toMatchObject({
      id: s.bookingId,
      startTime: NEW_START,
      endTime: NEW_END,
      totalPrice: 4000,
      status: 'CONFIRMED',
    });
    expect(data.previous).toEqual({ objectId: s.objects[0].id, startTime: START, endTime: END, totalPrice: 2000 });
    // Still one booking: never a cancel plus a create.
    expect(
      await h.deps.database.db.selectFrom('bookings').select('id').where('tenant_id', '=', s.tenantId).execute(),
    ).toHaveLength(1);
  });

  it('moves to another object of the tenant; another tenant’s object is 404', async () => {
    const s = await setup('PENDING');
    const res = await patch(s, { startTime: NEW_START, endTime: NEW_END, objectId: s.objects[1].id });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ objectId: s.objects[1].id, objectName: 'Court 2', status: 'PENDING' });
    const other = await buildVenue(h);
    h.clock.set(CREATED_AT);
    const foreign = await patch(s, { startTime: NEW_START, endTime: NEW_END, objectId: other.object.id });
    expect(foreign).toMatchObject({ status: 404, body: { code: 'unknown_object', errors: [{ field: 'objectId' }] } });
  });

  it('refuses an overlap with 409 slot_unavailable and changes nothing', async () => {
    const s = await setup();
    await bookViaRest(h, {
      tenantId: s.tenantId,
      apiKey: s.apiKey,
      objectId: s.objects[0].id,
      startTime: NEW_START,
      endTime: NEW_END,
    });
    const res = await patch(s, { startTime: '2026-11-23T15:00:00Z', endTime: '2026-11-23T16:00:00Z' });
    expect(res).toMatchObject({ status: 409, body: { code: 'slot_unavailable' } });
    const got = await h.request({ method: 'GET', url: s.url, apiKey: s.apiKey });
    expect(got.body.booking).toMatchObject({ startTime: START, endTime: END, totalPrice: 2000 });
    expect((await eventsOf(s.tenantId)).map((e) => e.type)).not.toContain('booking.rescheduled');
  });

  it('refuses a booking-rule violation with 400 and the rule’s code', async () => {
    const s = await setup();
    const closed = await patch(s, { startTime: '2026-11-23T21:00:00Z', endTime: '2026-11-23T22:00:00Z' });
    expect(closed).toMatchObject({ status: 400, body: { code: 'outside_opening_hours' } });
    const past = await patch(s, { startTime: '2026-11-23T06:00:00Z', endTime: '2026-11-23T07:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.errors.map((e: { code: string }) => e.code)).toContain('too_short_notice');
    const reversed = await patch(s, { startTime: NEW_END, endTime: NEW_START });
    expect(reversed).toMatchObject({
      status: 400,
      body: { code: 'invalid_time_range', errors: [{ field: 'endTime' }] },
    });
    const garbage = await patch(s, { startTime: 'tomorrow', endTime: NEW_END });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors).toEqual([expect.objectContaining({ field: 'startTime' })]);
  });

  it('needs both times, and not a status with them; a CANCELLED booking cannot be moved', async () => {
    const s = await setup();
    const half = await patch(s, { startTime: NEW_START });
    expect(half.status).toBe(400);
    expect(half.body.errors).toEqual([expect.objectContaining({ field: 'endTime' })]);
    const both = await patch(s, { status: 'CANCELLED', startTime: NEW_START, endTime: NEW_END });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([expect.objectContaining({ field: 'status' })]);
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    const cancelled = await patch(s, { startTime: NEW_START, endTime: NEW_END });
    expect(cancelled).toMatchObject({ status: 409, body: { code: 'invalid_transition' } });
  });

  it('makes the booking’s current QR token open the door in the new window and not in the old one', async () => {
    const s = await setup();
    expect((await patch(s, { startTime: NEW_START, endTime: NEW_END })).status).toBe(200);
    const credentials = await h.request({ method: 'GET', url: `${s.url}/credentials`, apiKey: s.apiKey });
    expect(credentials.body).toMatchObject({ validFrom: NEW_START, validUntil: NEW_END });
    const token = credentials.body.qrCode.token as string;
    h.clock.set('2026-11-23T10:30:00Z'); // the old window
    expect((await check(s, token)).body).toMatchObject({ allowed: false });
    h.clock.set('2026-11-23T14:30:00Z'); // the new window
    expect((await check(s, token)).body).toMatchObject({ allowed: true });
    // The SMS code stays the same and follows the new window too.
    expect((await check(s, credentials.body.sms.code as string)).body).toMatchObject({ allowed: true });
    expect((await eventsOf(s.tenantId)).map((e) => e.type)).not.toContain('booking.cancelled');
  });

  it('GraphQL rescheduleBooking does the same', async () => {
    const s = await setup();
    const res = await h.graphql(
      s.apiKey,
      `mutation($id: ID!, $s: DateTime!, $e: DateTime!) { rescheduleBooking(bookingId: $id, startTime: $s, endTime: $e) { booking { id startTime totalPrice } previous { objectId startTime endTime totalPrice } } }`,
      { id: s.bookingId, s: NEW_START, e: NEW_END },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.rescheduleBooking).toEqual({
      booking: { id: s.bookingId, startTime: NEW_START, totalPrice: 4000 },
      previous: { objectId: s.objects[0].id, startTime: START, endTime: END, totalPrice: 2000 },
    });
    const overlap = await h.graphql(
      s.apiKey,
      `mutation($id: ID!) { rescheduleBooking(bookingId: $id, startTime: "2026-11-23T21:00:00Z", endTime: "2026-11-23T22:00:00Z") { booking { id } } }`,
      {
        id: s.bookingId,
      },
    );
    expect(overlap.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'outside_opening_hours',
    });
  });
});
