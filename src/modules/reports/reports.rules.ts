import { DateTime } from 'luxon';
import { isLocalDate, isTimeZone, isUuid } from '../../kernel/validation.js';
import type { FieldError } from '../../kernel/errors.js';

// Pure rules of the reports (docs/reports.md): what a report's input may be, the instants its local
// dates cover, and the ratios it shows.

/** The longest range a report covers: a leap year. */
export const MAX_REPORT_DAYS = 366;
/** The most objects a report may be filtered to. */
export const MAX_REPORT_OBJECTS = 100;

export type ReportPeriod = 'DAY' | 'WEEK' | 'MONTH';

/** A report's range: local dates (both included) in a zone, as the instants [start, end) they cover. */
export interface ReportRange {
  from: string;
  to: string;
  timeZone: string;
  objectIds: string[];
  /** The first instant of `from` in `timeZone`. */
  start: Date;
  /** The first instant after `to` in `timeZone` (the start of the next day). */
  end: Date;
}

export interface RangeInput {
  from: unknown;
  to: unknown;
  objectIds?: unknown;
  timeZone?: unknown;
}

/** The instant a local date starts in a zone (midnight, or the first minute after a DST gap). */
export const startOfLocalDate = (date: string, zone: string): Date =>
  DateTime.fromISO(date, { zone }).startOf('day').toJSDate();

/**
 * The range of a report's input, or its field errors: dates YYYY-MM-DD, to not before from and at
 * most MAX_REPORT_DAYS days in all, an IANA zone (the tenant's when left out), at most
 * MAX_REPORT_OBJECTS object ids (UUIDs, duplicates dropped).
 */
export function reportRangeOf(input: RangeInput, tenantZone: string): ReportRange | FieldError[] {
  const errors: FieldError[] = [];
  const zone = input.timeZone ?? tenantZone;
  if (!isTimeZone(zone)) errors.push({ field: 'timeZone', message: 'must be an IANA time zone such as Europe/Berlin' });
  if (!isLocalDate(input.from)) errors.push({ field: 'from', message: 'must be a date YYYY-MM-DD' });
  if (!isLocalDate(input.to)) errors.push({ field: 'to', message: 'must be a date YYYY-MM-DD' });
  const ids = objectIdsOf(input.objectIds, errors);
  if (errors.length || !isTimeZone(zone) || !isLocalDate(input.from) || !isLocalDate(input.to)) return errors;
  const days = DateTime.fromISO(input.to).diff(DateTime.fromISO(input.from), 'days').days + 1;
  if (days < 1) return [{ field: 'to', message: `must not be before from (${input.from})` }];
  if (days > MAX_REPORT_DAYS)
    return [{ field: 'to', message: `the range may cover at most ${MAX_REPORT_DAYS} days (it covers ${days})` }];
  const next = DateTime.fromISO(input.to).plus({ days: 1 }).toISODate() ?? input.to;
  return {
    from: input.from,
    to: input.to,
    timeZone: zone,
    objectIds: ids,
    start: startOfLocalDate(input.from, zone),
    end: startOfLocalDate(next, zone),
  };
}

function objectIdsOf(value: unknown, errors: FieldError[]): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (list.length > MAX_REPORT_OBJECTS) {
    errors.push({ field: 'objectIds', message: `at most ${MAX_REPORT_OBJECTS} objects (got ${list.length})` });
    return [];
  }
  const bad = list.findIndex((id) => !isUuid(id));
  if (bad >= 0) {
    errors.push({ field: `objectIds[${bad}]`, message: 'must be an object id (UUID)' });
    return [];
  }
  return [...new Set((list as string[]).map((id) => id.toLowerCase()))];
}

/** A part of a whole as a ratio rounded to 4 decimals; null when the whole is 0. */
export const ratio = (part: number, whole: number): number | null =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;

export const isPeriod = (value: unknown): value is ReportPeriod =>
  value === 'DAY' || value === 'WEEK' || value === 'MONTH';

/** PostgreSQL's date_trunc unit of a period. */
export const TRUNC_UNIT: Record<ReportPeriod, 'day' | 'week' | 'month'> = { DAY: 'day', WEEK: 'week', MONTH: 'month' };
