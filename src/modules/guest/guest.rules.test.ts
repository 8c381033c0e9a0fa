import { describe, expect, it } from 'vitest';
import {
  amountDue,
  cancelRefusal,
  localRange,
  parseInstant,
  parseLocalDate,
  payOption,
  percentOf,
  rescheduleRefusal,
  vatIncluded,
} from './guest.rules.js';

// Run under several TZ values by `npm run test:tz`: every expectation is in UTC or an explicit zone.

const NOW = new Date('2026-11-20T09:00:00Z');
const LATER = new Date('2026-11-21T09:00:00Z');
const EARLIER = new Date('2026-11-20T08:00:00Z');

describe('cancelRefusal', () => {
  it.each([
    ['a confirmed booking ahead, a tier applies', 'CONFIRMED', LATER, true, null],
    ['a pending booking ahead, a tier applies', 'PENDING', LATER, true, null],
    ['less notice than every tier', 'CONFIRMED', LATER, false, 'tooLate'],
    ['started', 'CONFIRMED', EARLIER, true, 'started'],
    ['starting right now', 'CONFIRMED', NOW, true, 'started'],
    ['already cancelled', 'CANCELLED', LATER, true, 'cancelled'],
    ['completed', 'COMPLETED', LATER, true, 'completed'],
  ] as const)('%s', (_, status, start, tierApplies, expected) => {
    expect(cancelRefusal({ status, start_time: start }, tierApplies, NOW)).toBe(expected);
  });
});

describe('rescheduleRefusal', () => {
  it.each([
    ['confirmed, ahead', 'CONFIRMED', LATER, null],
    ['pending, ahead', 'PENDING', LATER, null],
    ['started', 'CONFIRMED', EARLIER, 'started'],
    ['cancelled', 'CANCELLED', LATER, 'cancelled'],
    ['completed', 'COMPLETED', EARLIER, 'completed'],
  ] as const)('%s', (_, status, start, expected) => {
    expect(rescheduleRefusal({ status, start_time: start }, NOW)).toBe(expected);
  });
});

describe('amountDue and payOption', () => {
  const unpaid = { status: 'PENDING', payment_status: 'UNPAID', total_price: 4100, amount_paid: 0 } as const;
  it.each([
    ['unpaid, provider, no page settings', unpaid, true, null, 4100, 'online'],
    ['unpaid, provider, online required', unpaid, true, 'online_required', 4100, 'online'],
    ['unpaid, provider, online optional', unpaid, true, 'online_optional', 4100, 'online'],
    ['unpaid, provider, but the venue takes payment at the venue', unpaid, true, 'at_venue', 4100, 'venue'],
    ['unpaid, no provider', unpaid, false, 'online_required', 4100, 'venue'],
    ['free', { ...unpaid, total_price: 0 }, true, null, 0, null],
    ['paid', { ...unpaid, payment_status: 'PAID', amount_paid: 4100 }, true, null, 0, null],
    [
      'paid in part at the venue: the rest at the venue (the paymentUrl charges the whole price)',
      { ...unpaid, payment_status: 'PAID', amount_paid: 1000 },
      true,
      null,
      3100,
      'venue',
    ],
    ['cancelled', { ...unpaid, status: 'CANCELLED' }, true, null, 0, null],
    ['completed', { ...unpaid, status: 'COMPLETED' }, true, null, 0, null],
  ] as const)('%s', (_, booking, provider, mode, due, option) => {
    expect(amountDue(booking)).toBe(due);
    expect(payOption(booking, provider, mode)).toBe(option);
  });
});

describe('vatIncluded and percentOf', () => {
  it.each([
    [4100, 1900, 655],
    [11900, 1900, 1900],
    [1000, 700, 65],
    [0, 1900, 0],
    [4100, 0, 0],
  ])('%i cents at %i basis points contain %i cents of VAT', (gross, rate, vat) => {
    expect(vatIncluded(gross, rate)).toBe(vat);
  });

  it('prints the rate in the guest’s language', () => {
    expect(percentOf(1900, 'en')).toBe('19%');
    expect(percentOf(750, 'en')).toBe('7.5%');
    expect(percentOf(750, 'de').replace(/\s/u, ' ')).toBe('7,5 %');
  });
});

describe('localRange', () => {
  it.each([
    ['en', '2026-11-21T09:00:00Z', '2026-11-21T11:00:00Z', 'Europe/Berlin', 'Saturday 21 November 2026, 10:00–12:00'],
    ['de', '2026-11-21T09:00:00Z', '2026-11-21T11:00:00Z', 'Europe/Berlin', 'Samstag, 21. November 2026, 10:00–12:00'],
    [
      'en',
      '2026-11-21T22:00:00Z',
      '2026-11-22T01:00:00Z',
      'Europe/Berlin',
      'Saturday 21 November 2026, 23:00–Sunday 22 November 2026, 02:00',
    ],
    [
      'en',
      '2026-11-21T09:00:00Z',
      '2026-11-21T10:00:00Z',
      'America/New_York',
      'Saturday 21 November 2026, 04:00–05:00',
    ],
  ] as const)('%s %s–%s in %s', (locale, start, end, zone, expected) => {
    expect(localRange(new Date(start), new Date(end), zone, locale)).toBe(expected);
  });
});

describe('form values', () => {
  it.each([
    ['2026-11-22', '2026-11-22'],
    ['2026-02-30', undefined],
    ['2026-13-01', undefined],
    ['22.11.2026', undefined],
    ['2026-11-22\u0000', undefined],
    [['2026-11-22'], undefined],
    [undefined, undefined],
  ])('date %j → %j', (value, expected) => {
    expect(parseLocalDate(value)).toBe(expected);
  });

  it.each([
    ['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T11:00:00+01:00', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22', undefined],
    ['tomorrow', undefined],
    ['2026-11-22T10:00:00.000Z\u0000', undefined],
    ['2026-11-22T99:00:00Z', undefined],
    [`2026-11-22T10:00:00.${'0'.repeat(100)}Z`, undefined],
    [42, undefined],
  ])('instant %j → %j', (value, expected) => {
    expect(parseInstant(value)?.toISOString()).toBe(expected);
  });
});
