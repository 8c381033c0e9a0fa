import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, canTransition, eventOfStatus } from './transitions.js';
import type { BookingStatus } from '../../kernel/db/types.js';

const allowed: [BookingStatus, BookingStatus][] = [
  ['PENDING', 'CONFIRMED'],
  ['PENDING', 'CANCELLED'],
  ['CONFIRMED', 'CANCELLED'],
  ['CONFIRMED', 'COMPLETED'],
];

describe('booking status transitions', () => {
  for (const from of BOOKING_STATUSES) {
    for (const to of BOOKING_STATUSES) {
      const expected = allowed.some(([f, t]) => f === from && t === to);
      it(`${from} → ${to} is ${expected ? 'allowed' : 'refused'}`, () => {
        expect(canTransition(from, to)).toBe(expected);
      });
    }
  }
  it.each([
    ['CONFIRMED', 'booking.confirmed'],
    ['CANCELLED', 'booking.cancelled'],
    ['COMPLETED', 'booking.completed'],
    ['PENDING', undefined],
  ] as const)('%s emits %s', (status, event) => {
    expect(eventOfStatus(status)).toBe(event);
  });
});
