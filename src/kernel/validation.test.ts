import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Settings } from 'luxon';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  isEmail,
  isHhmm,
  isLocalDate,
  isNonEmptyString,
  isTimeZone,
  isUuid,
  isWeekday,
  minutesOfDay,
  parseBoundary,
  parseCommonInstant,
  parseInstant,
} from './validation.js';

// The checks must not depend on the server's own zone: run every table under several TZs.
const ZONES = ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Pacific/Chatham'];

describe.each(ZONES)('validation under TZ=%s', (zone) => {
  const saved = { tz: process.env.TZ, luxon: Settings.defaultZone };
  beforeAll(() => {
    process.env.TZ = zone;
    Settings.defaultZone = zone;
  });
  afterAll(() => {
    if (saved.tz === undefined) delete process.env.TZ;
    else process.env.TZ = saved.tz;
    Settings.defaultZone = saved.luxon;
  });

  it.each([
    ['00:00', false, true],
    ['08:30', false, true],
    ['23:59', false, true],
    ['24:00', false, false],
    ['24:00', true, true],
    ['24:01', true, false],
    ['7:00', false, false],
    ['07:60', false, false],
    ['0800', false, false],
    ['08:00:00', false, false],
    [' 08:00', false, false],
    [800, false, false],
    [null, true, false],
  ])('isHhmm(%j, allowEndOfDay=%s) is %s', (value, endOfDay, expected) => {
    expect(isHhmm(value, endOfDay)).toBe(expected);
  });

  it.each([
    ['00:00', 0],
    ['08:30', 510],
    ['23:59', 1439],
    ['24:00', 1440],
  ])('minutesOfDay(%s) is %i', (value, expected) => {
    expect(minutesOfDay(value)).toBe(expected);
  });

  it.each([
    ['2026-12-24', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['20261224', false],
    ['2026-12-24T00:00', false],
    // the day DST starts at midnight in some zones is still a valid date everywhere
    ['2026-03-29', true],
    [20261224, false],
  ])('isLocalDate(%j) is %s', (value, expected) => {
    expect(isLocalDate(value)).toBe(expected);
  });

  it.each([
    ['Europe/Berlin', true],
    ['UTC', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Mars/Base', false],
    ['+01:00', false],
    ['', false],
    [undefined, false],
    [1, false],
  ])('isTimeZone(%j) is %s', (value, expected) => {
    expect(isTimeZone(value)).toBe(expected);
  });

  it.each([
    ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20T10:00:00.500Z', '2026-11-20T10:00:00.500Z'],
    ['2026-11-20T11:00:00+01:00', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20T05:00:00-0500', '2026-11-20T10:00:00.000Z'],
    // DST change in Berlin: the offset given decides, never the server's zone
    ['2026-10-25T02:30:00+01:00', '2026-10-25T01:30:00.000Z'],
    ['2026-10-25T02:30:00+02:00', '2026-10-25T00:30:00.000Z'],
  ])('parseInstant(%s) is %s', (value, expected) => {
    expect(parseInstant(value)?.toISOString()).toBe(expected);
  });

  it.each([['2026-11-20T10:00:00'], ['2026-11-20'], ['2026-11-20T25:00:00Z'], ['tomorrow'], [''], [42], [null]])(
    'parseInstant(%j) refuses a value without an explicit offset or not a timestamp',
    (value) => {
      expect(parseInstant(value)).toBeUndefined();
    },
  );

  // The fast reader of common timestamps must agree with Luxon wherever it answers, and leave to
  // Luxon whatever it does not read.
  const luxonInstant = (value: string) => {
    const dt = DateTime.fromISO(value, { setZone: true });
    return dt.isValid ? dt.toJSDate().getTime() : undefined;
  };
  it.each([
    '2026-11-20T10:00:00Z',
    '2026-11-20T10:00Z',
    '2026-11-20T10:00:00.1Z',
    '2026-11-20T10:00:00.12Z',
    '2026-11-20T10:00:00.999Z',
    '2026-11-20T10:00:00.9999Z',
    '2026-11-20T10:00:00.123456789Z',
    '2026-11-20T10:00:00.001+05:30',
    '2026-11-20T23:59:59-12:00',
    '2026-11-20T00:00:00+14:00',
    '2026-11-20T00:00:00+0545',
    '2024-02-29T12:00:00Z',
    '2000-02-29T12:00:00Z',
    '0001-01-01T00:00:00Z',
    '0099-06-15T12:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ])('parseCommonInstant(%s) agrees with Luxon', (value) => {
    expect(parseCommonInstant(value)?.getTime()).toBe(luxonInstant(value));
  });

  it.each([
    '2026-02-29T10:00:00Z',
    '1900-02-29T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-00-10T10:00:00Z',
    '2026-11-00T10:00:00Z',
    '2026-11-20T24:00:00Z',
    '2026-11-20T10:60:00Z',
    '2026-11-20T10:00:60Z',
    '2026-11-20T10:00:00+24:00',
    '2026-11-20T10:00:00+01:60',
    '2026-11-20T10:00:00,5Z',
    '2026-11-20T10:00:00z',
    '20261120T100000Z',
    '2026-W47-5T10:00:00Z',
    '2026-324T10:00:00Z',
    '2026-11-20T10Z',
    '2026-11-20T10:00:00',
    '+002026-11-20T10:00:00Z',
    '2026-11-20T10:00:00.Z',
    '2026-11-20T10:00:00.1234567890Z',
  ])('parseCommonInstant(%s) leaves it to Luxon', (value) => {
    expect(parseCommonInstant(value)).toBeUndefined();
  });

  it('parseInstant reads 20,000 generated timestamps as Luxon does', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const digits = (max: number, width = 2) => fc.integer({ min: 0, max }).map((n) => pad(n, width));
    const fraction = fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/));
    const seconds = fc.oneof(
      fc.constant(''),
      fc.tuple(digits(61), fraction).map(([ss, f]) => `:${ss}${f}`),
    );
    const offset = fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), digits(24), fc.constantFrom(':', ''), digits(60))
        .map((parts) => parts.join('')),
    );
    const timestamp = fc
      .tuple(fc.integer({ min: 1, max: 9999 }), digits(13), digits(32), digits(25), digits(61), seconds, offset)
      .map(
        ([year, month, day, hour, minute, ss, zone]) => `${pad(year, 4)}-${month}-${day}T${hour}:${minute}${ss}${zone}`,
      );
    fc.assert(
      fc.property(timestamp, (value) => {
        const expected = luxonInstant(value);
        const actual = parseInstant(value)?.getTime();
        if (actual !== undefined) expect([value, actual]).toEqual([value, expected]);
        else if (expected !== undefined)
          expect([
            value,
            new Date(expected).getUTCFullYear() < 1 || new Date(expected).getUTCFullYear() > 9999,
          ]).toEqual([value, true]);
      }),
      { numRuns: 20_000, seed: 42 },
    );
  });

  it.each([
    ['2026-11-20', '2026-11-20T00:00:00.000Z'],
    ['2026-03-29', '2026-03-29T00:00:00.000Z'],
    ['2026-11-20T10:00:00+01:00', '2026-11-20T09:00:00.000Z'],
  ])('parseBoundary(%s) is %s (a date is midnight UTC)', (value, expected) => {
    expect(parseBoundary(value)?.toISOString()).toBe(expected);
  });

  it.each([['2026-11-20T10:00:00'], ['2026-02-30'], ['2026-1-2'], ['tomorrow'], [''], [null]])(
    'parseBoundary(%j) refuses it',
    (value) => {
      expect(parseBoundary(value)).toBeUndefined();
    },
  );

  it('parseInstant passes a valid Date through and refuses an invalid one', () => {
    const date = new Date('2026-11-20T10:00:00Z');
    expect(parseInstant(date)).toBe(date);
    expect(parseInstant(new Date('nope'))).toBeUndefined();
  });
});

describe('identifiers and strings', () => {
  it.each([
    ['0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', true],
    ['0f8fad5b-d9cb-469f-a165-70867728950', false],
    ['0f8fad5bd9cb469fa16570867728950e', false],
    ['abc', false],
    ['', false],
    [null, false],
  ])('isUuid(%j) is %s', (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });

  it.each([
    ['ada@example.com', true],
    ['a.b+c@sub.example.org', true],
    ['ada@example', false],
    ['ada example.com', false],
    ['@example.com', false],
    [`${'a'.repeat(250)}@x.de`, false],
    [null, false],
  ])('isEmail(%j) is %s', (value, expected) => {
    expect(isEmail(value)).toBe(expected);
  });

  it.each([
    ['Court 1', 200, true],
    ['', 200, false],
    ['   ', 200, false],
    ['a'.repeat(200), 200, true],
    ['a'.repeat(201), 200, false],
    ['a'.repeat(500), 500, true],
    [7, 200, false],
  ])('isNonEmptyString(%j, %i) is %s', (value, max, expected) => {
    expect(isNonEmptyString(value, max)).toBe(expected);
  });

  it.each([
    ['monday', true],
    ['sunday', true],
    ['Monday', false],
    ['mon', false],
    ['', false],
  ])('isWeekday(%j) is %s', (value, expected) => {
    expect(isWeekday(value)).toBe(expected);
  });
});
