import {
  parseCreateAccommodation,
  parseCreateObject,
  parseSpecialDate,
} from '../src/modules/catalog/catalog.commands.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue, type VenueOptions } from './builders.js';
import { createAccommodation, createObject, setSpecialDate } from '../src/modules/catalog/catalog.service.js';
import { availabilityBetween, availabilityOn } from '../src/modules/availability/index.js';
import { daysFrom } from '../src/modules/availability/dates.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-01T00:00:00Z'));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;
type Slot = { start: string; end: string; available: boolean };

const HOURS_8_TO_22 = Array.from(
  { length: 14 },
  (_, i) => `${String(8 + i).padStart(2, '0')}:00-${String(9 + i).padStart(2, '0')}:00`,
);
const EVERY_NIGHT_0_TO_4 = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '00:00', close: '04:00' },
  ]),
);
const labels = (slots: Slot[]) => slots.map((s) => `${s.start}-${s.end}`);
const unavailable = (slots: Slot[]) => slots.filter((s) => !s.available).map((s) => s.start);

function availability(v: Venue, query: string, apiKey = v.apiKey) {
  return h.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}/objects/availability?${query}`, apiKey });
}

async function slotsOf(v: Venue, date: string): Promise<Slot[]> {
  const res = await availability(v, `date=${date}&objectId=${v.object.id}`);
  expect(res.status).toBe(200);
  return res.body.objects[0].slots;
}

function book(v: Venue, startTime: string, endTime: string) {
  return h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: { objectId: v.object.id, guestName: 'Ada', guestEmail: 'ada@example.com', startTime, endTime },
  });
}

describe('GET /objects/availability', () => {
  it('returns {date, objects: [{objectId, objectName, timeZone, slots}]} for every object of the tenant', async () => {
    const v = await buildVenue(h, { objects: 2 });
    const res = await availability(v, 'date=2026-11-21');
    expect(res.status).toBe(200);
    // The contract's keys, and callerTimeZone (issue #44: null without the argument timeZone).
    expect(Object.keys(res.body).sort()).toEqual(['callerTimeZone', 'date', 'objects']);
    expect(res.body.callerTimeZone).toBeNull();
    expect(res.body.date).toBe('2026-11-21');
    expect(res.body.objects.map((o: { objectId: string; objectName: string }) => [o.objectId, o.objectName])).toEqual([
      [v.objects[0].id, 'Court 1'],
      [v.objects[1].id, 'Court 2'],
    ]);
    for (const o of res.body.objects) {
      expect(Object.keys(o).sort()).toEqual(['objectId', 'objectName', 'slots', 'timeZone']);
      expect(o.timeZone).toBe('Europe/Berlin');
      expect(labels(o.slots)).toEqual(HOURS_8_TO_22);
      expect(o.slots[0]).toEqual({
        start: '08:00',
        end: '09:00',
        available: true,
        startTime: '2026-11-21T07:00:00.000Z',
        endTime: '2026-11-21T08:00:00.000Z',
        localStart: null,
        localEnd: null,
      });
    }
  });

  it('restricts to one object or one accommodation', async () => {
    const v = await buildVenue(h, { objects: 2 });
    const db = h.deps.database.db;
    const second = await createAccommodation(
      db,
      v.tenantId,
      parseCreateAccommodation({ name: 'Halle Süd', address: 'Südweg 2', timeZone: 'Europe/Lisbon' }),
    );
    const hall = await createObject(
      db,
      v.tenantId,
      parseCreateObject({
        accommodationId: second.id,
        name: 'Hall A',
        pricePerHour: 1000,
        openingHours: { saturday: { open: '10:00', close: '12:00' } },
      }),
    );
    const one = await availability(v, `date=2026-11-21&objectId=${v.objects[1].id}`);
    expect(one.body.objects.map((o: { objectId: string }) => o.objectId)).toEqual([v.objects[1].id]);
    const byAccommodation = await availability(v, `date=2026-11-21&accommodationId=${second.id}`);
    expect(byAccommodation.body.objects).toEqual([
      {
        objectId: hall.id,
        objectName: 'Hall A',
        timeZone: 'Europe/Lisbon',
        slots: [
          ['10:00', '11:00', '2026-11-21T10:00:00.000Z', '2026-11-21T11:00:00.000Z'],
          ['11:00', '12:00', '2026-11-21T11:00:00.000Z', '2026-11-21T12:00:00.000Z'],
        ].map(([start, end, startTime, endTime]) => ({
          start,
          end,
          available: true,
          startTime, // Lisbon in November: UTC+0
          endTime,
          localStart: null,
          localEnd: null,
        })),
      },
    ]);
    const mismatch = await availability(v, `date=2026-11-21&objectId=${v.object.id}&accommodationId=${second.id}`);
    expect(mismatch.body.objects).toEqual([]);
    const all = (await availability(v, 'date=2026-11-21')).body.objects;
    expect(all.map((o: { timeZone: string }) => o.timeZone)).toEqual([
      'Europe/Berlin',
      'Europe/Berlin',
      'Europe/Lisbon',
    ]);
  });

  it('refuses a bad or missing date, and malformed ids, naming the field; unknown or foreign ids are 404', async () => {
    const v = await buildVenue(h);
    const other = await buildVenue(h);
    for (const [query, field] of [
      ['date=2026-02-30', 'date'],
      ['date=21.11.2026', 'date'],
      ['', 'date'],
      ['date=2026-11-21&objectId=court', 'objectId'],
      ['date=2026-11-21&accommodationId=park', 'accommodationId'],
    ]) {
      const res = await availability(v, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors, query).toEqual([expect.objectContaining({ field })]);
    }
    expect((await availability(v, `date=2026-11-21&objectId=${other.object.id}`)).status).toBe(404);
    expect((await availability(v, `date=2026-11-21&accommodationId=${other.accommodation.id}`)).status).toBe(404);
    expect((await availability(v, 'date=2026-11-21&objectId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('runs a fixed number of SQL statements whatever the number of objects and bookings', async () => {
    const statements = async (objects: number) => {
      const v = await buildVenue(h, { objects });
      for (const [i, object] of v.objects.entries()) {
        await buildBooking(h, v.tenantId, object.id, {
          start: `2026-11-21T${String(9 + (i % 8)).padStart(2, '0')}:00:00Z`,
          end: `2026-11-21T${String(10 + (i % 8)).padStart(2, '0')}:00:00Z`,
        });
      }
      // The service alone: the HTTP path adds the key lookup and, once a minute, its last-use write.
      const before = h.deps.database.queries.count;
      const res = await availabilityOn(
        h.deps.database.db,
        v.tenantId,
        h.deps.now(),
        { date: '2026-11-21', accommodationId: v.object.accommodation_id },
        h.deps.slotSchedules.get,
      );
      const count = h.deps.database.queries.count - before;
      expect(res.objects).toHaveLength(objects);
      expect(res.objects.every((o) => o.slots.some((s) => !s.available))).toBe(true);
      return count;
    };
    const few = await statements(1);
    expect(await statements(12)).toBe(few);
    expect(few).toBe(1);
  });

  it('needs bookings:read or catalog:read', async () => {
    const v = await buildVenue(h);
    expect((await availability(v, 'date=2026-11-21', await h.key(v.tenantId, ['bookings:read']))).status).toBe(200);
    expect((await availability(v, 'date=2026-11-21', await h.key(v.tenantId, ['catalog:read']))).status).toBe(200);
    expect((await availability(v, 'date=2026-11-21', await h.key(v.tenantId, ['pricing:read']))).status).toBe(403);
  });
});

describe('GET /objects/availability over a range (from, to)', () => {
  type Day = { date: string; objects: { objectId: string; timeZone: string; slots: Slot[] }[] };
  const slotsByDate = (days: Day[]) => Object.fromEntries(days.map((d) => [d.date, labels(d.objects[0].slots)]));

  it('answers {from, to, days}: each day exactly the single-date answer of that date, zone included', async () => {
    const v = await buildVenue(h, { objects: 2, openingHours: { saturday: { open: '08:00', close: '12:00' } } });
    await book(v, '2026-11-21T10:00:00+01:00', '2026-11-21T11:00:00+01:00');
    const res = await availability(v, 'from=2026-11-20&to=2026-11-22');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['callerTimeZone', 'days', 'from', 'to']);
    expect([res.body.from, res.body.to]).toEqual(['2026-11-20', '2026-11-22']);
    expect(res.body.days.map((d: Day) => d.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    for (const day of res.body.days as Day[]) {
      const single = await availability(v, `date=${day.date}`);
      expect(day, day.date).toEqual(single.body);
      expect(day.objects.map((o) => o.timeZone)).toEqual(['Europe/Berlin', 'Europe/Berlin']);
    }
    expect(unavailable(res.body.days[1].objects[0].slots)).toEqual(['10:00']);
    expect(res.body.days[0].objects[0].slots).toEqual([]); // a Friday: closed
  });

  it('takes one object or one accommodation, and a range of one day or of 31', async () => {
    const v = await buildVenue(h, { objects: 2 });
    const one = await availability(v, `from=2026-11-21&to=2026-11-21&objectId=${v.objects[1].id}`);
    expect(one.body.days).toHaveLength(1);
    expect(one.body.days[0].objects.map((o: { objectId: string }) => o.objectId)).toEqual([v.objects[1].id]);
    const month = await availability(v, `from=2026-12-01&to=2026-12-31&accommodationId=${v.accommodation.id}`);
    expect(month.status).toBe(200);
    expect(month.body.days).toHaveLength(31);
    expect(month.body.days.at(-1).date).toBe('2026-12-31');
    // Bookings on the first and the last day block their slots (the range reads bookings to its end).
    await book(v, '2026-12-01T08:00:00+01:00', '2026-12-01T09:00:00+01:00');
    await book(v, '2026-12-31T21:00:00+01:00', '2026-12-31T22:00:00+01:00');
    const booked = await availability(v, `from=2026-12-01&to=2026-12-31&objectId=${v.object.id}`);
    const blocked = (booked.body.days as Day[]).flatMap((d) =>
      unavailable(d.objects[0].slots).map((s) => `${d.date} ${s}`),
    );
    expect(blocked).toEqual(['2026-12-01 08:00', '2026-12-31 21:00']);
  });

  it('refuses a reversed, too long, half or mixed range and bad dates with 400 naming the field', async () => {
    const v = await buildVenue(h);
    const other = await buildVenue(h);
    for (const [query, field] of [
      ['from=2026-11-22&to=2026-11-21', 'to'],
      ['from=2026-11-01&to=2026-12-02', 'to'], // 32 days
      ['from=2026-01-01&to=2026-12-31', 'to'],
      ['from=2026-02-30&to=2026-03-02', 'from'],
      ['from=2026-11-01&to=01.12.2026', 'to'],
      ['from=2026-11-01', 'to'],
      ['to=2026-11-01', 'from'],
      ['date=2026-11-01&from=2026-11-01&to=2026-11-02', 'from'],
      ['date=2026-11-01&to=2026-11-02', 'to'],
      ['from=2026-11-01&to=2026-11-02&objectId=court', 'objectId'],
    ]) {
      const res = await availability(v, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors, query).toEqual([expect.objectContaining({ field })]);
    }
    const reversed = await availability(v, 'from=2026-11-22&to=2026-11-21');
    expect(reversed.body.errors[0].message).toMatch(/before from/);
    const long = await availability(v, 'from=2026-11-01&to=2026-12-02');
    expect(long.body.errors[0].message).toMatch(/31 days/);
    expect((await availability(v, `from=2026-11-01&to=2026-11-02&objectId=${other.object.id}`)).status).toBe(404);
    expect((await availability(v, 'from=2026-11-01&to=2026-12-01')).status).toBe(200); // 31 days
  });

  it('runs the same number of SQL statements for 1 date and for 31', async () => {
    const v = await buildVenue(h, { objects: 3 });
    const count = async (from: string, to: string) => {
      const before = h.deps.database.queries.count;
      const dates = daysFrom(from, to, 40);
      const res = await availabilityBetween(
        h.deps.database.db,
        v.tenantId,
        h.deps.now(),
        { dates, accommodationId: v.accommodation.id },
        h.deps.slotSchedules.get,
      );
      expect(res.days).toHaveLength(dates.length);
      return h.deps.database.queries.count - before;
    };
    expect(await count('2026-12-01', '2026-12-01')).toBe(1);
    expect(await count('2026-12-01', '2026-12-31')).toBe(1);
  });

  describe('across daylight-saving changes', () => {
    it.each([
      // zone, from, to, the spring-forward date, its slots
      [
        'Europe/Berlin',
        '2026-03-28',
        '2026-03-30',
        {
          '2026-03-28': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-03-29': ['00:00-01:00', '01:00-03:00', '03:00-04:00'],
          '2026-03-30': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
        },
      ],
      [
        'Europe/Berlin',
        '2026-10-24',
        '2026-10-26',
        {
          '2026-10-24': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-10-25': ['00:00-01:00', '01:00-02:00', '02:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-10-26': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
        },
      ],
      [
        'America/New_York',
        '2026-03-07',
        '2026-03-09',
        {
          '2026-03-07': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-03-08': ['00:00-01:00', '01:00-03:00', '03:00-04:00'],
          '2026-03-09': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
        },
      ],
      [
        'America/New_York',
        '2026-10-31',
        '2026-11-02',
        {
          '2026-10-31': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-11-01': ['00:00-01:00', '01:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
          '2026-11-02': ['00:00-01:00', '01:00-02:00', '02:00-03:00', '03:00-04:00'],
        },
      ],
    ])('%s from %s to %s: each day has its own local hours', async (timeZone, from, to, expected) => {
      h.clock.set('2026-03-01T00:00:00Z');
      const v = await buildVenue(h, { timeZone, openingHours: EVERY_NIGHT_0_TO_4 });
      const res = await availability(v, `from=${from}&to=${to}`);
      expect(res.status).toBe(200);
      expect(slotsByDate(res.body.days)).toEqual(expected);
      for (const day of res.body.days as Day[]) expect(day.objects[0].timeZone).toBe(timeZone);
    });

    it('a booking on the change days blocks the slot it covers, and only that one (Berlin)', async () => {
      h.clock.set('2026-03-01T00:00:00Z');
      const v = await buildVenue(h, { timeZone: 'Europe/Berlin', openingHours: EVERY_NIGHT_0_TO_4 });
      // 01:00Z on 2026-03-29 is 03:00 CEST; 01:00Z on 2026-10-25 is the second 02:00 (CET).
      expect((await book(v, '2026-03-29T01:00:00Z', '2026-03-29T02:00:00Z')).status).toBe(201);
      expect((await book(v, '2026-10-25T01:00:00Z', '2026-10-25T02:00:00Z')).status).toBe(201);
      const spring = await availability(v, 'from=2026-03-28&to=2026-03-30');
      expect(spring.body.days.map((d: Day) => unavailable(d.objects[0].slots))).toEqual([[], ['03:00'], []]);
      const autumn = await availability(v, 'from=2026-10-24&to=2026-10-26');
      const autumnDay = autumn.body.days[1].objects[0].slots as Slot[];
      expect(autumnDay.map((s) => `${s.start}-${s.end} ${s.available}`)).toEqual([
        '00:00-01:00 true',
        '01:00-02:00 true',
        '02:00-02:00 true',
        '02:00-03:00 false',
        '03:00-04:00 true',
      ]);
      expect(unavailable(autumn.body.days[0].objects[0].slots)).toEqual([]);
      expect(unavailable(autumn.body.days[2].objects[0].slots)).toEqual([]);
    });
  });
});

describe('slot availability', () => {
  it('a slot becomes unavailable when booked and available again when cancelled', async () => {
    const v = await buildVenue(h);
    const created = await book(v, '2026-11-21T10:00:00+01:00', '2026-11-21T12:00:00+01:00');
    expect(created.status).toBe(201);
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual(['10:00', '11:00']);
    const url = `/api/v1/tenants/${v.tenantId}/bookings/${created.body.booking.id}`;
    await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual(['10:00', '11:00']);
    await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual([]);
  });

  it('completed bookings do not block', async () => {
    const v = await buildVenue(h);
    await buildBooking(h, v.tenantId, v.object.id, {
      start: '2026-11-21T09:00:00Z',
      end: '2026-11-21T10:00:00Z',
      status: 'COMPLETED',
    });
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual([]);
  });

  it.each([
    // bufferMinutes, booked local range, unavailable slots
    [0, ['10:00', '11:00'], ['10:00']],
    [30, ['10:00', '11:00'], ['09:00', '10:00', '11:00']],
    [60, ['10:00', '11:00'], ['09:00', '10:00', '11:00']],
    [90, ['10:00', '11:00'], ['08:00', '09:00', '10:00', '11:00', '12:00']],
  ] as const)('with a %i-minute buffer, a booking %j blocks %j', async (bufferMinutes, [start, end], expected) => {
    const v = await buildVenue(h, { bookingRules: { bufferMinutes } } satisfies VenueOptions);
    expect((await book(v, `2026-11-21T${start}:00+01:00`, `2026-11-21T${end}:00+01:00`)).status).toBe(201);
    const slots = await slotsOf(v, '2026-11-21');
    expect(unavailable(slots)).toEqual(expected);
    // Every slot shown as available can really be booked (with the same buffer).
    for (const s of slots.filter((x) => x.available).slice(0, 3)) {
      const res = await book(v, `2026-11-21T${s.start}:00+01:00`, `2026-11-21T${s.end}:00+01:00`);
      expect(res.status, s.start).toBe(201);
      await h.request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${res.body.booking.id}`,
        apiKey: v.apiKey,
        body: { status: 'CANCELLED' },
      });
    }
  });

  it('a closed special date has no slots; one with its own hours uses them', async () => {
    const v = await buildVenue(h);
    await setSpecialDate(
      h.deps.database.db,
      v.tenantId,
      v.object.id,
      parseSpecialDate({ date: '2026-12-24', closed: true, reason: 'Christmas Eve' }),
    );
    await setSpecialDate(
      h.deps.database.db,
      v.tenantId,
      v.object.id,
      parseSpecialDate({ date: '2026-12-31', closed: false, reason: 'New Year’s Eve', open: '10:00', close: '14:00' }),
    );
    expect(await slotsOf(v, '2026-12-24')).toEqual([]);
    expect(labels(await slotsOf(v, '2026-12-31'))).toEqual([
      '10:00-11:00',
      '11:00-12:00',
      '12:00-13:00',
      '13:00-14:00',
    ]);
    expect(labels(await slotsOf(v, '2026-12-23'))).toEqual(HOURS_8_TO_22);
  });

  it('a weekday without opening hours has no slots', async () => {
    const v = await buildVenue(h, { openingHours: { monday: { open: '09:00', close: '12:00' } } });
    expect(await slotsOf(v, '2026-11-22')).toEqual([]); // Sunday
    expect(labels(await slotsOf(v, '2026-11-23'))).toEqual(['09:00-10:00', '10:00-11:00', '11:00-12:00']); // Monday
  });

  it('steps by slotIncrementMinutes from opening', async () => {
    const v = await buildVenue(h, {
      openingHours: { saturday: { open: '08:15', close: '10:00' } },
      bookingRules: { slotIncrementMinutes: 30, minDurationMinutes: 30 },
    });
    expect(labels(await slotsOf(v, '2026-11-21'))).toEqual(['08:15-08:45', '08:45-09:15', '09:15-09:45']);
  });

  it('marks slots before now + minAdvance and beyond maxAdvanceDays unavailable', async () => {
    const v = await buildVenue(h, { bookingRules: { minAdvanceMinutes: 120, maxAdvanceDays: 1 } });
    h.clock.set('2026-11-21T09:30:00+01:00');
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual(['08:00', '09:00', '10:00', '11:00']);
    // one local day ahead: up to 2026-11-22 09:30 local
    expect(unavailable(await slotsOf(v, '2026-11-22'))).toEqual([
      '10:00',
      '11:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
      '17:00',
      '18:00',
      '19:00',
      '20:00',
      '21:00',
    ]);
    expect((await slotsOf(v, '2026-11-24')).every((s) => !s.available)).toBe(true);
  });

  describe('across daylight-saving changes (Europe/Berlin)', () => {
    it.each([
      // date, an instant that is 08:00 local that day
      ['2026-03-29', '2026-03-29T06:00:00Z'],
      ['2026-10-25', '2026-10-25T07:00:00Z'],
      ['2026-03-28', '2026-03-28T07:00:00Z'],
      ['2026-10-26', '2026-10-26T07:00:00Z'],
    ])('on %s the slots are 08:00–22:00 local and a booking at %s blocks 08:00', async (date, eight) => {
      h.clock.set('2026-03-01T00:00:00Z');
      const v = await buildVenue(h, { timeZone: 'Europe/Berlin' });
      expect(labels(await slotsOf(v, date))).toEqual(HOURS_8_TO_22);
      const end = new Date(new Date(eight).getTime() + 3_600_000).toISOString();
      expect((await book(v, eight, end)).status).toBe(201);
      expect(unavailable(await slotsOf(v, date))).toEqual(['08:00']);
    });

    it('a night opening over the spring change has no 02:00 slot; over the autumn change 02:00 comes twice', async () => {
      h.clock.set('2026-03-01T00:00:00Z');
      const v = await buildVenue(h, { openingHours: { sunday: { open: '00:00', close: '05:00' } } });
      expect(labels(await slotsOf(v, '2026-03-29'))).toEqual([
        '00:00-01:00',
        '01:00-03:00',
        '03:00-04:00',
        '04:00-05:00',
      ]);
      expect(labels(await slotsOf(v, '2026-10-25'))).toEqual([
        '00:00-01:00',
        '01:00-02:00',
        '02:00-02:00',
        '02:00-03:00',
        '03:00-04:00',
        '04:00-05:00',
      ]);
    });

    it('reads each accommodation in its own zone', async () => {
      h.clock.set('2026-03-01T00:00:00Z');
      const v = await buildVenue(h, { timeZone: 'America/New_York' });
      expect(labels(await slotsOf(v, '2026-03-08'))).toEqual(HOURS_8_TO_22);
      // 08:00 EDT on 2026-03-08 is 12:00Z
      expect((await book(v, '2026-03-08T12:00:00Z', '2026-03-08T13:00:00Z')).status).toBe(201);
      expect(unavailable(await slotsOf(v, '2026-03-08'))).toEqual(['08:00']);
    });
  });
});

describe('GraphQL availability', () => {
  it('returns exactly {objectName, timeZone, slots {start end available}} for one object', async () => {
    const v = await buildVenue(h);
    await book(v, '2026-11-21T10:00:00+01:00', '2026-11-21T11:00:00+01:00');
    const res = await h.graphql(
      v.apiKey,
      `query($d: String!, $o: ID!) { availability(date: $d, objectId: $o) { objectName timeZone slots { start end available } } }`,
      {
        d: '2026-11-21',
        o: v.object.id,
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.availability.objectName).toBe('Court 1');
    expect(res.body.data.availability.timeZone).toBe('Europe/Berlin');
    expect(labels(res.body.data.availability.slots)).toEqual(HOURS_8_TO_22);
    expect(unavailable(res.body.data.availability.slots)).toEqual(['10:00']);
    const shape = await h.graphql(v.apiKey, `{ __type(name: "Availability") { fields { name } } }`);
    expect(shape.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual([
      'objectName',
      'timeZone',
      'slots',
      'callerTimeZone', // issue #44
    ]);
  });

  it('refuses a bad date and an unknown object', async () => {
    const v = await buildVenue(h);
    const bad = await h.graphql(
      v.apiKey,
      `{ availability(date: "tomorrow", objectId: "${v.object.id}") { objectName } }`,
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'date' }] });
    const unknown = await h.graphql(
      v.apiKey,
      `{ availability(date: "2026-11-21", objectId: "00000000-0000-4000-8000-000000000000") { objectName } }`,
    );
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe("instants and the caller's time zone (issue #44)", () => {
  const WEEK_0_TO_24 = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      { open: '00:00', close: '24:00' },
    ]),
  );
  type TimedSlot = Slot & { startTime: string; endTime: string; localStart: string | null; localEnd: string | null };

  it.each([
    // date, slots, the last slot's end instant (the next local midnight)
    ['2026-03-29', 23, '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', 25, '2026-10-25T23:00:00.000Z'],
    ['2026-11-21', 24, '2026-11-21T23:00:00.000Z'],
  ])('Europe/Berlin %s: %i hourly slots, each its own hour; 24:00 ends at %s', async (date, count, lastEnd) => {
    const v = await buildVenue(h, { openingHours: WEEK_0_TO_24 });
    const slots = (await availability(v, `date=${date}&objectId=${v.object.id}`)).body.objects[0].slots as TimedSlot[];
    expect(slots).toHaveLength(count);
    slots.forEach((slot, i) => {
      expect(Date.parse(slot.endTime) - Date.parse(slot.startTime)).toBe(3_600_000);
      if (i > 0) expect(slot.startTime).toBe(slots[i - 1]?.endTime);
    });
    expect(slots.at(-1)?.end).toBe('24:00');
    expect(slots.at(-1)?.endTime).toBe(lastEnd);
  });

  it('with timeZone, each slot carries localStart and localEnd in that zone and the answer names it; without, null', async () => {
    const v = await buildVenue(h, { openingHours: { sunday: { open: '20:00', close: '24:00' } } });
    const res = await availability(v, `date=2026-03-29&objectId=${v.object.id}&timeZone=Asia/Kolkata`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.callerTimeZone).toBe('Asia/Kolkata');
    expect(res.body.objects[0].timeZone).toBe('Europe/Berlin');
    expect(
      (res.body.objects[0].slots as TimedSlot[]).map((s) => [s.start, s.end, s.startTime, s.localStart, s.localEnd]),
    ).toEqual([
      ['20:00', '21:00', '2026-03-29T18:00:00.000Z', '2026-03-29T23:30:00+05:30', '2026-03-30T00:30:00+05:30'],
      ['21:00', '22:00', '2026-03-29T19:00:00.000Z', '2026-03-30T00:30:00+05:30', '2026-03-30T01:30:00+05:30'],
      ['22:00', '23:00', '2026-03-29T20:00:00.000Z', '2026-03-30T01:30:00+05:30', '2026-03-30T02:30:00+05:30'],
      ['23:00', '24:00', '2026-03-29T21:00:00.000Z', '2026-03-30T02:30:00+05:30', '2026-03-30T03:30:00+05:30'],
    ]);
    const range = await availability(v, `from=2026-03-28&to=2026-03-29&timeZone=America/New_York`);
    expect(range.status, range.text).toBe(200);
    expect(range.body.callerTimeZone).toBe('America/New_York');
    expect(range.body.days.map((d: { callerTimeZone: string }) => d.callerTimeZone)).toEqual([
      'America/New_York',
      'America/New_York',
    ]);
    expect(range.body.days[1].objects[0].slots[0].localStart).toBe('2026-03-29T14:00:00-04:00');
    const plain = await availability(v, `date=2026-03-29&objectId=${v.object.id}`);
    expect(plain.body.callerTimeZone).toBeNull();
    for (const slot of plain.body.objects[0].slots as TimedSlot[])
      expect([slot.localStart, slot.localEnd]).toEqual([null, null]);
  });

  it("a booking of a slot's startTime and endTime takes exactly that slot", async () => {
    const v = await buildVenue(h);
    const [, second] = (await availability(v, `date=2026-11-21&objectId=${v.object.id}`)).body.objects[0]
      .slots as TimedSlot[];
    expect((await book(v, second.startTime, second.endTime)).status).toBe(201);
    expect(unavailable(await slotsOf(v, '2026-11-21'))).toEqual([second.start]);
  });

  it('refuses a time zone that is no IANA name with 400 (REST) and BAD_USER_INPUT (GraphQL) naming timeZone', async () => {
    const v = await buildVenue(h);
    for (const zone of ['Mars/Olympus', 'CEST', '+02:00', '', 'x'.repeat(200)]) {
      for (const query of [`date=2026-11-21`, `from=2026-11-20&to=2026-11-21`]) {
        const res = await availability(v, `${query}&timeZone=${encodeURIComponent(zone)}`);
        if (zone === '') {
          expect(res.status, `${query} ${zone}`).toBe(200); // an empty parameter is no parameter
          continue;
        }
        expect(res.status, `${query} ${zone}`).toBe(400);
        expect(res.body.errors, zone).toEqual([expect.objectContaining({ field: 'timeZone' })]);
      }
    }
    const bad = await h.graphql(
      v.apiKey,
      `query($o: ID!) { availability(date: "2026-11-21", objectId: $o, timeZone: "Europe/Atlantis") { objectName } }`,
      { o: v.object.id },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'timeZone' }] });
  });

  it('GraphQL availability takes timeZone and answers startTime, endTime, localStart, localEnd and callerTimeZone', async () => {
    const v = await buildVenue(h, {
      timeZone: 'Asia/Kolkata',
      openingHours: { saturday: { open: '09:30', close: '11:30' } },
    });
    const res = await h.graphql(
      v.apiKey,
      `query($o: ID!) { availability(date: "2026-11-21", objectId: $o, timeZone: "Europe/Berlin") {
        timeZone callerTimeZone slots { start end startTime endTime localStart localEnd } } }`,
      { o: v.object.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.availability).toEqual({
      timeZone: 'Asia/Kolkata',
      callerTimeZone: 'Europe/Berlin',
      slots: [
        {
          start: '09:30',
          end: '10:30',
          startTime: '2026-11-21T04:00:00.000Z',
          endTime: '2026-11-21T05:00:00.000Z',
          localStart: '2026-11-21T05:00:00+01:00',
          localEnd: '2026-11-21T06:00:00+01:00',
        },
        {
          start: '10:30',
          end: '11:30',
          startTime: '2026-11-21T05:00:00.000Z',
          endTime: '2026-11-21T06:00:00.000Z',
          localStart: '2026-11-21T06:00:00+01:00',
          localEnd: '2026-11-21T07:00:00+01:00',
        },
      ],
    });
  });
});
