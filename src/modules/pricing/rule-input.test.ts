import { describe, expect, it } from 'vitest';
import { checkPricingRule, mergeRuleUpdate, parsePricingRule, type PricingRuleInput } from './rule-input.js';

const OBJECT = '00000000-0000-4000-8000-000000000001';

describe('checkPricingRule accepts', () => {
  it.each<[string, PricingRuleInput, Record<string, unknown>]>([
    [
      'a time_based rule, active by default, every object',
      { name: ' Evening peak ', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 },
      {
        name: 'Evening peak',
        active: true,
        objectIds: [],
        startTime: '18:00',
        endTime: '22:00',
        weekdays: null,
        minDurationMinutes: null,
        minDaysInAdvance: null,
      },
    ],
    [
      'a wrapping time_based rule with weekdays (stored in week order, without repeats)',
      {
        name: 'Night',
        type: 'time_based',
        startTime: '22:00',
        endTime: '06:00',
        weekdays: ['sunday', 'friday', 'friday'],
        percent: -20,
      },
      { weekdays: ['friday', 'sunday'] },
    ],
    [
      'a time_based rule with no weekdays listed',
      { name: 'x', type: 'time_based', startTime: '20:00', endTime: '24:00', weekdays: [], percent: 5 },
      { weekdays: null },
    ],
    [
      'a day_based rule',
      { name: 'Weekend', type: 'day_based', weekdays: ['saturday', 'sunday'], percent: 10 },
      { weekdays: ['saturday', 'sunday'], startTime: null },
    ],
    [
      'a duration_based rule',
      { name: 'Long', type: 'duration_based', minDurationMinutes: 120, percent: -10 },
      { minDurationMinutes: 120 },
    ],
    [
      'an early_bird rule for some objects, inactive',
      { name: 'Early', type: 'early_bird', minDaysInAdvance: 7, percent: -100, active: false, objectIds: [OBJECT] },
      { minDaysInAdvance: 7, active: false, objectIds: [OBJECT] },
    ],
    [
      'nulls as absent',
      {
        name: 'Long',
        type: 'duration_based',
        minDurationMinutes: 60,
        percent: 1000,
        startTime: null,
        weekdays: null,
        active: null,
      },
      { active: true },
    ],
  ])('%s', (_, input, expected) => {
    const { rule, errors } = checkPricingRule(input);
    expect(errors).toEqual([]);
    expect(rule).toMatchObject(expected);
  });
});

describe('checkPricingRule refuses, naming the field', () => {
  it.each<[string, PricingRuleInput, string]>([
    ['an unknown type', { name: 'x', type: 'hourly', percent: 5 }, 'type'],
    ['a missing name', { type: 'duration_based', minDurationMinutes: 60, percent: 5 }, 'name'],
    ['percent below -100', { name: 'x', type: 'duration_based', minDurationMinutes: 60, percent: -101 }, 'percent'],
    ['percent above 1000', { name: 'x', type: 'duration_based', minDurationMinutes: 60, percent: 1001 }, 'percent'],
    ['a fractional percent', { name: 'x', type: 'duration_based', minDurationMinutes: 60, percent: 2.5 }, 'percent'],
    [
      'a time_based rule without startTime',
      { name: 'x', type: 'time_based', endTime: '22:00', percent: 5 },
      'startTime',
    ],
    ['a time_based rule without endTime', { name: 'x', type: 'time_based', startTime: '18:00', percent: 5 }, 'endTime'],
    [
      'a malformed startTime',
      { name: 'x', type: 'time_based', startTime: '6pm', endTime: '22:00', percent: 5 },
      'startTime',
    ],
    [
      'startTime 24:00',
      { name: 'x', type: 'time_based', startTime: '24:00', endTime: '02:00', percent: 5 },
      'startTime',
    ],
    [
      'a malformed endTime',
      { name: 'x', type: 'time_based', startTime: '18:00', endTime: '22:60', percent: 5 },
      'endTime',
    ],
    ['an empty window', { name: 'x', type: 'time_based', startTime: '18:00', endTime: '18:00', percent: 5 }, 'endTime'],
    ['a day_based rule without weekdays', { name: 'x', type: 'day_based', percent: 5 }, 'weekdays'],
    ['a day_based rule with no weekdays', { name: 'x', type: 'day_based', weekdays: [], percent: 5 }, 'weekdays'],
    ['an unknown weekday', { name: 'x', type: 'day_based', weekdays: ['Monday'], percent: 5 }, 'weekdays'],
    [
      'a duration_based rule without minDurationMinutes',
      { name: 'x', type: 'duration_based', percent: 5 },
      'minDurationMinutes',
    ],
    [
      'minDurationMinutes 0',
      { name: 'x', type: 'duration_based', minDurationMinutes: 0, percent: 5 },
      'minDurationMinutes',
    ],
    ['an early_bird rule without minDaysInAdvance', { name: 'x', type: 'early_bird', percent: -5 }, 'minDaysInAdvance'],
    [
      'a field of another type',
      { name: 'x', type: 'early_bird', minDaysInAdvance: 3, startTime: '18:00', percent: -5 },
      'startTime',
    ],
    [
      'objectIds that are not ids',
      { name: 'x', type: 'early_bird', minDaysInAdvance: 3, percent: -5, objectIds: ['court1'] },
      'objectIds',
    ],
    [
      'active that is not a boolean',
      { name: 'x', type: 'early_bird', minDaysInAdvance: 3, percent: -5, active: 'yes' },
      'active',
    ],
  ])('%s', (_, input, field) => {
    const { rule, errors } = checkPricingRule(input);
    expect(rule).toBeUndefined();
    expect(errors.map((e) => e.field)).toContain(field);
  });
});

describe('mergeRuleUpdate', () => {
  const stored = parsePricingRule({
    name: 'Peak',
    type: 'time_based',
    startTime: '18:00',
    endTime: '22:00',
    weekdays: ['friday'],
    percent: 25,
  });

  it('keeps what the update leaves out (null or absent)', () => {
    const { rule } = checkPricingRule(mergeRuleUpdate(stored, { percent: 30, endTime: null }));
    expect(rule).toMatchObject({
      name: 'Peak',
      percent: 30,
      startTime: '18:00',
      endTime: '22:00',
      weekdays: ['friday'],
    });
  });

  it('clears time_based weekdays with an empty list', () => {
    expect(checkPricingRule(mergeRuleUpdate(stored, { weekdays: [] })).rule?.weekdays).toBeNull();
  });

  it("drops the old type's fields when the type changes", () => {
    const { rule, errors } = checkPricingRule(
      mergeRuleUpdate(stored, { type: 'duration_based', minDurationMinutes: 90 }),
    );
    expect(errors).toEqual([]);
    expect(rule).toMatchObject({
      type: 'duration_based',
      minDurationMinutes: 90,
      startTime: null,
      endTime: null,
      weekdays: null,
      percent: 25,
    });
  });

  it("asks for the new type's fields", () => {
    expect(checkPricingRule(mergeRuleUpdate(stored, { type: 'early_bird' })).errors.map((e) => e.field)).toEqual([
      'minDaysInAdvance',
    ]);
  });
});
