import type { DayHours, WeeklySchedule } from '../../kernel/db/types.js';
import { type FieldError } from '../../kernel/errors.js';
import { WEEKDAYS, isHhmm, isWeekday, minutesOfDay } from '../../kernel/validation.js';

// Pure validation of catalog values; each returns the field errors it finds.

export interface BookingRules {
  minDurationMinutes: number;
  maxDurationMinutes: number;
  slotIncrementMinutes: number;
  minAdvanceMinutes: number;
  maxAdvanceDays: number;
  bufferMinutes: number;
}

export const DEFAULT_BOOKING_RULES: BookingRules = {
  minDurationMinutes: 60,
  maxDurationMinutes: 240,
  slotIncrementMinutes: 60,
  minAdvanceMinutes: 0,
  maxAdvanceDays: 365,
  bufferMinutes: 0,
};

const RULE_LIMITS: Record<keyof BookingRules, [number, number]> = {
  minDurationMinutes: [1, 1440],
  maxDurationMinutes: [1, 10080],
  slotIncrementMinutes: [5, 1440],
  minAdvanceMinutes: [0, 525600],
  maxAdvanceDays: [0, 3650],
  bufferMinutes: [0, 1440],
};

export function validateDayHours(value: unknown, field: string): FieldError[] {
  if (typeof value !== 'object' || value === null) return [{ field, message: 'must be an object {open, close}' }];
  const { open, close } = value as Partial<DayHours>;
  const errors: FieldError[] = [];
  if (!isHhmm(open)) errors.push({ field: `${field}.open`, message: 'must be a time HH:MM (00:00–23:59)' });
  if (!isHhmm(close, true)) errors.push({ field: `${field}.close`, message: 'must be a time HH:MM (00:00–24:00)' });
  if (isHhmm(open) && isHhmm(close, true) && minutesOfDay(open) >= minutesOfDay(close)) {
    errors.push({ field: `${field}.close`, message: `must be later than open (${open})` });
  }
  return errors;
}

/** A weekly schedule: weekday keys only; a missing or null weekday is closed. */
export function validateSchedule(value: unknown, field = 'openingHours'): FieldError[] {
  if (value == null) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return [{ field, message: 'must be an object keyed by weekday' }];
  const errors: FieldError[] = [];
  for (const [day, hours] of Object.entries(value)) {
    if (!isWeekday(day)) {
      errors.push({ field: `${field}.${day}`, message: `is not a weekday; use ${WEEKDAYS.join(', ')}` });
    } else if (hours != null) {
      errors.push(...validateDayHours(hours, `${field}.${day}`));
    }
  }
  return errors;
}

export function normalizeSchedule(
  value: Record<string, DayHours | null | undefined> | null | undefined,
): WeeklySchedule {
  const schedule: WeeklySchedule = {};
  for (const day of WEEKDAYS) {
    const hours = value?.[day];
    if (hours) schedule[day] = { open: hours.open, close: hours.close };
  }
  return schedule;
}

/** Merges `input` over `base` and checks every value and their relations. */
export function mergeBookingRules(
  base: BookingRules,
  input: Partial<Record<keyof BookingRules, unknown>> | null | undefined,
  field = 'bookingRules',
): { rules: BookingRules; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const rules = { ...base };
  if (input != null && (typeof input !== 'object' || Array.isArray(input))) {
    return { rules, errors: [{ field, message: 'must be an object' }] };
  }
  for (const [name, raw] of Object.entries(input ?? {})) {
    if (!(name in RULE_LIMITS)) {
      errors.push({
        field: `${field}.${name}`,
        message: `is not a booking rule; use ${Object.keys(RULE_LIMITS).join(', ')}`,
      });
      continue;
    }
    if (raw == null) continue;
    const [min, max] = RULE_LIMITS[name as keyof BookingRules];
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
      errors.push({ field: `${field}.${name}`, message: `must be a whole number from ${min} to ${max}` });
      continue;
    }
    rules[name as keyof BookingRules] = raw;
  }
  if (!errors.length && rules.maxDurationMinutes < rules.minDurationMinutes) {
    errors.push({
      field: `${field}.maxDurationMinutes`,
      message: `must be at least minDurationMinutes (${rules.minDurationMinutes})`,
    });
  }
  return { rules, errors };
}

export const DOOR_BEHAVIORS = ['unlock_per_scan', 'toggle'] as const;
