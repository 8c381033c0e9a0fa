import { describe, expect, it } from 'vitest';
import {
  checkoutExpiry,
  holdExpired,
  paymentPageState,
  paymentStatusOf,
  refundOnCancellation,
  reusable,
} from './payments.rules.js';

describe('paymentStatusOf', () => {
  it.each([
    [0, 0, 'UNPAID'],
    [4100, 0, 'PAID'],
    [4100, 2050, 'PARTIALLY_REFUNDED'],
    [4100, 4100, 'REFUNDED'],
  ] as const)('paid %i, refunded %i → %s', (paid, refunded, status) => {
    expect(paymentStatusOf(paid, refunded)).toBe(status);
  });
});

describe('refundOnCancellation', () => {
  it.each([
    [4100, 0, 0, 0],
    [4100, 4100, 0, 4100],
    [2050, 4100, 0, 2050],
    [4100, 4100, 3000, 1100],
    [0, 4100, 0, 0],
    [9999, 4100, 4100, 0],
  ])('policy %i, paid %i, refunded %i → %i', (policy, paid, refunded, expected) => {
    expect(refundOnCancellation(policy, paid, refunded)).toBe(expected);
  });
});

describe('paymentPageState', () => {
  it.each([
    ['PENDING', 'UNPAID', 4100, 'payable'],
    ['CONFIRMED', 'UNPAID', 4100, 'payable'],
    ['CANCELLED', 'UNPAID', 4100, 'cancelled'],
    ['CANCELLED', 'PAID', 4100, 'cancelled'],
    ['COMPLETED', 'UNPAID', 4100, 'completed'],
    ['CONFIRMED', 'PAID', 4100, 'paid'],
    ['PENDING', 'UNPAID', 0, 'free'],
  ] as const)('%s %s %i → %s', (status, payment_status, total_price, state) => {
    expect(paymentPageState({ status, payment_status, total_price })).toBe(state);
  });
});

describe('checkoutExpiry', () => {
  const now = new Date('2026-11-20T10:00:00Z');
  it.each([
    ['no hold: 24 hours', now, null, '2026-11-21T10:00:00.000Z'],
    ['a 2-hour hold from creation', new Date('2026-11-20T09:30:00Z'), 120, '2026-11-20T11:30:00.000Z'],
    ['a 10-minute hold: Stripe’s 30-minute minimum', now, 10, '2026-11-20T10:30:00.000Z'],
    ['a 3-day hold: Stripe’s 24-hour maximum', now, 4320, '2026-11-21T10:00:00.000Z'],
  ] as const)('%s', (_, createdAt, hold, expected) => {
    expect(checkoutExpiry(now, createdAt, hold).toISOString()).toBe(expected);
  });
});

describe('reusable', () => {
  const now = new Date('2026-11-20T10:00:00Z');
  it.each([
    ['open, same price', '2026-11-20T10:30:00Z', 4100, true],
    ['expiring within a minute', '2026-11-20T10:00:30Z', 4100, false],
    ['expired', '2026-11-20T09:00:00Z', 4100, false],
    ['another price (rescheduled)', '2026-11-20T10:30:00Z', 5000, false],
  ] as const)('%s → %s', (_, expiresAt, amount, expected) => {
    expect(reusable({ expires_at: new Date(expiresAt), amount: 4100 }, now, amount)).toBe(expected);
  });
});

describe('holdExpired', () => {
  const created = new Date('2026-11-20T10:00:00Z');
  it.each([
    ['no hold', 'PENDING', 'UNPAID', null, '2026-11-22T10:00:00Z', false],
    ['before the end', 'PENDING', 'UNPAID', 30, '2026-11-20T10:29:59Z', false],
    ['at the end', 'PENDING', 'UNPAID', 30, '2026-11-20T10:30:00Z', true],
    ['paid', 'PENDING', 'PAID', 30, '2026-11-20T11:00:00Z', false],
    ['confirmed by staff', 'CONFIRMED', 'UNPAID', 30, '2026-11-20T11:00:00Z', false],
  ] as const)('%s → %s', (_, status, payment_status, hold, at, expected) => {
    expect(holdExpired({ status, payment_status, created_at: created }, hold, new Date(at))).toBe(expected);
  });
});
