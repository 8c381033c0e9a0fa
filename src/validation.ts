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
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** A calendar date YYYY-MM-DD in the years 0001–9999 (PostgreSQL has no year 0). */
export function isLocalDate(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid && isStorableYear(Number(value.slice(0, 4)));
}

export function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && IANAZone.isValidZone(value);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: unknown): value is string => typeof value === 'string' && value.length <= 254 && EMAIL.test(value);

export const isNonEmptyString = (value: unknown, max = 200): value is string => typeof value === 'string' && value.trim().length > 0 && value.length <= max;

/** An ISO 8601 timestamp with an explicit offset or Z, in the years 0001–9999 (UTC). */
export function parseInstant(value: unknown): Date | undefined {
  if (value instanceof Date) return isStorableInstant(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
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
export const isWeekday = (value: unknown): value is (typeof WEEKDAYS)[number] => typeof value === 'string' && (WEEKDAYS as readonly string[]).includes(value);
