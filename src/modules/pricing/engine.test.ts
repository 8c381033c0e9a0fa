import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatEuros,
  msInsideDailyWindow,
  quotePrice,
  roundDiv,
  type PricingRule,
  type PriceRequest,
} from './engine.js';

// Every instant is written with an explicit offset and every rule is read in an explicit zone, so
// these tests do not depend on the machine's TZ (they are also run under TZ=America/New_York).

const BERLIN = 'Europe/Berlin';
const OBJECT = '00000000-0000-4000-8000-000000000001';
const OTHER_OBJECT = '00000000-0000-4000-8000-000000000002';

function rule(overrides: Partial<PricingRule> & Pick<PricingRule, 'type' | 'percent'>): PricingRule {
  return {
    name: overrides.type,
    active: true,
    objectIds: [],
    startTime: null,
    endTime: null,
    weekdays: null,
    minDurationMinutes: null,
    minDaysInAdvance: null,
    ...overrides,
  };
}

const peak = rule({ name: 'Evening peak', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 });
const night = rule({ name: 'Night', type: 'time_based', startTime: '22:00', endTime: '06:00', percent: -20 });
const weekend = rule({ name: 'Weekend', type: 'day_based', weekdays: ['saturday', 'sunday'], percent: 10 });
const long = rule({ name: 'Long booking', type: 'duration_based', minDurationMinutes: 120, percent: -10 });
const early = rule({ name: 'Early bird', type: 'early_bird', minDaysInAdvance: 7, percent: -15 });

function request(start: string, end: string, overrides: Partial<PriceRequest> = {}): PriceRequest {
  return {
    objectId: OBJECT,
    pricePerHour: 2000,
    timeZone: BERLIN,
    start: new Date(start),
    end: new Date(end),
    createdAt: new Date('2026-11-17T12:00:00+01:00'),
    ...overrides,
  };
}

// 2026-11-18 is a Wednesday, 2026-11-20 a Friday, 2026-11-21 a Saturday; Berlin is at +01:00 in November.
interface Case {
  name: string;
  request: PriceRequest;
  rules: PricingRule[];
  basePrice: number;
  adjustments: [string, number][];
  totalPrice: number;
  breakdown?: string;
}

const cases: Case[] = [
  {
    name: 'no rules: the base price',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00'),
    rules: [],
    basePrice: 4000,
    adjustments: [],
    totalPrice: 4000,
    breakdown: '2 h × €20.00 = €40.00; Total €40.00',
  },
  {
    name: 'time_based: only the minutes inside the window',
    request: request('2026-11-18T17:00:00+01:00', '2026-11-18T19:00:00+01:00'),
    rules: [peak],
    basePrice: 4000,
    adjustments: [['Evening peak', 500]],
    totalPrice: 4500,
    breakdown: '2 h × €20.00 = €40.00; Evening peak +€5.00; Total €45.00',
  },
  {
    name: 'time_based: across the window end',
    request: request('2026-11-18T21:30:00+01:00', '2026-11-18T22:30:00+01:00'),
    rules: [peak],
    basePrice: 2000,
    adjustments: [['Evening peak', 250]],
    totalPrice: 2250,
  },
  {
    name: 'time_based: starting at the window end does not apply',
    request: request('2026-11-18T22:00:00+01:00', '2026-11-18T23:00:00+01:00'),
    rules: [peak],
    basePrice: 2000,
    adjustments: [],
    totalPrice: 2000,
  },
  {
    name: 'time_based: a window wrapping past midnight, booking across midnight',
    request: request('2026-11-18T23:00:00+01:00', '2026-11-19T01:00:00+01:00'),
    rules: [night],
    basePrice: 4000,
    adjustments: [['Night', -800]],
    totalPrice: 3200,
  },
  {
    name: 'time_based: the morning end of a wrapping window that started the day before',
    request: request('2026-11-19T05:00:00+01:00', '2026-11-19T07:00:00+01:00'),
    rules: [night],
    basePrice: 4000,
    adjustments: [['Night', -400]],
    totalPrice: 3600,
  },
  {
    name: 'time_based: a window ending at 24:00',
    request: request('2026-11-18T23:00:00+01:00', '2026-11-19T01:00:00+01:00'),
    rules: [rule({ name: 'Late', type: 'time_based', startTime: '20:00', endTime: '24:00', percent: 50 })],
    basePrice: 4000,
    adjustments: [['Late', 1000]],
    totalPrice: 5000,
  },
  {
    name: 'time_based with weekdays: applies on a listed day',
    request: request('2026-11-20T18:00:00+01:00', '2026-11-20T19:00:00+01:00'),
    rules: [{ ...peak, weekdays: ['friday'] }],
    basePrice: 2000,
    adjustments: [['Evening peak', 500]],
    totalPrice: 2500,
  },
  {
    name: 'time_based with weekdays: not on another day',
    request: request('2026-11-18T18:00:00+01:00', '2026-11-18T19:00:00+01:00'),
    rules: [{ ...peak, weekdays: ['friday'] }],
    basePrice: 2000,
    adjustments: [],
    totalPrice: 2000,
  },
  {
    name: 'time_based with weekdays: a wrapping window belongs to the day it starts',
    request: request('2026-11-21T01:00:00+01:00', '2026-11-21T02:00:00+01:00'),
    rules: [{ ...night, weekdays: ['friday'] }],
    basePrice: 2000,
    adjustments: [['Night', -400]],
    totalPrice: 1600,
  },
  {
    name: 'day_based: the minutes on a listed weekday',
    request: request('2026-11-21T10:00:00+01:00', '2026-11-21T12:00:00+01:00'),
    rules: [weekend],
    basePrice: 4000,
    adjustments: [['Weekend', 400]],
    totalPrice: 4400,
  },
  {
    name: 'day_based: across midnight into the weekend, only the Saturday hour',
    request: request('2026-11-20T23:00:00+01:00', '2026-11-21T01:00:00+01:00'),
    rules: [weekend],
    basePrice: 4000,
    adjustments: [['Weekend', 200]],
    totalPrice: 4200,
  },
  {
    name: 'day_based: not on another weekday',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00'),
    rules: [weekend],
    basePrice: 4000,
    adjustments: [],
    totalPrice: 4000,
  },
  {
    name: 'duration_based: at the minimum length',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00'),
    rules: [long],
    basePrice: 4000,
    adjustments: [['Long booking', -400]],
    totalPrice: 3600,
  },
  {
    name: 'duration_based: shorter than the minimum',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T11:30:00+01:00'),
    rules: [long],
    basePrice: 3000,
    adjustments: [],
    totalPrice: 3000,
    breakdown: '90 min × €20.00/h = €30.00; Total €30.00',
  },
  {
    name: 'early_bird: created exactly the minimum days before the start',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00', {
      createdAt: new Date('2026-11-11T10:00:00+01:00'),
    }),
    rules: [early],
    basePrice: 4000,
    adjustments: [['Early bird', -600]],
    totalPrice: 3400,
  },
  {
    name: 'early_bird: created a minute too late',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00', {
      createdAt: new Date('2026-11-11T10:01:00+01:00'),
    }),
    rules: [early],
    basePrice: 4000,
    adjustments: [],
    totalPrice: 4000,
  },
  {
    name: 'early_bird: counts local calendar days across a DST change',
    // 7 calendar days from 2026-03-22 10:00 CET is 2026-03-29 10:00 CEST: only 6 days 23 hours of real time.
    request: request('2026-03-29T10:00:00+02:00', '2026-03-29T11:00:00+02:00', {
      createdAt: new Date('2026-03-22T10:00:00+01:00'),
    }),
    rules: [early],
    basePrice: 2000,
    adjustments: [['Early bird', -300]],
    totalPrice: 1700,
  },
  {
    name: 'all four types combined, each on the base price, in rule order',
    request: request('2026-11-21T17:00:00+01:00', '2026-11-21T19:00:00+01:00', {
      createdAt: new Date('2026-11-01T09:00:00+01:00'),
    }),
    rules: [peak, weekend, long, early],
    basePrice: 4000,
    adjustments: [
      ['Evening peak', 500],
      ['Weekend', 400],
      ['Long booking', -400],
      ['Early bird', -600],
    ],
    totalPrice: 3900,
    breakdown:
      '2 h × €20.00 = €40.00; Evening peak +€5.00; Weekend +€4.00; Long booking -€4.00; Early bird -€6.00; Total €39.00',
  },
  {
    name: 'DST end (25-hour day): a window counts real hours, not wall-clock hours',
    // Local 01:00 CEST (23:00Z) to 04:00 CET (03:00Z) is 4 real hours; the 00:00–03:00 window is
    // 22:00Z–02:00Z, so 3 of them are inside it.
    request: request('2026-10-25T01:00:00+02:00', '2026-10-25T04:00:00+01:00'),
    rules: [rule({ name: 'Small hours', type: 'time_based', startTime: '00:00', endTime: '03:00', percent: 100 })],
    basePrice: 8000,
    adjustments: [['Small hours', 6000]],
    totalPrice: 14000,
    breakdown: '4 h × €20.00 = €80.00; Small hours +€60.00; Total €140.00',
  },
  {
    name: 'DST start (23-hour day): the skipped hour is not charged',
    // Local 01:00 CET (00:00Z) to 04:00 CEST (02:00Z) is 2 real hours; the 00:00–03:00 window ends
    // at 03:00 CEST = 01:00Z.
    request: request('2026-03-29T01:00:00+01:00', '2026-03-29T04:00:00+02:00'),
    rules: [rule({ name: 'Small hours', type: 'time_based', startTime: '00:00', endTime: '03:00', percent: 100 })],
    basePrice: 4000,
    adjustments: [['Small hours', 2000]],
    totalPrice: 6000,
  },
  {
    name: 'DST end: a whole Sunday is 25 hours of weekend',
    request: request('2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00'),
    rules: [weekend],
    basePrice: 50000,
    adjustments: [['Weekend', 5000]],
    totalPrice: 55000,
  },
  {
    name: 'a window is read in the accommodation zone, not UTC',
    // 18:00–19:00 in New York is 23:00Z–00:00Z: inside the local evening peak.
    request: request('2026-11-18T18:00:00-05:00', '2026-11-18T19:00:00-05:00', { timeZone: 'America/New_York' }),
    rules: [peak],
    basePrice: 2000,
    adjustments: [['Evening peak', 500]],
    totalPrice: 2500,
  },
  {
    name: 'discounts larger than the price: the total floors at 0',
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T12:00:00+01:00', {
      createdAt: new Date('2026-11-01T09:00:00+01:00'),
    }),
    rules: [
      { ...early, percent: -100 },
      { ...long, percent: -50 },
    ],
    basePrice: 4000,
    adjustments: [
      ['Early bird', -4000],
      ['Long booking', -2000],
    ],
    totalPrice: 0,
    breakdown: '2 h × €20.00 = €40.00; Early bird -€40.00; Long booking -€20.00; Total €0.00',
  },
  {
    name: 'rounding: base and window amounts of odd cents, half away from zero',
    // 1001 × 0.5 h = 500.5 → 501; 1001 × 0.5 h × 25% = 125.125 → 125; 1001 × 0.5 h × −100% = −500.5 → −501.
    request: request('2026-11-18T18:00:00+01:00', '2026-11-18T18:30:00+01:00', { pricePerHour: 1001 }),
    rules: [
      peak,
      rule({ name: 'Free evening', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: -100 }),
    ],
    basePrice: 501,
    adjustments: [
      ['Evening peak', 125],
      ['Free evening', -501],
    ],
    totalPrice: 125,
  },
  {
    name: 'rounding: whole-booking amounts of half a cent go away from zero',
    // 600/h for 1 min = 10; ±25% = ±2.5 → ±3.
    request: request('2026-11-18T10:00:00+01:00', '2026-11-18T10:01:00+01:00', { pricePerHour: 600 }),
    rules: [
      rule({ name: 'Surcharge', type: 'duration_based', minDurationMinutes: 1, percent: 25 }),
      rule({ name: 'Discount', type: 'duration_based', minDurationMinutes: 1, percent: -25 }),
    ],
    basePrice: 10,
    adjustments: [
      ['Surcharge', 3],
      ['Discount', -3],
    ],
    totalPrice: 10,
  },
  {
    name: 'inactive rules and rules limited to other objects are ignored',
    request: request('2026-11-18T18:00:00+01:00', '2026-11-18T19:00:00+01:00'),
    rules: [
      { ...peak, name: 'Inactive', active: false },
      { ...peak, name: 'Other object', objectIds: [OTHER_OBJECT] },
      { ...peak, name: 'This object', objectIds: [OTHER_OBJECT, OBJECT] },
    ],
    basePrice: 2000,
    adjustments: [['This object', 500]],
    totalPrice: 2500,
  },
];

describe('quotePrice', () => {
  it.each(cases)('$name', (c) => {
    const quote = quotePrice(c.request, c.rules);
    expect(quote.basePrice).toBe(c.basePrice);
    expect(quote.adjustments.map((a) => [a.rule, a.amount])).toEqual(c.adjustments);
    expect(quote.totalPrice).toBe(c.totalPrice);
    expect(quote.currency).toBe('EUR');
    if (c.breakdown) expect(quote.breakdown).toBe(c.breakdown);
  });

  it('refuses an empty or reversed range', () => {
    expect(() => quotePrice(request('2026-11-18T10:00:00Z', '2026-11-18T10:00:00Z'), [])).toThrow(RangeError);
  });
});

describe('msInsideDailyWindow', () => {
  const hour = 3_600_000;
  it.each([
    [
      'a booking spanning two windows',
      '2026-11-18T17:00:00+01:00',
      '2026-11-19T19:00:00+01:00',
      { startTime: '18:00', endTime: '22:00' },
      5 * hour,
    ],
    [
      'a wrapping window over three nights',
      '2026-11-18T12:00:00+01:00',
      '2026-11-21T12:00:00+01:00',
      { startTime: '22:00', endTime: '06:00' },
      24 * hour,
    ],
    [
      'a booking entirely before the window',
      '2026-11-18T08:00:00+01:00',
      '2026-11-18T09:00:00+01:00',
      { startTime: '18:00', endTime: '22:00' },
      0,
    ],
  ])('%s', (_, start, end, window, expected) => {
    expect(msInsideDailyWindow(new Date(start), new Date(end), BERLIN, window)).toBe(expected);
  });
});

describe('roundDiv and formatting', () => {
  it.each([
    [5n, 2n, 3],
    [-5n, 2n, -3],
    [7n, 3n, 2],
    [-7n, 3n, -2],
    [0n, 7n, 0],
  ])('%s / %s = %s', (n, d, expected) => {
    expect(roundDiv(n, d)).toBe(expected);
  });

  it.each([
    [0, false, '€0.00'],
    [5, false, '€0.05'],
    [123456, false, '€1234.56'],
    [-400, true, '-€4.00'],
    [500, true, '+€5.00'],
  ])('formatEuros(%s, %s) = %s', (cents, signed, text) => {
    expect(formatEuros(cents, signed)).toBe(text);
  });

  it.each([
    [7_200_000, '2 h'],
    [5_400_000, '90 min'],
    [5_430_000, '90.5 min'],
  ])('formatDuration(%s) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
