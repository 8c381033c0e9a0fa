import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { WeeklySchedule } from '../../kernel/db/types.js';
import {
  daySlots,
  freeStarts,
  latestStart,
  localDateOf,
  openingOn,
  openingWindow,
  slotsOf,
  weekdayOf,
  type BlockedRange,
  type SlotRules,
  type SpecialDay,
} from './slots.js';

// Run under several TZ values by `npm run test:tz`: every expectation is in UTC or in an explicit zone.

const DAILY = (open: string, close: string): WeeklySchedule => ({
  monday: { open, close },
  tuesday: { open, close },
  wednesday: { open, close },
  thursday: { open, close },
  friday: { open, close },
  saturday: { open, close },
  sunday: { open, close },
});

const RULES: SlotRules = { slotIncrementMinutes: 60, minAdvanceMinutes: 0, maxAdvanceDays: 365, bufferMinutes: 0 };
const EARLIER = new Date('2026-01-01T00:00:00Z');
const labels = (slots: { start: string; end: string }[]) => slots.map((s) => `${s.start}-${s.end}`);
const utc = (iso: string) => new Date(iso);

describe('weekdayOf and localDateOf', () => {
  it.each([
    ['2026-03-29', 'sunday'],
    ['2026-10-25', 'sunday'],
    ['2026-11-20', 'friday'],
    ['2024-02-29', 'thursday'],
  ])('%s is a %s', (date, weekday) => {
    expect(weekdayOf(date)).toBe(weekday);
  });

  it.each([
    ['2026-11-20T23:30:00Z', 'Europe/Berlin', '2026-11-21'],
    ['2026-11-20T23:30:00Z', 'America/New_York', '2026-11-20'],
    ['2026-11-20T10:30:00Z', 'Pacific/Auckland', '2026-11-20'],
    ['2026-11-20T11:30:00Z', 'Pacific/Auckland', '2026-11-21'],
  ])('%s is on %s local date in %s', (instant, zone, date) => {
    expect(localDateOf(utc(instant), zone)).toBe(date);
  });
});

describe('openingOn', () => {
  const weekly: WeeklySchedule = {
    monday: { open: '08:00', close: '22:00' },
    saturday: { open: '10:00', close: '18:00' },
  };
  const special: SpecialDay[] = [
    { date: '2026-12-21', closed: true, reason: 'Inventory', open: null, close: null },
    { date: '2026-12-28', closed: false, reason: 'Short day', open: '09:00', close: '12:00' },
    { date: '2027-01-04', closed: false, reason: 'Note only', open: null, close: null },
    { date: '2026-12-27', closed: false, reason: 'Sunday opening', open: '12:00', close: '16:00' },
  ];
  it.each([
    ['a weekday with hours', '2026-12-14', { open: true, hours: { open: '08:00', close: '22:00' } }],
    ['a weekday without hours', '2026-12-15', { open: false, closedBy: 'weekday', weekday: 'tuesday' }],
    ['a closed special date', '2026-12-21', { open: false, closedBy: 'special_date', reason: 'Inventory' }],
    ['a special date with its own hours', '2026-12-28', { open: true, hours: { open: '09:00', close: '12:00' } }],
    ['a special date without hours (as usual)', '2027-01-04', { open: true, hours: { open: '08:00', close: '22:00' } }],
    ['a special date opening a closed weekday', '2026-12-27', { open: true, hours: { open: '12:00', close: '16:00' } }],
  ])('%s', (_name, date, expected) => {
    expect(openingOn(weekly, special, date)).toEqual(expected);
  });
});

describe('openingWindow and slotsOf', () => {
  it.each([
    // zone, date, open, close, window start (UTC), window end (UTC)
    ['Europe/Berlin', '2026-11-20', '08:00', '22:00', '2026-11-20T07:00:00.000Z', '2026-11-20T21:00:00.000Z'],
    ['Europe/Berlin', '2026-07-01', '08:00', '22:00', '2026-07-01T06:00:00.000Z', '2026-07-01T20:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '00:00', '24:00', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '00:00', '24:00', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'],
    ['America/New_York', '2026-03-08', '08:00', '20:00', '2026-03-08T12:00:00.000Z', '2026-03-09T00:00:00.000Z'],
    ['Pacific/Auckland', '2026-04-05', '08:00', '20:00', '2026-04-04T20:00:00.000Z', '2026-04-05T08:00:00.000Z'],
    ['UTC', '2026-11-20', '22:00', '24:00', '2026-11-20T22:00:00.000Z', '2026-11-21T00:00:00.000Z'],
  ])('%s %s %s–%s', (zone, date, open, close, start, end) => {
    const w = openingWindow(zone, date, { open, close });
    expect([w.start.toISOString(), w.end.toISOString()]).toEqual([start, end]);
  });

  it.each([
    [60, 14],
    [30, 28],
    [90, 9],
    [840, 1],
    [900, 0],
  ])('a 14-hour day in steps of %i minutes has %i slots', (step, count) => {
    const slots = slotsOf(openingWindow('Europe/Berlin', '2026-11-20', { open: '08:00', close: '22:00' }), step);
    expect(slots).toHaveLength(count);
    for (const s of slots) expect(s.end.getTime() - s.start.getTime()).toBe(step * 60_000);
  });
});

describe('daySlots', () => {
  const base = {
    zone: 'Europe/Berlin',
    weekly: DAILY('08:00', '22:00'),
    specialDates: [] as SpecialDay[],
    rules: RULES,
    blocked: [] as BlockedRange[],
    now: EARLIER,
  };
  const hourly = (from: number, to: number) =>
    Array.from(
      { length: to - from },
      (_, i) => `${String(from + i).padStart(2, '0')}:00-${String(from + i + 1).padStart(2, '0')}:00`,
    );

  it.each([
    ['an ordinary day', 'Europe/Berlin', '2026-11-20'],
    ['the spring DST change', 'Europe/Berlin', '2026-03-29'],
    ['the autumn DST change', 'Europe/Berlin', '2026-10-25'],
    ['the New York spring change', 'America/New_York', '2026-03-08'],
    ['the New York autumn change', 'America/New_York', '2026-11-01'],
    ['the Auckland autumn change', 'Pacific/Auckland', '2026-04-05'],
  ])('keeps local opening hours on %s', (_name, zone, date) => {
    const slots = daySlots({ ...base, zone, date, now: new Date(`${date.slice(0, 4)}-01-01T00:00:00Z`) });
    expect(labels(slots)).toEqual(hourly(8, 22));
    expect(slots.every((s) => s.available)).toBe(true);
  });

  it('skips the missing hour on a night opening across the spring change (Berlin)', () => {
    const slots = daySlots({
      ...base,
      weekly: DAILY('00:00', '06:00'),
      date: '2026-03-29',
      now: utc('2026-01-01T00:00:00Z'),
    });
    expect(labels(slots)).toEqual(['00:00-01:00', '01:00-03:00', '03:00-04:00', '04:00-05:00', '05:00-06:00']);
  });

  it('repeats the doubled hour on a night opening across the autumn change (Berlin)', () => {
    const slots = daySlots({
      ...base,
      weekly: DAILY('00:00', '06:00'),
      date: '2026-10-25',
      now: utc('2026-01-01T00:00:00Z'),
    });
    expect(labels(slots)).toEqual([
      '00:00-01:00',
      '01:00-02:00',
      '02:00-02:00',
      '02:00-03:00',
      '03:00-04:00',
      '04:00-05:00',
      '05:00-06:00',
    ]);
  });

  it('labels a closing time of 24:00 as 24:00', () => {
    const slots = daySlots({ ...base, weekly: DAILY('22:00', '24:00'), date: '2026-11-20' });
    expect(labels(slots)).toEqual(['22:00-23:00', '23:00-24:00']);
  });

  it('has no slots on a closed special date or a weekday without hours', () => {
    expect(
      daySlots({
        ...base,
        date: '2026-12-24',
        specialDates: [{ date: '2026-12-24', closed: true, open: null, close: null }],
      }),
    ).toEqual([]);
    expect(daySlots({ ...base, weekly: { monday: { open: '08:00', close: '22:00' } }, date: '2026-11-22' })).toEqual(
      [],
    );
  });

  it('uses the hours of a special date that overrides them', () => {
    const slots = daySlots({
      ...base,
      date: '2026-12-24',
      specialDates: [{ date: '2026-12-24', closed: false, open: '10:00', close: '13:00' }],
    });
    expect(labels(slots)).toEqual(hourly(10, 13));
  });

  // The object's bookings, as blocked ranges [start, end + buffer); 10:00–11:00 local is 09:00–10:00Z.
  const booked10to11: BlockedRange = { start: utc('2026-11-20T09:00:00Z'), until: utc('2026-11-20T10:00:00Z') };
  const booked10to11buffer15: BlockedRange = { start: utc('2026-11-20T09:00:00Z'), until: utc('2026-11-20T10:15:00Z') };
  const unavailable = (slots: { start: string; available: boolean }[]) =>
    slots.filter((s) => !s.available).map((s) => s.start);

  it.each([
    ['no bookings', [], 0, []],
    ['a booking 10–11', [booked10to11], 0, ['10:00']],
    ['a booking 10–11 with a 15-minute buffer of its own', [booked10to11buffer15], 0, ['10:00', '11:00']],
    ['a booking 10–11 and this object’s 15-minute buffer', [booked10to11], 15, ['09:00', '10:00']],
    ['both buffers', [booked10to11buffer15], 15, ['09:00', '10:00', '11:00']],
  ] as const)('with %s, unavailable slots start at %j', (_name, blocked, bufferMinutes, expected) => {
    const slots = daySlots({
      ...base,
      date: '2026-11-20',
      now: utc('2026-11-01T00:00:00Z'),
      blocked: [...blocked],
      rules: { ...RULES, bufferMinutes },
    });
    expect(unavailable(slots)).toEqual(expected);
  });

  it.each([
    // now (UTC), minAdvanceMinutes, maxAdvanceDays, unavailable slot starts on 2026-11-20 (Berlin)
    ['2026-11-20T10:30:00Z', 0, 365, ['08:00', '09:00', '10:00', '11:00']],
    ['2026-11-20T10:00:00Z', 0, 365, ['08:00', '09:00', '10:00']],
    ['2026-11-20T10:00:00Z', 120, 365, ['08:00', '09:00', '10:00', '11:00', '12:00']],
    ['2026-11-19T16:00:00Z', 0, 1, ['18:00', '19:00', '20:00', '21:00']],
    ['2026-11-10T00:00:00Z', 0, 1, hourly(8, 22).map((l) => l.slice(0, 5))],
  ] as const)(
    'at %s with minAdvance %i and maxAdvanceDays %i, slots %j are unavailable',
    (now, minAdvanceMinutes, maxAdvanceDays, expected) => {
      const slots = daySlots({
        ...base,
        date: '2026-11-20',
        now: utc(now),
        rules: { ...RULES, minAdvanceMinutes, maxAdvanceDays },
      });
      expect(unavailable(slots)).toEqual(expected);
    },
  );
});

describe('latestStart', () => {
  it.each([
    // a local calendar day across the spring change is 23 hours, across the autumn change 25
    ['2026-03-28T09:00:00Z', 'Europe/Berlin', 1, '2026-03-29T08:00:00.000Z'],
    ['2026-10-24T09:00:00Z', 'Europe/Berlin', 1, '2026-10-25T10:00:00.000Z'],
    ['2026-11-20T09:00:00Z', 'Europe/Berlin', 30, '2026-12-20T09:00:00.000Z'],
    ['2026-11-20T09:00:00Z', 'UTC', 0, '2026-11-20T09:00:00.000Z'],
  ])('from %s in %s, %i days ahead is %s', (now, zone, days, expected) => {
    expect(latestStart(utc(now), zone, days).toISOString()).toBe(expected);
  });
});

describe('local dates and weekdays without Luxon agree with Luxon', () => {
  const ZONES = [
    'Europe/Berlin',
    'America/New_York',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'Australia/Lord_Howe',
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
    'UTC',
  ];

  it('localDateOf: 9 zones × 2,000 instants from 1970 to 2100, transitions included', () => {
    // Whole minutes from 1970 to 2100: the offsets localDateOf remembers are per minute.
    const instant = fc.integer({ min: 0, max: 68_400_000 }).map((minutes) => new Date(minutes * 60_000));
    for (const zone of ZONES) {
      fc.assert(
        fc.property(instant, (at) => {
          expect([zone, at.toISOString(), localDateOf(at, zone)]).toEqual([
            zone,
            at.toISOString(),
            DateTime.fromJSDate(at, { zone }).toISODate(),
          ]);
        }),
        { numRuns: 2_000, seed: 7 },
      );
    }
  });

  it('localDateOf at the minutes around DST changes in Berlin and New York', () => {
    for (const [zone, at] of [
      ['Europe/Berlin', '2026-03-29T01:00:00Z'],
      ['Europe/Berlin', '2026-10-25T01:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['America/New_York', '2026-11-01T06:00:00Z'],
      ['Pacific/Kiritimati', '2026-11-20T09:59:00Z'],
    ] as const) {
      for (let minutes = -90; minutes <= 90; minutes += 1) {
        const instant = new Date(Date.parse(at) + minutes * 60_000);
        expect(localDateOf(instant, zone)).toBe(DateTime.fromJSDate(instant, { zone }).toISODate());
      }
    }
  });

  it('weekdayOf: 3,000 dates in the years 0001–9999', () => {
    const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const date = fc
      .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([year, month, day]) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`);
    fc.assert(
      fc.property(date, (value) => {
        expect([value, weekdayOf(value)]).toEqual([value, names[DateTime.fromISO(value, { zone: 'UTC' }).weekday - 1]]);
      }),
      { numRuns: 3_000, seed: 7 },
    );
  });
});

describe('freeStarts', () => {
  const base = {
    zone: 'Europe/Berlin',
    date: '2026-11-21',
    weekly: DAILY('08:00', '12:00'),
    specialDates: [] as SpecialDay[],
    rules: RULES,
    now: EARLIER,
  };
  const starts = (input: Partial<Parameters<typeof freeStarts>[0]>) =>
    freeStarts({ ...base, blocked: [], durationMinutes: 60, ...input }).map((s) => `${s.startLabel}-${s.endLabel}`);

  it.each([
    ['one-hour starts end by closing', {}, ['08:00-09:00', '09:00-10:00', '10:00-11:00', '11:00-12:00']],
    [
      'two hours: the last start is two hours before closing',
      { durationMinutes: 120 },
      ['08:00-10:00', '09:00-11:00', '10:00-12:00'],
    ],
    [
      'a booking 09:00–10:00 (UTC 08:00) blocks every start that would overlap it',
      { durationMinutes: 120, blocked: [{ start: utc('2026-11-21T08:00:00Z'), until: utc('2026-11-21T09:00:00Z') }] },
      ['10:00-12:00'],
    ],
    [
      'the buffer after the new time must be free too',
      {
        rules: { ...RULES, bufferMinutes: 30 },
        blocked: [{ start: utc('2026-11-21T09:00:00Z'), until: utc('2026-11-21T10:00:00Z') }],
      },
      ['08:00-09:00', '11:00-12:00'],
    ],
    ['none in the past', { now: utc('2026-11-21T09:30:00Z') }, ['11:00-12:00']],
    ['a closed day has none', { specialDates: [{ date: '2026-11-21', closed: true, open: null, close: null }] }, []],
  ])('%s', (_, input, expected) => {
    expect(starts(input as Partial<Parameters<typeof freeStarts>[0]>)).toEqual(expected);
  });
});
