import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BOOKING_RULES,
  mergeBookingRules,
  normalizeSchedule,
  validateDayHours,
  validateSchedule,
} from './catalog.rules.js';

const fieldsOf = (errors: { field: string }[]) => errors.map((e) => e.field);

describe('validateDayHours', () => {
  it.each([
    [{ open: '08:00', close: '22:00' }, []],
    [{ open: '00:00', close: '24:00' }, []],
    [{ open: '08:00', close: '08:01' }, []],
    [{ open: '08:00', close: '08:00' }, ['day.close']],
    [{ open: '22:00', close: '08:00' }, ['day.close']],
    [{ open: '24:00', close: '24:00' }, ['day.open']],
    [{ open: '8:00', close: '22:00' }, ['day.open']],
    [{ open: '08:00', close: '22:60' }, ['day.close']],
    [{ open: '08:00' }, ['day.close']],
    [{}, ['day.open', 'day.close']],
    [null, ['day']],
    ['08:00-22:00', ['day']],
  ])('%j gives errors on %j', (value, fields) => {
    expect(fieldsOf(validateDayHours(value, 'day'))).toEqual(fields);
  });

  it('says why close is refused', () => {
    expect(validateDayHours({ open: '22:00', close: '08:00' }, 'monday')).toEqual([
      { field: 'monday.close', message: 'must be later than open (22:00)' },
    ]);
  });
});

describe('validateSchedule', () => {
  it.each([
    [undefined, []],
    [null, []],
    [{}, []],
    [{ monday: { open: '08:00', close: '22:00' }, sunday: null }, []],
    [{ Monday: { open: '08:00', close: '22:00' } }, ['openingHours.Monday']],
    [{ holiday: { open: '08:00', close: '22:00' } }, ['openingHours.holiday']],
    [
      { monday: { open: '22:00', close: '08:00' }, tuesday: { open: 'x', close: '08:00' } },
      ['openingHours.monday.close', 'openingHours.tuesday.open'],
    ],
    [[], ['openingHours']],
    ['monday', ['openingHours']],
  ])('%j gives errors on %j', (value, fields) => {
    expect(fieldsOf(validateSchedule(value))).toEqual(fields);
  });

  it('names errors under the field it is given', () => {
    expect(fieldsOf(validateSchedule({ friday: { open: '10:00', close: '09:00' } }, 'schedule'))).toEqual([
      'schedule.friday.close',
    ]);
  });
});

describe('normalizeSchedule', () => {
  it.each([
    [undefined, {}],
    [null, {}],
    [{ monday: null, tuesday: undefined }, {}],
    [
      { sunday: { open: '09:00', close: '12:00' }, monday: { open: '08:00', close: '22:00' } },
      { monday: { open: '08:00', close: '22:00' }, sunday: { open: '09:00', close: '12:00' } },
    ],
  ])('%j becomes %j', (value, expected) => {
    const normalized = normalizeSchedule(value);
    expect(normalized).toEqual(expected);
    // weekdays in calendar order, whatever order the input had
    expect(Object.keys(normalized)).toEqual(Object.keys(expected));
  });

  it('drops fields other than open and close', () => {
    expect(normalizeSchedule({ monday: { open: '08:00', close: '09:00', extra: 1 } as never })).toEqual({
      monday: { open: '08:00', close: '09:00' },
    });
  });
});

describe('mergeBookingRules', () => {
  it('keeps the base when nothing is given', () => {
    expect(mergeBookingRules(DEFAULT_BOOKING_RULES, undefined)).toEqual({ rules: DEFAULT_BOOKING_RULES, errors: [] });
    expect(DEFAULT_BOOKING_RULES).toEqual({
      minDurationMinutes: 60,
      maxDurationMinutes: 240,
      slotIncrementMinutes: 60,
      minAdvanceMinutes: 0,
      maxAdvanceDays: 365,
      bufferMinutes: 0,
    });
  });

  it.each([
    [{ bufferMinutes: 15 }, { bufferMinutes: 15 }],
    [
      { minDurationMinutes: 30, maxDurationMinutes: 30 },
      { minDurationMinutes: 30, maxDurationMinutes: 30 },
    ],
    [
      { slotIncrementMinutes: 30, minAdvanceMinutes: 120, maxAdvanceDays: 0 },
      { slotIncrementMinutes: 30, minAdvanceMinutes: 120, maxAdvanceDays: 0 },
    ],
    [{ bufferMinutes: null }, {}],
  ])('merges %j', (input, changed) => {
    const { rules, errors } = mergeBookingRules(DEFAULT_BOOKING_RULES, input);
    expect(errors).toEqual([]);
    expect(rules).toEqual({ ...DEFAULT_BOOKING_RULES, ...changed });
  });

  it.each([
    [{ minDurationMinutes: 300 }, ['bookingRules.maxDurationMinutes']],
    [{ minDurationMinutes: 120, maxDurationMinutes: 60 }, ['bookingRules.maxDurationMinutes']],
    [{ minDurationMinutes: 0 }, ['bookingRules.minDurationMinutes']],
    [{ slotIncrementMinutes: 1 }, ['bookingRules.slotIncrementMinutes']],
    [{ bufferMinutes: -5 }, ['bookingRules.bufferMinutes']],
    [{ maxAdvanceDays: 1.5 }, ['bookingRules.maxAdvanceDays']],
    [{ minAdvanceMinutes: '10' }, ['bookingRules.minAdvanceMinutes']],
    [{ cleanupMinutes: 10 }, ['bookingRules.cleanupMinutes']],
    [
      { bufferMinutes: -1, slotIncrementMinutes: 0 },
      ['bookingRules.bufferMinutes', 'bookingRules.slotIncrementMinutes'],
    ],
  ])('refuses %j on %j', (input, fields) => {
    expect(fieldsOf(mergeBookingRules(DEFAULT_BOOKING_RULES, input as never).errors)).toEqual(fields);
  });

  it('checks min against max after merging over the current rules', () => {
    const current = { ...DEFAULT_BOOKING_RULES, maxDurationMinutes: 90 };
    expect(mergeBookingRules(current, { minDurationMinutes: 120 }, 'rules').errors).toEqual([
      { field: 'rules.maxDurationMinutes', message: 'must be at least minDurationMinutes (120)' },
    ]);
  });

  it.each([[[]], ['60'], [7]])('refuses a non-object %j', (input) => {
    expect(fieldsOf(mergeBookingRules(DEFAULT_BOOKING_RULES, input as never).errors)).toEqual(['bookingRules']);
  });
});
