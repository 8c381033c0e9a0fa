import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import ICAL from 'ical.js';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';

// Recurring bookings (src/modules/series, docs/bookings.md "Recurring bookings") through REST and
// GraphQL, on PGlite and PostgreSQL: conflicts, exceptions, cancel-following, DST weeks in
// Europe/Berlin, the invite read back by ical.js, and 20 concurrent series over the same slots.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;
const BERLIN = 'Europe/Berlin';
const berlin = (local: string) => DateTime.fromISO(local, { zone: BERLIN }).toUTC().toISO() ?? '';
const localOf = (iso: string) => DateTime.fromISO(iso, { zone: BERLIN }).toFormat('yyyy-MM-dd HH:mm ccc');

function createSeries(v: Venue, body: Record<string, unknown>) {
  return h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/booking-series`,
    apiKey: v.apiKey,
    body: { objectId: v.object.id, guestName: 'Ada Lovelace', guestEmail: 'ada@example.com', ...body },
  });
}

async function liveBookings(v: Venue) {
  return h.deps.database.db
    .selectFrom('bookings')
    .select(['id', 'start_time', 'end_time', 'series_id', 'status'])
    .where('tenant_id', '=', v.tenantId)
    .where('status', 'in', ['PENDING', 'CONFIRMED'])
    .orderBy('start_time')
    .execute();
}

async function eventTypes(v: Venue) {
  const rows = await h.deps.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('tenant_id', '=', v.tenantId)
    .orderBy('created_at')
    .orderBy(sql`seq::bigint`)
    .execute();
  return rows;
}

const SERIES_FIELDS = `id rule status timeZone startTime durationMinutes objectId
  occurrences(first: 100) { totalCount nodes { id startTime endTime status seriesId totalPrice } }`;

describe('creating a series', () => {
  it('books every free occurrence as its own booking (price, credentials, booking.created) and lists the conflicts', async () => {
    const v = await buildVenue(h);
    // Tuesday 2026-12-08 18:00 is taken by a single booking.
    await buildBooking(h, v.tenantId, v.object.id, {
      start: berlin('2026-12-08T18:00'),
      end: berlin('2026-12-08T19:00'),
    });
    const preview = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/preview`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        startTime: berlin('2026-12-01T18:00'),
        endTime: berlin('2026-12-01T19:00'),
        rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({
      rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      timeZone: BERLIN,
      availableCount: 3,
      conflictCount: 1,
      totalPrice: 6000,
    });
    expect(
      preview.body.occurrences.map((o: { available: boolean; conflictCode: string | null }) => [
        o.available,
        o.conflictCode,
      ]),
    ).toEqual([
      [true, null],
      [false, 'slot_unavailable'],
      [true, null],
      [true, null],
    ]);
    expect(preview.body.occurrences[1].totalPrice).toBe(2000);
    // The preview wrote nothing.
    expect(await liveBookings(v)).toHaveLength(1);
    expect((await eventTypes(v)).map((e) => e.type)).toEqual([]);

    const created = await createSeries(v, {
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.series).toMatchObject({
      rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      status: 'ACTIVE',
      durationMinutes: 60,
    });
    expect(created.body.bookings.map((b: { startTime: string }) => localOf(b.startTime))).toEqual([
      '2026-12-01 18:00 Tue',
      '2026-12-15 18:00 Tue',
      '2026-12-22 18:00 Tue',
    ]);
    expect(created.body.conflicts).toHaveLength(1);
    expect(created.body.conflicts[0]).toMatchObject({ index: 1, available: false, conflictCode: 'slot_unavailable' });
    const seriesId = created.body.series.id;
    for (const b of created.body.bookings) {
      expect(b).toMatchObject({ status: 'PENDING', totalPrice: 2000, seriesId });
      const credentials = await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${b.id}/credentials`,
        apiKey: v.apiKey,
      });
      expect(credentials.status, credentials.text).toBe(200);
    }
    const ids = new Set(created.body.bookings.map((b: { id: string }) => b.id));
    expect(ids.size).toBe(3);
    const events = await eventTypes(v);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'booking.created',
      'booking.created',
      'series.created',
    ]);
    expect((events[0].data as { booking: { seriesId: string } }).booking.seriesId).toBe(seriesId);
    expect((events[3].data as { series: unknown }).series).toMatchObject({
      id: seriesId,
      rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
    });
    expect((events[3].data as { occurrences: unknown[] }).occurrences[1]).toMatchObject({
      index: 1,
      conflictCode: 'slot_unavailable',
    });

    // GraphQL: the series with its occurrences connection; Booking.series back to it.
    const read = await h.graphql(
      v.apiKey,
      `query($id: ID!, $b: ID!) { bookingSeries(id: $id) { ${SERIES_FIELDS} } booking(id: $b) { seriesId series { id rule } } }`,
      { id: seriesId, b: created.body.bookings[0].id },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.bookingSeries.occurrences.totalCount).toBe(3);
    expect(read.body.data.booking).toEqual({
      seriesId,
      series: { id: seriesId, rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4' },
    });
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${seriesId}`,
      apiKey: v.apiKey,
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.series).toMatchObject({ id: seriesId, status: 'ACTIVE' });
  });

  it('with failOnConflict creates nothing when an occurrence conflicts, and says which', async () => {
    const v = await buildVenue(h);
    await buildBooking(h, v.tenantId, v.object.id, {
      start: berlin('2026-12-08T18:00'),
      end: berlin('2026-12-08T19:30'),
    });
    const res = await createSeries(v, {
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;COUNT=3',
      failOnConflict: true,
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'series_conflicts' });
    expect(res.body.detail).toContain('2026-12-08T17:00:00.000Z (slot_unavailable)');
    expect(await liveBookings(v)).toHaveLength(1);
    expect(
      await h.deps.database.db.selectFrom('booking_series').select('id').where('tenant_id', '=', v.tenantId).execute(),
    ).toEqual([]);
  });

  it('refuses occurrences outside the opening hours as conflicts, and a series none of whose occurrences fit', async () => {
    const v = await buildVenue(h, {
      openingHours: { tuesday: { open: '08:00', close: '22:00' }, thursday: { open: '08:00', close: '22:00' } },
    });
    const mixed = await createSeries(v, {
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=DAILY;COUNT=3',
    });
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.body.bookings).toHaveLength(2);
    expect(mixed.body.conflicts.map((c: { conflictCode: string }) => c.conflictCode)).toEqual([
      expect.stringMatching(/closed|opening/),
    ]);
    const none = await createSeries(v, {
      startTime: berlin('2026-12-02T18:00'),
      endTime: berlin('2026-12-02T19:00'),
      rule: 'FREQ=WEEKLY;COUNT=2',
    });
    expect(none.status, none.text).toBe(409);
    expect(none.body.detail).toContain('(none can)');
  });

  it.each([
    ['FREQ=MONTHLY;COUNT=3', 'rule: FREQ: MONTHLY is not supported'],
    ['FREQ=WEEKLY;BYMONTH=3;COUNT=3', 'rule: BYMONTH: is not supported'],
    ['FREQ=WEEKLY', 'rule: COUNT: or UNTIL is required'],
    ['FREQ=WEEKLY;BYDAY=MO;COUNT=2', 'rule: BYDAY: the first occurrence'],
    ['FREQ=WEEKLY;COUNT=3;UNTIL=20270101T000000Z', 'rule: UNTIL: cannot be combined with COUNT'],
    ['', 'rule: must be an RRULE value'],
  ])('refuses the rule %j with 400 naming the part', async (rule, message) => {
    const v = await buildVenue(h);
    const res = await createSeries(v, {
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('invalid_rule');
    expect(res.body.detail).toContain(message);
    const gql = await h.graphql(
      v.apiKey,
      `query($o: ID!, $s: DateTime!, $e: DateTime!, $r: String!) { previewBookingSeries(objectId: $o, startTime: $s, endTime: $e, rule: $r) { availableCount } }`,
      { o: v.object.id, s: berlin('2026-12-01T18:00'), e: berlin('2026-12-01T19:00'), r: rule },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'invalid_rule' });
  });

  it('refuses another tenant, a missing scope and hostile guest input', async () => {
    const v = await buildVenue(h);
    const w = await buildVenue(h);
    const other = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${w.tenantId}/booking-series`,
      apiKey: v.apiKey,
      body: {
        objectId: w.object.id,
        guestName: 'A',
        guestEmail: 'a@example.com',
        startTime: berlin('2026-12-01T18:00'),
        endTime: berlin('2026-12-01T19:00'),
        rule: 'FREQ=WEEKLY;COUNT=2',
      },
    });
    expect(other.status).toBe(403);
    const readOnly = await h.key(v.tenantId, ['bookings:read']);
    const scoped = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series`,
      apiKey: readOnly,
      body: {
        objectId: v.object.id,
        guestName: 'A',
        guestEmail: 'a@example.com',
        startTime: berlin('2026-12-01T18:00'),
        endTime: berlin('2026-12-01T19:00'),
        rule: 'FREQ=WEEKLY;COUNT=2',
      },
    });
    expect(scoped.status).toBe(403);
    const foreignObject = await createSeries(v, {
      objectId: w.object.id,
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;COUNT=2',
    });
    expect(foreignObject.status).toBe(404);
    const badEmail = await createSeries(v, {
      guestEmail: 'not an email',
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;COUNT=2',
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.detail).toContain('guestEmail');
    const hostile = await createSeries(v, {
      guestName: 'Robert"; DROP TABLE bookings; --\r\nATTENDEE:mailto:evil@example.com',
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;COUNT=2',
    });
    expect(hostile.status, hostile.text).toBe(201);
    const invite = await h.graphql(v.apiKey, `query($id: ID!) { bookingSeries(id: $id) { invite } }`, {
      id: hostile.body.series.id,
    });
    const text: string = invite.body.data.bookingSeries.invite;
    expect(text.split('\r\n').filter((l) => l.startsWith('ATTENDEE'))).toHaveLength(1);
    expect(text).not.toMatch(/\r\nATTENDEE:mailto:evil/);
    const unknown = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${w.object.id}`,
      apiKey: v.apiKey,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('DST weeks in Europe/Berlin', () => {
  it.each([
    ['the end of summer time (25 Oct 2026)', '2026-10-20T18:00', ['2026-10-20', '2026-10-27', '2026-11-03']],
    ['the start of summer time (28 Mar 2027)', '2027-03-23T18:00', ['2027-03-23', '2027-03-30', '2027-04-06']],
  ])('keeps 18:00 local across %s', async (_name, first, dates) => {
    h.clock.set('2026-10-01T09:00:00Z');
    const v = await buildVenue(h);
    const res = await createSeries(v, {
      startTime: berlin(first),
      endTime: berlin(first.replace('18:00', '19:30')),
      rule: 'FREQ=WEEKLY;COUNT=3',
    });
    expect(res.status, res.text).toBe(201);
    const starts = res.body.bookings.map((b: { startTime: string; endTime: string }) => [
      localOf(b.startTime),
      localOf(b.endTime),
    ]);
    expect(starts).toEqual(
      dates.map((d) => [expect.stringContaining(`${d} 18:00`), expect.stringContaining(`${d} 19:30`)]),
    );
    // The UTC hour moves with the offset: two different UTC hours across the change.
    expect(new Set(res.body.bookings.map((b: { startTime: string }) => new Date(b.startTime).getUTCHours())).size).toBe(
      2,
    );
  });
});

async function seriesOf(v: Venue, rule = 'FREQ=WEEKLY;BYDAY=TU;COUNT=5') {
  const res = await createSeries(v, {
    startTime: berlin('2026-12-01T18:00'),
    endTime: berlin('2026-12-01T19:00'),
    rule,
  });
  expect(res.status, res.text).toBe(201);
  return {
    id: res.body.series.id as string,
    bookings: res.body.bookings as { id: string; startTime: string; endTime: string }[],
  };
}

function cancel(v: Venue, id: string, scope: string, fromBookingId?: string) {
  return h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/booking-series/${id}/cancel`,
    apiKey: v.apiKey,
    body: { scope, ...(fromBookingId ? { fromBookingId } : {}) },
  });
}

describe('exceptions and cancellations', () => {
  it('cancels this, then this-and-following, then all, with booking.cancelled per occurrence and series.* events', async () => {
    const v = await buildVenue(h);
    const s = await seriesOf(v);
    const [b0, b1, b2, b3, b4] = s.bookings;
    const one = await cancel(v, s.id, 'THIS', b1.id);
    expect(one.status, one.text).toBe(200);
    expect(one.body.cancelled.map((b: { id: string }) => b.id)).toEqual([b1.id]);
    expect(one.body.series.status).toBe('ACTIVE');
    const again = await cancel(v, s.id, 'THIS', b1.id);
    expect(again.status).toBe(409);
    const following = await cancel(v, s.id, 'FOLLOWING', b3.id);
    expect(following.status, following.text).toBe(200);
    expect(following.body.cancelled.map((b: { id: string }) => b.id)).toEqual([b3.id, b4.id]);
    expect((await liveBookings(v)).map((b) => b.id)).toEqual([b0.id, b2.id]);
    const all = await cancel(v, s.id, 'ALL');
    expect(all.body.cancelled.map((b: { id: string }) => b.id)).toEqual([b0.id, b2.id]);
    expect(all.body.series.status).toBe('CANCELLED');
    expect(await liveBookings(v)).toEqual([]);
    const types = (await eventTypes(v)).map((e) => e.type);
    expect(types.filter((t) => t === 'booking.cancelled')).toHaveLength(5);
    expect(types.filter((t) => t.startsWith('series.'))).toEqual([
      'series.created',
      'series.updated',
      'series.updated',
      'series.cancelled',
    ]);
    const missing = await cancel(v, s.id, 'FOLLOWING');
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('fromBookingId');
    const w = await buildVenue(h);
    const stranger = await seriesOf(w);
    const foreign = await cancel(v, s.id, 'THIS', stranger.bookings[0].id);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('not_in_series');
    const badScope = await cancel(v, s.id, 'SOME');
    expect(badScope.status).toBe(400);
  });

  it('a moved occurrence becomes an exception; the slot it left is free and the slot it took is held', async () => {
    const v = await buildVenue(h);
    const s = await seriesOf(v, 'FREQ=WEEKLY;BYDAY=TU;COUNT=3');
    const target = s.bookings[1];
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${s.id}/occurrences/${target.id}/reschedule`,
      apiKey: v.apiKey,
      body: { startTime: berlin('2026-12-09T20:00'), endTime: berlin('2026-12-09T21:00') },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.booking).toMatchObject({ id: target.id, seriesId: s.id });
    expect(moved.body.previous.startTime).toBe(target.startTime);
    const types = (await eventTypes(v)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['booking.rescheduled', 'series.updated']);
    // Moving it onto another occurrence of the series is refused by the exclusion constraint.
    const clash = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${s.id}/occurrences/${target.id}/reschedule`,
      apiKey: v.apiKey,
      body: { startTime: s.bookings[2].startTime, endTime: s.bookings[2].endTime },
    });
    expect(clash.status).toBe(409);
    const db = h.deps.database.db;
    const row = await db
      .selectFrom('bookings')
      .select(['series_start', 'start_time'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.series_start?.toISOString()).toBe(target.startTime);
    expect(row.start_time.toISOString()).toBe(new Date(berlin('2026-12-09T20:00')).toISOString());
  });
});

describe('the invite', () => {
  /** The starts ical.js expands from the invite (overrides applied), as UTC ISO strings. */
  function expanded(text: string): string[] {
    const component = new ICAL.Component(ICAL.parse(text));
    for (const tz of component.getAllSubcomponents('vtimezone')) {
      ICAL.TimezoneService.register(new ICAL.Timezone(tz));
    }
    const vevents = component.getAllSubcomponents('vevent');
    const master = new ICAL.Event(vevents.find((e) => !e.hasProperty('recurrence-id')));
    for (const e of vevents.filter((x) => x.hasProperty('recurrence-id'))) master.relateException(new ICAL.Event(e));
    const iterator = master.iterator();
    const starts: string[] = [];
    for (let next = iterator.next(); next && starts.length < 400; next = iterator.next()) {
      const details = master.getOccurrenceDetails(next);
      starts.push(details.startDate.toJSDate().toISOString());
    }
    return starts;
  }

  it('is one recurring VEVENT whose expansion equals the live bookings, with EXDATE for conflicts and cancellations and RECURRENCE-ID for a move, across DST', async () => {
    h.clock.set('2026-10-01T09:00:00Z');
    const v = await buildVenue(h);
    // The week of 27 Oct is taken: left out of the series (an EXDATE).
    await buildBooking(h, v.tenantId, v.object.id, {
      start: berlin('2026-10-27T18:00'),
      end: berlin('2026-10-27T19:00'),
    });
    const res = await createSeries(v, {
      startTime: berlin('2026-10-20T18:00'),
      endTime: berlin('2026-10-20T19:00'),
      rule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20261120T000000Z',
    });
    expect(res.status, res.text).toBe(201);
    const bookings = res.body.bookings as { id: string; startTime: string }[];
    expect(res.body.conflicts).toHaveLength(1);
    const id = res.body.series.id;
    // Cancel one, move another an hour later on the same day.
    expect((await cancel(v, id, 'THIS', bookings[2].id)).status).toBe(200);
    const movedFrom = bookings[4];
    const movedTo = new Date(new Date(movedFrom.startTime).getTime() + 3600_000);
    const move = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${id}/occurrences/${movedFrom.id}/reschedule`,
      apiKey: v.apiKey,
      body: { startTime: movedTo.toISOString(), endTime: new Date(movedTo.getTime() + 3600_000).toISOString() },
    });
    expect(move.status, move.text).toBe(200);

    const invite = await h.graphql(v.apiKey, `query($id: ID!) { bookingSeries(id: $id) { invite } }`, { id });
    expect(invite.body.errors).toBeUndefined();
    const text: string = invite.body.data.bookingSeries.invite;
    expect(text).toContain('RRULE:FREQ=WEEKLY;');
    expect(text).toMatch(/DTSTART;TZID=Europe\/Berlin:20261020T180000/);
    expect(text.match(/^EXDATE/gm)?.length).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/RECURRENCE-ID;TZID=Europe\/Berlin:/);
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);

    const live = (await liveBookings(v)).filter((b) => b.series_id === id).map((b) => b.start_time.toISOString());
    expect(expanded(text).sort()).toEqual(live.sort());
    // Every expanded start is 18:00 or (the moved one) 19:00 Berlin time, before and after 25 Oct.
    const hours = expanded(text).map((s) => DateTime.fromISO(s, { zone: BERLIN }).hour);
    expect(new Set(hours)).toEqual(new Set([18, 19]));
  });
});

describe('20 concurrent series over the same slots', () => {
  it('never double-book: each slot is held by exactly one series, the others list it as a conflict', async () => {
    const v = await buildVenue(h);
    const rules = [
      'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6',
      'FREQ=DAILY;COUNT=10',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=2',
    ];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createSeries(v, {
          guestName: `Guest ${i}`,
          startTime: berlin('2026-12-01T18:00'),
          endTime: berlin('2026-12-01T19:00'),
          rule: rules[i % rules.length],
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    for (const r of results) expect([201, 409], r.text).toContain(r.status);
    expect(statuses).toContain(201);
    const live = await liveBookings(v);
    const starts = live.map((b) => b.start_time.toISOString());
    expect(new Set(starts).size).toBe(starts.length);
    // Every occurrence some series asked for is booked by exactly one of them.
    const asked = new Set<string>();
    for (const r of results.filter((x) => x.status === 201)) {
      for (const b of r.body.bookings) asked.add(b.startTime);
      for (const c of r.body.conflicts) {
        expect(c.conflictCode).toBe('slot_unavailable');
        asked.add(c.startTime);
      }
    }
    expect(new Set(starts)).toEqual(asked);
    const booked = results
      .filter((r) => r.status === 201)
      .reduce((n: number, r) => n + (r.body.bookings as unknown[]).length, 0);
    expect(booked).toBe(live.length);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('series_conflicts');
  });
});
