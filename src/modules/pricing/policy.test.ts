import { describe, expect, it } from 'vitest';
import { applicableTier, checkTiers, refundFor } from './policy.js';

const HOUR = 3_600_000;
const standard = [
  { hoursBeforeStart: 48, refundPercent: 100 },
  { hoursBeforeStart: 24, refundPercent: 50 },
  { hoursBeforeStart: 0, refundPercent: 0 },
];

describe('refundFor', () => {
  it.each([
    ['more notice than the largest tier', 4000, standard, 72 * HOUR, 4000],
    ['exactly the largest tier', 4000, standard, 48 * HOUR, 4000],
    ['just under the largest tier', 4000, standard, 48 * HOUR - 1, 2000],
    ['exactly a middle tier', 4000, standard, 24 * HOUR, 2000],
    ['less than a day', 4000, standard, 3 * HOUR, 0],
    ['after the start (negative notice): no tier applies', 4000, standard, -HOUR, 0],
    ['no tier at or below the notice', 4000, [{ hoursBeforeStart: 24, refundPercent: 100 }], 23 * HOUR, 0],
    ['tiers in any order', 4000, [...standard].reverse(), 30 * HOUR, 2000],
    ['half a cent rounds away from zero', 1001, [{ hoursBeforeStart: 0, refundPercent: 50 }], HOUR, 501],
    ['a free booking refunds nothing', 0, standard, 72 * HOUR, 0],
  ])('%s', (_, total, tiers, notice, expected) => {
    expect(refundFor(total, tiers, notice)).toBe(expected);
  });
});

describe('checkTiers', () => {
  it('sorts tiers by hoursBeforeStart, largest first', () => {
    expect(checkTiers([...standard].reverse())).toEqual({ tiers: standard, errors: [] });
  });

  it.each([
    ['not a list', 'x', 'tiers'],
    ['an empty list', [], 'tiers'],
    ['a negative hoursBeforeStart', [{ hoursBeforeStart: -1, refundPercent: 0 }], 'tiers[0].hoursBeforeStart'],
    ['a fractional hoursBeforeStart', [{ hoursBeforeStart: 1.5, refundPercent: 0 }], 'tiers[0].hoursBeforeStart'],
    ['refundPercent above 100', [{ hoursBeforeStart: 0, refundPercent: 101 }], 'tiers[0].refundPercent'],
    ['a missing refundPercent', [{ hoursBeforeStart: 0 }], 'tiers[0].refundPercent'],
    [
      'two tiers at the same hour',
      [
        { hoursBeforeStart: 24, refundPercent: 100 },
        { hoursBeforeStart: 24, refundPercent: 50 },
      ],
      'tiers[1].hoursBeforeStart',
    ],
    ['an unknown field', [{ hoursBeforeStart: 24, refundPercent: 100, percent: 5 }], 'tiers[0].percent'],
  ])('refuses %s', (_, value, field) => {
    const { tiers, errors } = checkTiers(value);
    expect(tiers).toBeUndefined();
    expect(errors.map((e) => e.field)).toContain(field);
  });
});

describe('applicableTier', () => {
  it.each([
    ['the largest tier the notice reaches', standard, 30 * HOUR, standard[1]],
    ['exactly a tier', standard, 48 * HOUR, standard[0]],
    ['a 0-hour tier until the start', standard, 1, standard[2]],
    ['none after the start', standard, -1, undefined],
    ['none under the shortest tier', [{ hoursBeforeStart: 24, refundPercent: 100 }], 23 * HOUR, undefined],
  ])('%s', (_, tiers, notice, expected) => {
    expect(applicableTier(tiers, notice)).toEqual(expected);
  });
});
