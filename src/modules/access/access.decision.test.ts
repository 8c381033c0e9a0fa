import { describe, expect, it } from 'vitest';
import { decideAccess, type CredentialMatch } from './access.decision.js';

const validFrom = new Date('2026-11-20T10:00:00Z');
const validUntil = new Date('2026-11-20T11:00:00Z');
const inside = new Date('2026-11-20T10:30:00Z');
const ok: CredentialMatch = { bookingStatus: 'CONFIRMED', validFrom, validUntil, doorServesObject: true };

describe('access decision', () => {
  it.each([
    ['no matching credential', undefined, inside, 'invalid_token'],
    ['a PENDING booking', { ...ok, bookingStatus: 'PENDING' }, inside, 'booking_not_confirmed'],
    ['a CANCELLED booking', { ...ok, bookingStatus: 'CANCELLED' }, inside, 'booking_not_confirmed'],
    ['a COMPLETED booking', { ...ok, bookingStatus: 'COMPLETED' }, inside, 'booking_not_confirmed'],
    [
      'a cancelled booking outside its window, at an unmapped door',
      { ...ok, bookingStatus: 'CANCELLED', doorServesObject: false },
      validUntil,
      'booking_not_confirmed',
    ],
    ['one millisecond before the start', ok, new Date(validFrom.getTime() - 1), 'outside_booking_window'],
    ['at the end', ok, validUntil, 'outside_booking_window'],
    [
      'outside the window at an unmapped door',
      { ...ok, doorServesObject: false },
      validUntil,
      'outside_booking_window',
    ],
    ['a door that does not serve the object', { ...ok, doorServesObject: false }, inside, 'door_not_mapped_to_object'],
  ] as const)('%s is denied with %s', (_name, match, now, reason) => {
    expect(decideAccess(match, now)).toEqual({ allowed: false, reason });
  });

  it.each([
    ['at the start', validFrom],
    ['inside the window', inside],
    ['one millisecond before the end', new Date(validUntil.getTime() - 1)],
  ])('a confirmed booking is allowed %s', (_name, now) => {
    expect(decideAccess(ok, now)).toEqual({ allowed: true });
  });
});
