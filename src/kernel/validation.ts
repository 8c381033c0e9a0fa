import { DateTime, IANAZone } from 'luxon';
import { isStorableInstant, isStorableYear } from './input-guard.js';

// Small pure checks shared by services.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** 'HH:MM' (00:00–23:59), or '24:00' when allowEndOfDay. */
export function isHhmm(value: unknown, allowEndOfDay = false): value is string {
  return typeof value === 'string' && (HHMM.test(value) || (allowEndOfDay && value === '24:00'));
}
export function minutesOfDay(hhmm: string): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** A calendar date YYYY-MM-DD in the years 0001–9999 (PostgreSQL has no year 0). */
export function isLocalDate(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    DateTime.fromISO(value).isValid &&
    isStorableYear(Number(value.slice(0, 4)))
  );
}

export function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && IANAZone.isValidZone(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 254 && EMAIL.test(value);

export const isNonEmptyString = (value: unknown, max = 200): value is string =>
  typeof value === 'string' && value.trim().length > 0 && value.length <= max;

/**
 * The common shape of a timestamp — 2026-11-20T10:00:00Z, with optional seconds, fraction and an
 * offset ±HH:MM or ±HHMM — read without Luxon (whose general ISO parser was 6.5 % of the price
 * preview's CPU). Only values whose every field is in its ordinary range are read here; anything
 * else (other ISO forms, 24:00, 2026-02-30, odd offsets) returns undefined and goes to Luxon, so
 * what is accepted and what it means are Luxon's, as before (src/validation.test.ts compares both).
 */
const COMMON_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function parseCommonInstant(value: string): Date | undefined {
  const m = COMMON_INSTANT.exec(value);
  if (!m) return undefined;
  // The five groups always match; a missing one (0) would fail the range checks below.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > monthDays || hour > 23 || minute > 59 || second > 59)
    return undefined;
  let offsetMinutes = 0;
  if (!m[8]) {
    const [offsetHours, offsetMins] = [Number(m[10]), Number(m[11])];
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  // Luxon reads the fraction as milliseconds, truncating digits past the third.
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, millis);
  return new Date(utc.getTime() - offsetMinutes * 60_000);
}

/** An ISO 8601 timestamp with an explicit offset or Z, in the years 0001–9999 (UTC). */
export function parseInstant(value: unknown): Date | undefined {
  if (value instanceof Date) return isStorableInstant(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const common = parseCommonInstant(value);
  if (common) return isStorableInstant(common) ? common : undefined;
  const dt = DateTime.fromISO(value, { setZone: true });
  if (!dt.isValid || !/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return undefined;
  const date = dt.toJSDate();
  return isStorableInstant(date) ? date : undefined;
}

/**
 * A listing boundary: an ISO 8601 timestamp with an offset, or a calendar date YYYY-MM-DD read as
 * midnight UTC (the contract's list filters speak of "this date").
 */
export function parseBoundary(value: unknown): Date | undefined {
  if (isLocalDate(value)) return DateTime.fromISO(value, { zone: 'utc' }).toJSDate();
  return parseInstant(value);
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const isWeekday = (value: unknown): value is (typeof WEEKDAYS)[number] =>
  typeof value === 'string' && (WEEKDAYS as readonly string[]).includes(value);
