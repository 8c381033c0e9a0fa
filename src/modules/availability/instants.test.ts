import { describe, expect, it } from 'vitest';
import { localDateTimeIn, slotTimes, utcInstant, wallClockInstant } from './instants.js';
import { computeSchedule } from './slots.js';

// The pure time conversion of availability (instants.ts), table-driven: ordinary days, the
// Europe/Berlin DST days (2026-03-29 spring forward 02:00 → 03:00, 2026-10-25 fall back 03:00 →
// 02:00), 24:00, and zones whose offset is no whole hour (Asia/Kolkata +05:30, Asia/Kathmandu
// +05:45). The unit project also runs under other TZ settings: nothing here may depend on it.

describe('wallClockInstant', () => {
  it.each([
    // zone, date, time, instant
    ['Europe/Berlin', '2026-12-04', '08:00', '2026-12-04T07:00:00.000Z'],
    ['Europe/Berlin', '2026-07-01', '08:00', '2026-07-01T06:00:00.000Z'],
    ['Europe/Berlin', '2026-12-04', '24:00', '2026-12-04T23:00:00.000Z'],
    // spring forward: 01:00 is CET, 03:00 CEST; the skipped 02:30 moves forward by the gap
    ['Europe/Berlin', '2026-03-29', '00:00', '2026-03-28T23:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '01:00', '2026-03-29T00:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '02:30', '2026-03-29T01:30:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '03:00', '2026-03-29T01:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '24:00', '2026-03-29T22:00:00.000Z'], // a 23-hour day
    // fall back: the repeated 02:30 is read as its second (standard-time) occurrence, as Luxon reads it
    ['Europe/Berlin', '2026-10-25', '00:00', '2026-10-24T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '02:30', '2026-10-25T01:30:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '03:00', '2026-10-25T02:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '24:00', '2026-10-25T23:00:00.000Z'], // a 25-hour day
    ['Asia/Kolkata', '2026-03-29', '09:00', '2026-03-29T03:30:00.000Z'],
    ['Asia/Kolkata', '2026-03-29', '24:00', '2026-03-29T18:30:00.000Z'],
    ['Asia/Kathmandu', '2026-03-29', '00:15', '2026-03-28T18:30:00.000Z'],
    ['America/New_York', '2026-03-08', '03:00', '2026-03-08T07:00:00.000Z'],
    ['UTC', '2026-12-31', '24:00', '2027-01-01T00:00:00.000Z'],
  ])('%s %s %s is %s', (zone, date, time, instant) => {
    expect(wallClockInstant(zone, date, time).toISOString()).toBe(instant);
  });

  it('refuses an unknown zone', () => {
    expect(() => wallClockInstant('Mars/Olympus', '2026-03-29', '08:00')).toThrow(RangeError);
  });
});

describe('localDateTimeIn', () => {
  it.each([
    // instant, zone, local date and time
    ['2026-03-29T00:59:00.000Z', 'Europe/Berlin', '2026-03-29T01:59:00+01:00'],
    ['2026-03-29T01:00:00.000Z', 'Europe/Berlin', '2026-03-29T03:00:00+02:00'],
    ['2026-10-25T00:30:00.000Z', 'Europe/Berlin', '2026-10-25T02:30:00+02:00'],
    ['2026-10-25T01:30:00.000Z', 'Europe/Berlin', '2026-10-25T02:30:00+01:00'],
    ['2026-03-29T01:00:00.000Z', 'Asia/Kolkata', '2026-03-29T06:30:00+05:30'],
    ['2026-03-29T20:00:00.000Z', 'Asia/Kolkata', '2026-03-30T01:30:00+05:30'], // the next local date
    ['2026-03-29T01:00:00.000Z', 'Asia/Kathmandu', '2026-03-29T06:45:00+05:45'],
    ['2026-03-29T01:00:00.000Z', 'America/New_York', '2026-03-28T21:00:00-04:00'],
    ['2026-03-29T01:00:00.500Z', 'UTC', '2026-03-29T01:00:00.500+00:00'],
    ['2026-03-29T01:00:00.000Z', 'UTC', '2026-03-29T01:00:00+00:00'],
  ])('%s in %s is %s', (instant, zone, local) => {
    expect(localDateTimeIn(Date.parse(instant), zone)).toBe(local);
  });

  it('names the same instant in every zone', () => {
    for (const zone of ['Europe/Berlin', 'Asia/Kolkata', 'America/New_York', 'Pacific/Chatham']) {
      const at = Date.parse('2026-10-25T01:30:00.000Z');
      expect(Date.parse(localDateTimeIn(at, zone)), zone).toBe(at);
    }
  });
});

describe('slotTimes', () => {
  const slot = { start: Date.parse('2026-03-29T01:00:00.000Z'), end: Date.parse('2026-03-29T02:00:00.000Z') };

  it('gives the instants, and the local times only with a caller zone', () => {
    expect(slotTimes(slot, null)).toEqual({
      startTime: '2026-03-29T01:00:00.000Z',
      endTime: '2026-03-29T02:00:00.000Z',
      localStart: null,
      localEnd: null,
    });
    expect(slotTimes(slot, 'Asia/Kolkata')).toEqual({
      startTime: '2026-03-29T01:00:00.000Z',
      endTime: '2026-03-29T02:00:00.000Z',
      localStart: '2026-03-29T06:30:00+05:30',
      localEnd: '2026-03-29T07:30:00+05:30',
    });
    expect(utcInstant(slot.start)).toBe('2026-03-29T01:00:00.000Z');
  });
});

describe("a day's slots: labels and instants", () => {
  /** Each slot as `label-label startTime-endTime` (times as UTC HH:MM; with the date where it is another day). */
  const grid = (zone: string, date: string, open: string, close: string, increment = 60, caller?: string) =>
    computeSchedule(zone, date, { open, close }, increment).map((s) => {
      const times = slotTimes(s, caller);
      return [`${s.startLabel}-${s.endLabel}`, times.startTime, times.endTime, times.localStart, times.localEnd];
    });

  it.each([
    [
      'spring forward (Berlin): 01:00-03:00 is one hour, 03:00 is 01:00Z',
      grid('Europe/Berlin', '2026-03-29', '00:00', '04:00'),
      [
        ['00:00-01:00', '2026-03-28T23:00:00.000Z', '2026-03-29T00:00:00.000Z', null, null],
        ['01:00-03:00', '2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', null, null],
        ['03:00-04:00', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z', null, null],
      ],
    ],
    [
      'fall back (Berlin): 02:00 is read twice, the hour 00:00Z-01:00Z is labelled 02:00-02:00',
      grid('Europe/Berlin', '2026-10-25', '01:00', '04:00'),
      [
        ['01:00-02:00', '2026-10-24T23:00:00.000Z', '2026-10-25T00:00:00.000Z', null, null],
        ['02:00-02:00', '2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', null, null],
        ['02:00-03:00', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z', null, null],
        ['03:00-04:00', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z', null, null],
      ],
    ],
    [
      'a slot ending 24:00 ends at the next local midnight (a 25-hour day)',
      grid('Europe/Berlin', '2026-10-25', '22:00', '24:00'),
      [
        ['22:00-23:00', '2026-10-25T21:00:00.000Z', '2026-10-25T22:00:00.000Z', null, null],
        ['23:00-24:00', '2026-10-25T22:00:00.000Z', '2026-10-25T23:00:00.000Z', null, null],
      ],
    ],
    [
      'Berlin slots shown in Asia/Kolkata (+05:30, the next date after 18:30Z)',
      grid('Europe/Berlin', '2026-03-29', '20:00', '24:00', 120, 'Asia/Kolkata'),
      [
        [
          '20:00-22:00',
          '2026-03-29T18:00:00.000Z',
          '2026-03-29T20:00:00.000Z',
          '2026-03-29T23:30:00+05:30',
          '2026-03-30T01:30:00+05:30',
        ],
        [
          '22:00-24:00',
          '2026-03-29T20:00:00.000Z',
          '2026-03-29T22:00:00.000Z',
          '2026-03-30T01:30:00+05:30',
          '2026-03-30T03:30:00+05:30',
        ],
      ],
    ],
    [
      'Kolkata slots of 30 minutes shown in Berlin on its spring-forward day',
      grid('Asia/Kolkata', '2026-03-29', '06:00', '07:30', 30, 'Europe/Berlin'),
      [
        [
          '06:00-06:30',
          '2026-03-29T00:30:00.000Z',
          '2026-03-29T01:00:00.000Z',
          '2026-03-29T01:30:00+01:00',
          '2026-03-29T03:00:00+02:00',
        ],
        [
          '06:30-07:00',
          '2026-03-29T01:00:00.000Z',
          '2026-03-29T01:30:00.000Z',
          '2026-03-29T03:00:00+02:00',
          '2026-03-29T03:30:00+02:00',
        ],
        [
          '07:00-07:30',
          '2026-03-29T01:30:00.000Z',
          '2026-03-29T02:00:00.000Z',
          '2026-03-29T03:30:00+02:00',
          '2026-03-29T04:00:00+02:00',
        ],
      ],
    ],
  ])('%s', (_, actual, expected) => {
    expect(actual).toEqual(expected);
  });
});
