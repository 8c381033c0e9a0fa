import { DateTime } from 'luxon';
import { zoneNamed } from '../../kernel/time-zones.js';
import type { PricingRuleType, Weekday } from '../../kernel/db/types.js';
import { WEEKDAYS, minutesOfDay } from '../../kernel/validation.js';

// The pricing arithmetic of DESIGN section 7 as pure functions. Every amount is computed on the
// base price (never on another adjustment) from exact integers, then rounded once, half away from
// zero. Local times are read in the accommodation's time zone with Luxon, so windows, midnight and
// DST changes are measured in real elapsed time.

export interface PricingRule {
  name: string;
  type: PricingRuleType;
  active: boolean;
  /** Empty: every object of the tenant. */
  objectIds: readonly string[];
  /** Negative for a discount. */
  percent: number;
  /** time_based: local HH:MM; an endTime not after startTime wraps past midnight. */
  startTime: string | null;
  endTime: string | null;
  /** day_based; optional for time_based (null or empty: every day). */
  weekdays: readonly Weekday[] | null;
  minDurationMinutes: number | null;
  minDaysInAdvance: number | null;
}

export interface PriceRequest {
  objectId: string;
  pricePerHour: number;
  /** The accommodation's IANA time zone. */
  timeZone: string;
  start: Date;
  end: Date;
  /** When the booking is (or would be) created; early_bird counts days from here. */
  createdAt: Date;
}

export interface Adjustment {
  rule: string;
  amount: number;
}

export interface PriceQuote {
  basePrice: number;
  adjustments: Adjustment[];
  totalPrice: number;
  currency: 'EUR';
  breakdown: string;
}

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;
const MINUTES_PER_DAY = 1440;

/** numerator / denominator (> 0) rounded half away from zero, exactly. */
export function roundDiv(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  if ((magnitude % denominator) * 2n >= denominator) quotient += 1n;
  return Number(negative ? -quotient : quotient);
}

/** pricePerHour × duration × percent / 100, rounded once. */
function prorated(pricePerHour: number, ms: number, percent: number): number {
  return roundDiv(BigInt(pricePerHour) * BigInt(ms) * BigInt(percent), BigInt(MS_PER_HOUR) * 100n);
}

function percentOf(basePrice: number, percent: number): number {
  return roundDiv(BigInt(basePrice) * BigInt(percent), 100n);
}

/** A calendar date (as a UTC midnight, so stepping by days never meets a DST change). */
type LocalDate = DateTime;

function localDateOf(instant: Date, zone: string): LocalDate {
  const local = DateTime.fromJSDate(instant, { zone: zoneNamed(zone) });
  return DateTime.utc(local.year, local.month, local.day);
}

/**
 * The instant of a local wall-clock minute (0–1440) of a date. A time that does not exist (skipped
 * by a DST change) moves forward by the gap, as Luxon does.
 */
function localInstant(date: LocalDate, minuteOfDay: number, zone: string): number {
  const day = minuteOfDay >= MINUTES_PER_DAY ? date.plus({ days: 1 }) : date;
  const minute = minuteOfDay % MINUTES_PER_DAY;
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: Math.floor(minute / 60), minute: minute % 60 },
    { zone: zoneNamed(zone) },
  ).toMillis();
}

function weekdayOf(date: LocalDate): Weekday {
  const weekday = WEEKDAYS[date.weekday - 1];
  if (weekday === undefined) throw new RangeError(`${date.toISODate() ?? 'an invalid date'} has no weekday`);
  return weekday;
}

function overlapMs(start: number, end: number, from: number, to: number): number {
  return Math.max(0, Math.min(end, to) - Math.max(start, from));
}

/**
 * The milliseconds of [start, end) inside a daily local window. A window whose end is not after
 * its start wraps past midnight; `weekdays` then names the day the window starts on.
 */
export function msInsideDailyWindow(
  start: Date,
  end: Date,
  zone: string,
  window: { startTime: string; endTime: string; weekdays?: readonly Weekday[] | null },
): number {
  const from = minutesOfDay(window.startTime);
  const to = minutesOfDay(window.endTime);
  const wraps = to <= from;
  const last = localDateOf(end, zone);
  let total = 0;
  // The day before the start may hold a wrapping window that reaches into the booking.
  for (let date = localDateOf(start, zone).minus({ days: 1 }); date <= last; date = date.plus({ days: 1 })) {
    if (window.weekdays?.length && !window.weekdays.includes(weekdayOf(date))) continue;
    const windowStart = localInstant(date, from, zone);
    const windowEnd = localInstant(wraps ? date.plus({ days: 1 }) : date, to, zone);
    total += overlapMs(start.getTime(), end.getTime(), windowStart, windowEnd);
  }
  return total;
}

/** The milliseconds of [start, end) that fall on the given local weekdays. */
export function msOnWeekdays(start: Date, end: Date, zone: string, weekdays: readonly Weekday[]): number {
  return msInsideDailyWindow(start, end, zone, { startTime: '00:00', endTime: '24:00', weekdays });
}

function appliesToObject(rule: PricingRule, objectId: string): boolean {
  return rule.active && (rule.objectIds.length === 0 || rule.objectIds.includes(objectId));
}

/** The rule's amount, or null when it does not apply to this booking. */
function adjustmentOf(rule: PricingRule, request: PriceRequest, basePrice: number, durationMs: number): number | null {
  const { start, end, timeZone, pricePerHour } = request;
  switch (rule.type) {
    case 'time_based': {
      if (!rule.startTime || !rule.endTime) return null;
      const inside = msInsideDailyWindow(start, end, timeZone, {
        startTime: rule.startTime,
        endTime: rule.endTime,
        weekdays: rule.weekdays,
      });
      return inside > 0 ? prorated(pricePerHour, inside, rule.percent) : null;
    }
    case 'day_based': {
      if (!rule.weekdays?.length) return null;
      const on = msOnWeekdays(start, end, timeZone, rule.weekdays);
      return on > 0 ? prorated(pricePerHour, on, rule.percent) : null;
    }
    case 'duration_based':
      if (rule.minDurationMinutes == null) return null;
      return durationMs >= rule.minDurationMinutes * MS_PER_MINUTE ? percentOf(basePrice, rule.percent) : null;
    case 'early_bird': {
      if (rule.minDaysInAdvance == null) return null;
      // Calendar days in the venue's zone, so a DST change in between does not move the deadline.
      const deadline = DateTime.fromJSDate(request.createdAt, { zone: zoneNamed(timeZone) }).plus({
        days: rule.minDaysInAdvance,
      });
      return deadline.toMillis() <= start.getTime() ? percentOf(basePrice, rule.percent) : null;
    }
    default:
      return null;
  }
}

/** The price of one booking under the tenant's rules (only active rules for this object count). */
export function quotePrice(request: PriceRequest, rules: readonly PricingRule[]): PriceQuote {
  const durationMs = request.end.getTime() - request.start.getTime();
  if (!(durationMs > 0)) throw new RangeError('quotePrice needs start < end');
  const basePrice = roundDiv(BigInt(request.pricePerHour) * BigInt(durationMs), BigInt(MS_PER_HOUR));
  const adjustments: Adjustment[] = [];
  for (const rule of rules) {
    if (!appliesToObject(rule, request.objectId)) continue;
    const amount = adjustmentOf(rule, request, basePrice, durationMs);
    if (amount !== null) adjustments.push({ rule: rule.name, amount });
  }
  const totalPrice = Math.max(
    0,
    adjustments.reduce((sum, a) => sum + a.amount, basePrice),
  );
  return {
    basePrice,
    adjustments,
    totalPrice,
    currency: 'EUR',
    breakdown: breakdownOf(request.pricePerHour, durationMs, basePrice, adjustments, totalPrice),
  };
}

/** Cents as euros: €1234.56 (no thousands separator). */
export function formatEuros(cents: number, signed = false): string {
  const magnitude = Math.abs(cents);
  const sign = cents < 0 ? '-' : signed ? '+' : '';
  return `${sign}€${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

/** Whole hours as "2 h", anything else in minutes: "90 min", "90.5 min". */
export function formatDuration(ms: number): string {
  if (ms % MS_PER_HOUR === 0) return `${ms / MS_PER_HOUR} h`;
  return `${Math.round((ms / MS_PER_MINUTE) * 100) / 100} min`;
}

function breakdownOf(
  pricePerHour: number,
  durationMs: number,
  basePrice: number,
  adjustments: Adjustment[],
  totalPrice: number,
): string {
  const rate = formatEuros(pricePerHour) + (durationMs % MS_PER_HOUR === 0 ? '' : '/h');
  return [
    `${formatDuration(durationMs)} × ${rate} = ${formatEuros(basePrice)}`,
    ...adjustments.map((a) => `${a.rule} ${formatEuros(a.amount, true)}`),
    `Total ${formatEuros(totalPrice)}`,
  ].join('; ');
}
