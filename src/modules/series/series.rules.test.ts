import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { MAX_OCCURRENCES, RuleError, expandRule, formatRule, parseRule } from './series.rules.js';

const BERLIN = 'Europe/Berlin';
const berlin = (iso: string) => DateTime.fromISO(iso, { zone: BERLIN }).toJSDate();
/** Local Berlin "yyyy-MM-dd HH:mm ccc" of each start. */
const localStarts = (text: string, first: string, zone = BERLIN, minutes = 60) =>
  expandRule(parseRule(text, zone), DateTime.fromISO(first, { zone }).toJSDate(), minutes, zone).map((o) =>
    DateTime.fromJSDate(o.start, { zone }).toFormat('yyyy-MM-dd HH:mm ccc'),
  );

describe('parseRule / formatRule', () => {
  it.each([
    ['FREQ=WEEKLY;COUNT=3', 'FREQ=WEEKLY;COUNT=3'],
    ['RRULE:freq=weekly;byday=th,tu;count=4', 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4'],
    ['FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TU;COUNT=2', 'FREQ=WEEKLY;BYDAY=TU;COUNT=2'],
    ['FREQ=DAILY;INTERVAL=2;UNTIL=20270301T225959Z', 'FREQ=DAILY;INTERVAL=2;UNTIL=20270301T225959Z'],
    // A date-only UNTIL is the end of that day in the zone (Berlin, UTC+1 in March).
    ['FREQ=WEEKLY;UNTIL=20270301', 'FREQ=WEEKLY;UNTIL=20270301T225959Z'],
    ['FREQ=WEEKLY;WKST=MO;COUNT=1', 'FREQ=WEEKLY;COUNT=1'],
  ])('%s → %s', (input, canonical) => {
    const rule = parseRule(input, BERLIN);
    expect(formatRule(rule)).toBe(canonical);
    expect(formatRule(parseRule(formatRule(rule), BERLIN))).toBe(canonical);
  });

  it.each([
    ['', 'RRULE'],
    ['COUNT=3', 'FREQ'],
    ['FREQ=MONTHLY;COUNT=3', 'FREQ'],
    ['FREQ=YEARLY;COUNT=3', 'FREQ'],
    ['FREQ=WEEKLY', 'COUNT'],
    ['FREQ=WEEKLY;COUNT=3;UNTIL=20270101T000000Z', 'UNTIL'],
    ['FREQ=WEEKLY;COUNT=0', 'COUNT'],
    ['FREQ=WEEKLY;COUNT=-1', 'COUNT'],
    ['FREQ=WEEKLY;COUNT=1.5', 'COUNT'],
    [`FREQ=WEEKLY;COUNT=${MAX_OCCURRENCES + 1}`, 'COUNT'],
    ['FREQ=WEEKLY;INTERVAL=0;COUNT=2', 'INTERVAL'],
    ['FREQ=WEEKLY;INTERVAL=100;COUNT=2', 'INTERVAL'],
    ['FREQ=WEEKLY;UNTIL=tomorrow', 'UNTIL'],
    ['FREQ=WEEKLY;UNTIL=20271341T000000Z', 'UNTIL'],
    ['FREQ=WEEKLY;BYDAY=1MO;COUNT=2', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=XX;COUNT=2', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=;COUNT=2', 'BYDAY'],
    ['FREQ=DAILY;BYDAY=MO;COUNT=2', 'BYDAY'],
    ['FREQ=WEEKLY;BYMONTH=3;COUNT=2', 'BYMONTH'],
    ['FREQ=WEEKLY;BYSETPOS=1;COUNT=2', 'BYSETPOS'],
    ['FREQ=WEEKLY;BYHOUR=18;COUNT=2', 'BYHOUR'],
    ['FREQ=WEEKLY;WKST=SU;COUNT=2', 'WKST'],
    ['FREQ=WEEKLY;COUNT=2;COUNT=3', 'COUNT'],
    ['FREQ=WEEKLY;X-NAME=1;COUNT=2', 'X-NAME'],
    ['FREQ=WEEKLY;COUNT', 'COUNT'],
    ['FREQ=WEEKLY;;COUNT=2', 'RRULE'],
    ['FREQ=WEEKLY;<script>=1', 'RRULE'],
  ])('rejects %j naming %s', (input, part) => {
    let error: unknown;
    try {
      parseRule(input, BERLIN);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleError);
    expect((error as RuleError).part).toBe(part);
    expect((error as RuleError).message.startsWith(`${part}: `)).toBe(true);
  });
});

describe('expandRule', () => {
  it.each([
    [
      'weekly on Tuesdays across the end of DST (25 Oct 2026): 18:00 local each week',
      'FREQ=WEEKLY;BYDAY=TU;COUNT=3',
      '2026-10-20T18:00',
      ['2026-10-20 18:00 Tue', '2026-10-27 18:00 Tue', '2026-11-03 18:00 Tue'],
    ],
    [
      'weekly across the start of DST (28 Mar 2027)',
      'FREQ=WEEKLY;COUNT=3',
      '2027-03-23T18:00',
      ['2027-03-23 18:00 Tue', '2027-03-30 18:00 Tue', '2027-04-06 18:00 Tue'],
    ],
    [
      'two weekdays, starting on the second of them',
      'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=4',
      '2026-12-03T09:30',
      ['2026-12-03 09:30 Thu', '2026-12-07 09:30 Mon', '2026-12-10 09:30 Thu', '2026-12-14 09:30 Mon'],
    ],
    [
      'every other week',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,FR;COUNT=4',
      '2026-12-01T18:00',
      ['2026-12-01 18:00 Tue', '2026-12-04 18:00 Fri', '2026-12-15 18:00 Tue', '2026-12-18 18:00 Fri'],
    ],
    [
      'UNTIL is inclusive (an occurrence starting exactly then is in)',
      'FREQ=WEEKLY;UNTIL=20261215T170000Z',
      '2026-12-01T18:00',
      ['2026-12-01 18:00 Tue', '2026-12-08 18:00 Tue', '2026-12-15 18:00 Tue'],
    ],
    [
      'a date-only UNTIL takes that whole local day',
      'FREQ=DAILY;UNTIL=20261203',
      '2026-12-01T21:00',
      ['2026-12-01 21:00 Tue', '2026-12-02 21:00 Wed', '2026-12-03 21:00 Thu'],
    ],
    [
      'daily with an interval across the DST end',
      'FREQ=DAILY;INTERVAL=3;COUNT=3',
      '2026-10-22T08:00',
      ['2026-10-22 08:00 Thu', '2026-10-25 08:00 Sun', '2026-10-28 08:00 Wed'],
    ],
    [
      'a local time missing on the DST start day moves forward by the gap',
      'FREQ=DAILY;COUNT=3',
      '2027-03-27T02:30',
      ['2027-03-27 02:30 Sat', '2027-03-28 03:30 Sun', '2027-03-29 02:30 Mon'],
    ],
  ])('%s', (_name, rule, first, expected) => {
    expect(localStarts(rule, first)).toEqual(expected);
  });

  it('keeps 18:00 Berlin in all 52 weeks of a year: the UTC hour changes with DST, the local one does not', () => {
    const occurrences = expandRule(parseRule('FREQ=WEEKLY;BYDAY=TU;COUNT=52'), berlin('2026-12-01T18:00'), 90, BERLIN);
    expect(occurrences).toHaveLength(52);
    const utcHours = new Set(occurrences.map((o) => o.start.getUTCHours()));
    expect(utcHours).toEqual(new Set([16, 17]));
    for (const o of occurrences) {
      const local = DateTime.fromJSDate(o.start, { zone: BERLIN });
      expect([local.hour, local.minute, local.weekday]).toEqual([18, 0, 2]);
      expect(o.end.getTime() - o.start.getTime()).toBe(90 * 60_000);
    }
    expect(occurrences.map((o) => o.index)).toEqual([...Array(52).keys()]);
  });

  it('reads the local time in the zone given, not the process zone', () => {
    expect(localStarts('FREQ=WEEKLY;COUNT=2', '2026-10-28T18:00', 'America/New_York')).toEqual([
      '2026-10-28 18:00 Wed',
      '2026-11-04 18:00 Wed',
    ]);
  });

  it.each([
    ['a first occurrence off BYDAY', 'FREQ=WEEKLY;BYDAY=MO;COUNT=2', '2026-12-01T18:00', 'BYDAY'],
    ['UNTIL before the first occurrence', 'FREQ=WEEKLY;UNTIL=20261101T000000Z', '2026-12-01T18:00', 'UNTIL'],
    ['more than the maximum occurrences', 'FREQ=DAILY;UNTIL=20300101T000000Z', '2026-12-01T18:00', 'UNTIL'],
  ])('refuses %s', (_name, rule, first, part) => {
    expect(() => localStarts(rule, first)).toThrow(RuleError);
    try {
      localStarts(rule, first);
    } catch (e) {
      expect((e as RuleError).part).toBe(part);
    }
  });
});
