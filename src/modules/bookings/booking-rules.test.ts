import { describe, expect, it } from 'vitest';
import type { WeeklySchedule } from '../../kernel/db/types.js';
import type { SpecialDay } from '../availability/slots.js';
import { validateBookingWindow, type BookingWindowObject } from './booking-rules.js';

// Run under several TZ values by `npm run test:tz`: instants are written with explicit offsets.

const MON_TO_SAT: WeeklySchedule = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [
    d,
    { open: '08:00', close: '22:00' },
  ]),
);

const OBJECT: BookingWindowObject = {
  opening_hours: MON_TO_SAT,
  min_duration_minutes: 60,
  max_duration_minutes: 180,
  slot_increment_minutes: 30,
  min_advance_minutes: 120,
  max_advance_days: 60,
};

const SPECIAL: SpecialDay[] = [
  { date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null },
  { date: '2026-11-28', closed: false, reason: 'Tournament', open: '10:00', close: '14:00' },
];

// Friday 2026-11-20, 10:00 in Berlin.
const NOW = new Date('2026-11-20T10:00:00+01:00');

const codes = (start: string, end: string, object = OBJECT, now = NOW, zone = 'Europe/Berlin') =>
  validateBookingWindow(object, zone, SPECIAL, new Date(start), new Date(end), now).map((e) => `${e.field}:${e.code}`);

describe('validateBookingWindow', () => {
  it.each([
    ['a valid booking', '2026-11-21T10:00:00+01:00', '2026-11-21T11:00:00+01:00', []],
    ['a valid booking on the half hour', '2026-11-21T10:30:00+01:00', '2026-11-21T12:00:00+01:00', []],
    ['a valid booking ending at closing', '2026-11-21T19:00:00+01:00', '2026-11-21T22:00:00+01:00', []],
    ['a valid booking given in UTC', '2026-11-21T09:00:00Z', '2026-11-21T10:00:00Z', []],
    ['end equal to start', '2026-11-21T10:00:00+01:00', '2026-11-21T10:00:00+01:00', ['endTime:invalid_time_range']],
    ['end before start', '2026-11-21T11:00:00+01:00', '2026-11-21T10:00:00+01:00', ['endTime:invalid_time_range']],
    [
      'shorter than the minimum',
      '2026-11-21T10:00:00+01:00',
      '2026-11-21T10:30:00+01:00',
      ['endTime:duration_out_of_range'],
    ],
    [
      'longer than the maximum',
      '2026-11-21T10:00:00+01:00',
      '2026-11-21T14:00:00+01:00',
      ['endTime:duration_out_of_range'],
    ],
    [
      'not a whole number of minutes',
      '2026-11-21T10:00:00+01:00',
      '2026-11-21T11:00:30+01:00',
      ['endTime:duration_out_of_range'],
    ],
    ['off the slot grid', '2026-11-21T10:15:00+01:00', '2026-11-21T11:15:00+01:00', ['startTime:start_not_aligned']],
    [
      'a few seconds off the slot grid',
      '2026-11-21T10:00:05+01:00',
      '2026-11-21T11:00:05+01:00',
      ['startTime:start_not_aligned'],
    ],
    ['before opening', '2026-11-21T07:00:00+01:00', '2026-11-21T08:00:00+01:00', ['startTime:outside_opening_hours']],
    ['after closing', '2026-11-21T21:30:00+01:00', '2026-11-21T22:30:00+01:00', ['endTime:outside_opening_hours']],
    ['across midnight', '2026-11-21T23:00:00+01:00', '2026-11-22T00:00:00+01:00', ['startTime:outside_opening_hours']],
    [
      'on a weekday without hours (Sunday)',
      '2026-11-22T10:00:00+01:00',
      '2026-11-22T11:00:00+01:00',
      ['startTime:outside_opening_hours'],
    ],
    ['on a closed special date', '2026-12-24T10:00:00+01:00', '2026-12-24T11:00:00+01:00', ['startTime:closed_date']],
    ['inside the hours of a special date', '2026-11-28T10:00:00+01:00', '2026-11-28T11:00:00+01:00', []],
    [
      'before the special opening',
      '2026-11-28T09:00:00+01:00',
      '2026-11-28T10:00:00+01:00',
      ['startTime:outside_opening_hours'],
    ],
    [
      'after the special closing',
      '2026-11-28T13:30:00+01:00',
      '2026-11-28T14:30:00+01:00',
      ['endTime:outside_opening_hours'],
    ],
    [
      'aligned to the special opening, not the weekday one',
      '2026-11-28T10:30:00+01:00',
      '2026-11-28T11:30:00+01:00',
      [],
    ],
    [
      'inside the minimum notice',
      '2026-11-20T11:00:00+01:00',
      '2026-11-20T12:00:00+01:00',
      ['startTime:too_short_notice'],
    ],
    ['exactly at the minimum notice', '2026-11-20T12:00:00+01:00', '2026-11-20T13:00:00+01:00', []],
    ['in the past', '2026-11-19T10:00:00+01:00', '2026-11-19T11:00:00+01:00', ['startTime:too_short_notice']],
    ['exactly at the maximum advance', '2027-01-19T10:00:00+01:00', '2027-01-19T11:00:00+01:00', []],
    [
      'beyond the maximum advance',
      '2027-01-19T10:30:00+01:00',
      '2027-01-19T11:30:00+01:00',
      ['startTime:too_far_ahead'],
    ],
    [
      'several rules at once, in the documented order',
      '2026-11-20T07:15:00+01:00',
      '2026-11-20T07:30:00+01:00',
      ['endTime:duration_out_of_range', 'startTime:outside_opening_hours', 'startTime:too_short_notice'],
    ],
  ])('%s', (_name, start, end, expected) => {
    expect(codes(start, end)).toEqual(expected);
  });

  it('names the rule in a readable message', () => {
    const [error] = validateBookingWindow(
      OBJECT,
      'Europe/Berlin',
      SPECIAL,
      new Date('2026-11-21T10:15:00+01:00'),
      new Date('2026-11-21T11:15:00+01:00'),
      NOW,
    );
    expect(error?.message).toBe('must start on the 30-minute grid from opening (08:00), e.g. 10:00 or 10:30');
    const [closed] = validateBookingWindow(
      OBJECT,
      'Europe/Berlin',
      SPECIAL,
      new Date('2026-12-24T10:00:00+01:00'),
      new Date('2026-12-24T11:00:00+01:00'),
      NOW,
    );
    expect(closed?.message).toBe('the object is closed on 2026-12-24 (Christmas Eve)');
  });

  it('says "must not be in the past" without a minimum notice', () => {
    const [error] = validateBookingWindow(
      { ...OBJECT, min_advance_minutes: 0 },
      'Europe/Berlin',
      [],
      new Date('2026-11-20T08:00:00+01:00'),
      new Date('2026-11-20T09:00:00+01:00'),
      NOW,
    );
    expect(error).toEqual({ field: 'startTime', code: 'too_short_notice', message: 'must not be in the past' });
  });

  describe('across daylight-saving changes (Europe/Berlin, hourly grid)', () => {
    const DAILY: BookingWindowObject = {
      ...OBJECT,
      opening_hours: { ...MON_TO_SAT, sunday: { open: '08:00', close: '22:00' } },
      slot_increment_minutes: 60,
      min_advance_minutes: 0,
      max_advance_days: 365,
    };
    const before = new Date('2026-03-01T00:00:00Z');
    it.each([
      // Sunday 2026-03-29: clocks go from 02:00 CET to 03:00 CEST, so 08:00 local is 06:00Z.
      ['08:00 CEST on the spring change', '2026-03-29T06:00:00Z', '2026-03-29T07:00:00Z', []],
      [
        '07:00 CEST (one hour early in CET terms)',
        '2026-03-29T05:00:00Z',
        '2026-03-29T06:00:00Z',
        ['startTime:outside_opening_hours'],
      ],
      ['21:00–22:00 CEST', '2026-03-29T19:00:00Z', '2026-03-29T20:00:00Z', []],
      ['21:00–23:00 CEST', '2026-03-29T19:00:00Z', '2026-03-29T21:00:00Z', ['endTime:outside_opening_hours']],
      // Sunday 2026-10-25: clocks go from 03:00 CEST back to 02:00 CET, so 08:00 local is 07:00Z.
      ['08:00 CET on the autumn change', '2026-10-25T07:00:00Z', '2026-10-25T08:00:00Z', []],
      ['07:00 CET', '2026-10-25T06:00:00Z', '2026-10-25T07:00:00Z', ['startTime:outside_opening_hours']],
      ['21:00–22:00 CET', '2026-10-25T20:00:00Z', '2026-10-25T21:00:00Z', []],
    ])('%s', (_name, start, end, expected) => {
      expect(codes(start, end, DAILY, before)).toEqual(expected);
    });

    it('counts maxAdvanceDays in local calendar days (a 23-hour day in spring)', () => {
      const object = { ...DAILY, max_advance_days: 1 };
      const now = new Date('2026-03-28T10:00:00+01:00');
      expect(codes('2026-03-29T10:00:00+02:00', '2026-03-29T11:00:00+02:00', object, now)).toEqual([]);
      expect(codes('2026-03-29T11:00:00+02:00', '2026-03-29T12:00:00+02:00', object, now)).toEqual([
        'startTime:too_far_ahead',
      ]);
    });
  });

  it('reads hours in the accommodation’s zone, not the machine’s', () => {
    const object = { ...OBJECT, min_advance_minutes: 0 };
    // 08:00 in New York is 13:00Z in November; in Berlin that instant is 14:00.
    expect(codes('2026-11-21T13:00:00Z', '2026-11-21T14:00:00Z', object, NOW, 'America/New_York')).toEqual([]);
    expect(codes('2026-11-21T12:00:00Z', '2026-11-21T13:00:00Z', object, NOW, 'America/New_York')).toEqual([
      'startTime:outside_opening_hours',
    ]);
    expect(codes('2026-11-21T10:00:00Z', '2026-11-21T11:00:00Z', object, NOW, 'Pacific/Auckland')).toEqual([
      'startTime:outside_opening_hours',
    ]);
  });
});
