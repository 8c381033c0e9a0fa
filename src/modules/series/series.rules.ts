import { DateTime } from 'luxon';

// Recurring bookings' rule: an RFC 5545 RRULE subset, parsed, written back and expanded here as
// pure functions (docs/bookings.md, "Recurring bookings"). Written by hand rather than with the
// `rrule` package: rrule expands in UTC (or in a "floating" zone it fakes through the JS Date of
// the process's own zone), so "18:00 in Europe/Berlin every Tuesday" drifts by an hour across a
// DST change unless every caller corrects each date. Here the rule is expanded on local dates with
// luxon and each local date-time is placed in the object's zone, so 18:00 stays 18:00 local in
// every week. The subset is small (FREQ=DAILY|WEEKLY, INTERVAL, COUNT or UNTIL, BYDAY for weekly).

export type Frequency = 'DAILY' | 'WEEKLY';
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface RecurrenceRule {
  freq: Frequency;
  /** 1 = every day/week, 2 = every other, … (1–99). */
  interval: number;
  /** Exactly one of count and until. */
  count?: number;
  /** The last instant an occurrence may start at (inclusive), UTC. */
  until?: Date;
  /** WEEKLY only: the weekdays, in MO…SU order, de-duplicated. */
  byDay?: Weekday[];
}

/** At most this many occurrences in one series (a year of daily bookings). */
export const MAX_OCCURRENCES = 366;
export const MAX_INTERVAL = 99;

/** A rule that cannot be used, with the RRULE part it is about (`FREQ`, `BYMONTH`, …). */
export class RuleError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(`${part}: ${message}`);
    this.name = 'RuleError';
  }
}

const SUPPORTED = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'WKST']);
const KNOWN_UNSUPPORTED = new Set([
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'RSCALE',
  'SKIP',
]);

function positiveInt(part: string, raw: string, max: number): number {
  if (!/^[0-9]{1,4}$/.test(raw)) throw new RuleError(part, `must be a whole number from 1 to ${max}, not "${raw}"`);
  const n = Number(raw);
  if (n < 1 || n > max) throw new RuleError(part, `must be a whole number from 1 to ${max}, not ${n}`);
  return n;
}

/** UNTIL as RFC 5545 writes it: a UTC date-time (20270301T170000Z) or a date (20270301, the whole day in `timeZone`). */
function parseUntil(raw: string, timeZone: string): Date {
  const dateTime = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(raw);
  if (dateTime) {
    const [, y, mo, d, h, mi, s] = dateTime.map(Number) as [number, number, number, number, number, number, number];
    const value = DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: mi, second: s }, { zone: 'utc' });
    if (value.isValid) return value.toJSDate();
  }
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (date) {
    const [, y, mo, d] = date.map(Number) as [number, number, number, number];
    const value = DateTime.fromObject({ year: y, month: mo, day: d }, { zone: timeZone }).endOf('day');
    if (value.isValid) return value.toJSDate();
  }
  throw new RuleError('UNTIL', `must be a UTC date-time like 20270301T225959Z or a date like 20270301, not "${raw}"`);
}

/**
 * Parses an RRULE value (`FREQ=WEEKLY;BYDAY=TU;COUNT=10`, an `RRULE:` prefix allowed). A date-only
 * UNTIL is read as the end of that day in `timeZone`. Throws a RuleError naming the offending part.
 */
export function parseRule(text: string, timeZone = 'UTC'): RecurrenceRule {
  const trimmed = text.trim().replace(/^RRULE:/i, '');
  if (trimmed === '') throw new RuleError('RRULE', 'is empty: give at least FREQ and COUNT or UNTIL');
  if (trimmed.length > 500) throw new RuleError('RRULE', 'is longer than 500 characters');
  const parts = new Map<string, string>();
  for (const piece of trimmed.split(';')) {
    const eq = piece.indexOf('=');
    const name = (eq < 0 ? piece : piece.slice(0, eq)).trim().toUpperCase();
    const value =
      eq < 0
        ? ''
        : piece
            .slice(eq + 1)
            .trim()
            .toUpperCase();
    if (name === '') throw new RuleError('RRULE', `has an empty part in "${trimmed}"`);
    if (!/^[A-Z-]{1,20}$/.test(name))
      throw new RuleError('RRULE', `has a part that is not NAME=VALUE: "${piece.slice(0, 40)}"`);
    if (!SUPPORTED.has(name)) {
      throw new RuleError(
        name,
        KNOWN_UNSUPPORTED.has(name)
          ? 'is not supported: series use FREQ, INTERVAL, COUNT or UNTIL, and BYDAY (weekly)'
          : 'is not an RRULE part Portier knows (FREQ, INTERVAL, COUNT, UNTIL, BYDAY)',
      );
    }
    if (eq < 0 || value === '') throw new RuleError(name, 'needs a value (NAME=VALUE)');
    if (parts.has(name)) throw new RuleError(name, 'is given twice');
    parts.set(name, value);
  }
  const freq = parts.get('FREQ');
  if (freq === undefined) throw new RuleError('FREQ', 'is required (DAILY or WEEKLY)');
  if (freq !== 'DAILY' && freq !== 'WEEKLY') {
    throw new RuleError('FREQ', `${freq} is not supported: use DAILY or WEEKLY`);
  }
  const wkst = parts.get('WKST');
  if (wkst !== undefined && wkst !== 'MO') throw new RuleError('WKST', 'only MO (the default) is supported');
  const interval = parts.has('INTERVAL') ? positiveInt('INTERVAL', parts.get('INTERVAL') ?? '', MAX_INTERVAL) : 1;
  const countRaw = parts.get('COUNT');
  const untilRaw = parts.get('UNTIL');
  if (countRaw !== undefined && untilRaw !== undefined) {
    throw new RuleError('UNTIL', 'cannot be combined with COUNT: give one of them');
  }
  if (countRaw === undefined && untilRaw === undefined) {
    throw new RuleError('COUNT', 'or UNTIL is required: a series ends (endless series are not supported)');
  }
  const rule: RecurrenceRule = { freq, interval };
  if (countRaw !== undefined) rule.count = positiveInt('COUNT', countRaw, MAX_OCCURRENCES);
  if (untilRaw !== undefined) rule.until = parseUntil(untilRaw, timeZone);
  const byDayRaw = parts.get('BYDAY');
  if (byDayRaw !== undefined) {
    if (freq !== 'WEEKLY') throw new RuleError('BYDAY', 'is supported with FREQ=WEEKLY only');
    const days = new Set<Weekday>();
    for (const day of byDayRaw.split(',')) {
      const d = day.trim();
      if (/^[+-]?\d+[A-Z]{2}$/.test(d)) {
        throw new RuleError(
          'BYDAY',
          `numbered weekdays such as ${d} are not supported: give MO, TU, WE, TH, FR, SA, SU`,
        );
      }
      if (!(WEEKDAYS as readonly string[]).includes(d)) {
        throw new RuleError('BYDAY', `"${d.slice(0, 10)}" is not a weekday: give MO, TU, WE, TH, FR, SA, SU`);
      }
      days.add(d as Weekday);
    }
    rule.byDay = WEEKDAYS.filter((d) => days.has(d));
  }
  return rule;
}

const untilText = (until: Date): string => DateTime.fromJSDate(until, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");

/** The RRULE value of a rule, in one canonical order: FREQ, INTERVAL (when not 1), BYDAY, COUNT or UNTIL (UTC). */
export function formatRule(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay?.length) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) parts.push(`UNTIL=${untilText(rule.until)}`);
  return parts.join(';');
}

export interface Occurrence {
  /** 0-based place in the series. */
  index: number;
  start: Date;
  end: Date;
}

/** luxon's weekday (1 = Monday) of a weekday code. */
const isoWeekday = (day: Weekday): number => WEEKDAYS.indexOf(day) + 1;

/**
 * The occurrences of `rule` from `firstStart` (DTSTART, which is the first occurrence and must be
 * one of the rule's days), each `durationMinutes` long, at the same local wall-clock time in
 * `timeZone` on every date (a DST change moves the UTC instant, not the local time; a local time
 * that does not exist that day moves forward by the gap, as luxon does). Throws a RuleError when the
 * series would exceed MAX_OCCURRENCES or DTSTART does not fit BYDAY.
 */
export function expandRule(
  rule: RecurrenceRule,
  firstStart: Date,
  durationMinutes: number,
  timeZone: string,
): Occurrence[] {
  const local = DateTime.fromJSDate(firstStart, { zone: timeZone });
  if (!local.isValid) throw new RuleError('DTSTART', `is not a valid instant in ${timeZone}`);
  const time = { hour: local.hour, minute: local.minute, second: local.second, millisecond: 0 };
  const days = rule.freq === 'WEEKLY' ? (rule.byDay ?? [WEEKDAYS[local.weekday - 1] ?? 'MO']) : null;
  if (days && !days.some((d) => isoWeekday(d) === local.weekday)) {
    throw new RuleError(
      'BYDAY',
      `the first occurrence (${local.toFormat('cccc yyyy-MM-dd')}) is not on one of ${days.join(',')}: start the series on one of them`,
    );
  }
  if (rule.until && rule.until.getTime() < firstStart.getTime()) {
    throw new RuleError('UNTIL', 'is before the first occurrence');
  }
  const out: Occurrence[] = [];
  const place = (date: DateTime): Date =>
    DateTime.fromObject({ year: date.year, month: date.month, day: date.day, ...time }, { zone: timeZone }).toJSDate();
  const push = (start: Date): boolean => {
    if (rule.until && start.getTime() > rule.until.getTime()) return false;
    if (out.length >= MAX_OCCURRENCES) {
      throw new RuleError('UNTIL', `makes more than ${MAX_OCCURRENCES} occurrences: end the series sooner`);
    }
    out.push({ index: out.length, start, end: new Date(start.getTime() + durationMinutes * 60_000) });
    return rule.count === undefined || out.length < rule.count;
  };
  const firstDate = local.startOf('day');
  if (days === null) {
    for (let step = 0; ; step += 1) {
      if (!push(place(firstDate.plus({ days: step * rule.interval })))) break;
    }
    return out;
  }
  const weekStart = firstDate.minus({ days: local.weekday - 1 });
  for (let week = 0; ; week += rule.interval) {
    for (const day of days) {
      const date = weekStart.plus({ weeks: week, days: isoWeekday(day) - 1 });
      if (date < firstDate) continue;
      if (!push(place(date))) return out;
    }
  }
}
