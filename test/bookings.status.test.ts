import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

const STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
type Status = (typeof STATUSES)[number];
const ALLOWED = new Set(['PENDING→CONFIRMED', 'PENDING→CANCELLED', 'CONFIRMED→CANCELLED', 'CONFIRMED→COMPLETED']);
const EVENT: Record<Status, string | undefined> = {
  PENDING: undefined,
  CONFIRMED: 'booking.confirmed',
  CANCELLED: 'booking.cancelled',
  COMPLETED: 'booking.completed',
};

async function bookingIn(status: Status) {
  const v = await buildVenue(h, { pricePerHour: 2400 });
  const booking = await buildBooking(h, v.tenantId, v.object.id, {
    start: '2026-11-21T09:00:00Z',
    end: '2026-11-21T10:00:00Z',
    status,
  });
  return { v, booking, url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}` };
}

const eventsOf = async (tenantId: string) =>
  (await h.deps.database.db.selectFrom('events').select('type').where('tenant_id', '=', tenantId).execute()).map(
    (e) => e.type,
  );

describe('PATCH /bookings/{bookingId}', () => {
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s', async (from, to) => {
    const { v, url } = await bookingIn(from);
    const res = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: to } });
    const after = await h.request({ method: 'GET', url, apiKey: v.apiKey });
    if (ALLOWED.has(`${from}→${to}`)) {
      expect(res.status).toBe(200);
      expect(res.body.booking).toMatchObject({ status: to, totalPrice: 2400, objectName: 'Court 1' });
      expect(after.body.booking.status).toBe(to);
      expect(await eventsOf(v.tenantId)).toEqual([EVENT[to]]);
      if (to === 'CANCELLED') expect(res.body.refundAmount).toBe(2400);
      else expect(res.body.refundAmount).toBeNull();
    } else {
      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'invalid_transition', detail: `A ${from} booking cannot become ${to}` });
      expect(after.body.booking.status).toBe(from);
      expect(await eventsOf(v.tenantId)).toEqual([]);
    }
  });

  it('refuses an unknown status with a 400 naming the field, and a missing one', async () => {
    const { v, url } = await bookingIn('PENDING');
    const unknown = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'PAID' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'status' })]);
    const missing = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'status' })]);
  });

  it('is 404 for an unknown booking or another tenant’s', async () => {
    const { v } = await bookingIn('PENDING');
    const other = await bookingIn('PENDING');
    for (const id of ['00000000-0000-4000-8000-000000000000', other.booking.id]) {
      const res = await h.request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${id}`,
        apiKey: v.apiKey,
        body: { status: 'CONFIRMED' },
      });
      expect(res.status).toBe(404);
    }
    const after = await h.request({ method: 'GET', url: other.url, apiKey: other.v.apiKey });
    expect(after.body.booking.status).toBe('PENDING');
  });

  it('works through GraphQL', async () => {
    const { v, booking } = await bookingIn('PENDING');
    const mutation = `mutation($id: ID!, $s: BookingStatus!) { updateBookingStatus(bookingId: $id, status: $s) { booking { id status } refundAmount } }`;
    const ok = await h.graphql(v.apiKey, mutation, { id: booking.id, s: 'CONFIRMED' });
    expect(ok.body.data.updateBookingStatus).toEqual({
      booking: { id: booking.id, status: 'CONFIRMED' },
      refundAmount: null,
    });
    const refused = await h.graphql(v.apiKey, mutation, { id: booking.id, s: 'PENDING' });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'invalid_transition' });
  });
});
