import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildVenue, type VenueOptions } from './builders.js';

// Double booking is impossible by construction (the exclusion constraint). On PostgreSQL the 50
// requests really run concurrently over the pool; on PGlite they serialise. The outcome is the same.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;

// Local Berlin times on Saturday 2026-11-21 (UTC+1).
const at = (hhmm: string) => `2026-11-21T${hhmm}:00+01:00`;

function book(v: Venue, start: string, end: string, objectId = v.object.id) {
  return h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: { objectId, guestName: 'Ada', guestEmail: 'ada@example.com', startTime: at(start), endTime: at(end) },
  });
}

async function liveRows(v: Venue) {
  return h.deps.database.db
    .selectFrom('bookings')
    .select(['id', 'start_time'])
    .where('tenant_id', '=', v.tenantId)
    .where('status', 'in', ['PENDING', 'CONFIRMED'])
    .execute();
}

describe('no double booking', () => {
  it('50 concurrent requests for one slot give one 201 and 49 × 409, and one row', async () => {
    const v = await buildVenue(h);
    const results = await Promise.all(Array.from({ length: 50 }, () => book(v, '10:00', '11:00')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toMatchObject({ status: 409, code: 'slot_unavailable' });
    }
    expect(await liveRows(v)).toHaveLength(1);
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('id')
      .where('tenant_id', '=', v.tenantId)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('concurrent adjacent ranges all succeed; concurrent overlapping pairs keep one each', async () => {
    const v = await buildVenue(h);
    const hh = (n: number) => `${String(n).padStart(2, '0')}:00`;
    const adjacent = await Promise.all(Array.from({ length: 14 }, (_, i) => book(v, hh(8 + i), hh(9 + i))));
    expect(adjacent.map((r) => r.status)).toEqual(Array(14).fill(201));
    const w = await buildVenue(h, { objects: 1 });
    // 10–12 and 11–13 overlap without being equal: exactly one of them wins.
    const pair = await Promise.all([book(w, '10:00', '12:00'), book(w, '11:00', '13:00')]);
    expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await liveRows(w)).toHaveLength(1);
  });

  it.each([
    // existing 10:00–12:00; [new range, status]
    ['the same range', '10:00', '12:00', 409],
    ['a range inside', '10:00', '11:00', 409],
    ['a range overlapping the end', '11:00', '13:00', 409],
    ['a range overlapping the start', '09:00', '11:00', 409],
    ['a range around it', '09:00', '13:00', 409],
    ['the adjacent range after', '12:00', '13:00', 201],
    ['the adjacent range before', '08:00', '10:00', 201],
  ] as const)('against 10:00–12:00, %s (%s–%s) gives %i', async (_name, start, end, status) => {
    const v = await buildVenue(h);
    expect((await book(v, '10:00', '12:00')).status).toBe(201);
    const res = await book(v, start, end);
    expect(res.status).toBe(status);
    if (status === 409) expect(res.body.code).toBe('slot_unavailable');
  });

  it.each([
    // bufferMinutes, existing, new, status
    [30, ['10:00', '11:00'], ['11:00', '12:00'], 409],
    [30, ['10:00', '11:00'], ['09:00', '10:00'], 409],
    [30, ['10:00', '11:00'], ['12:00', '13:00'], 201],
    [0, ['10:00', '11:00'], ['11:00', '12:00'], 201],
  ] as const)('with a %i-minute buffer, %j then %j gives %i', async (bufferMinutes, first, second, status) => {
    const v = await buildVenue(h, { bookingRules: { bufferMinutes } } satisfies VenueOptions);
    expect((await book(v, first[0], first[1])).status).toBe(201);
    expect((await book(v, second[0], second[1])).status).toBe(status);
  });

  it('a cancelled booking frees its slot; a confirmed one keeps it', async () => {
    const v = await buildVenue(h);
    const first = await book(v, '10:00', '11:00');
    const url = `/api/v1/tenants/${v.tenantId}/bookings/${first.body.booking.id}`;
    await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    expect((await book(v, '10:00', '11:00')).status).toBe(409);
    await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect((await book(v, '10:00', '11:00')).status).toBe(201);
    expect(await liveRows(v)).toHaveLength(1);
  });

  it('other objects and other tenants are independent', async () => {
    const v = await buildVenue(h, { objects: 2 });
    const w = await buildVenue(h);
    const results = await Promise.all([
      book(v, '10:00', '11:00'),
      book(v, '10:00', '11:00', v.objects[1].id),
      book(w, '10:00', '11:00'),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
  });
});
