import type { BookingStatus } from '../../kernel/db/types.js';

/** The contract's denial reasons, in the order they are checked. */
export const DENIAL_REASONS = [
  'invalid_token',
  'booking_not_confirmed',
  'outside_booking_window',
  'door_not_mapped_to_object',
] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];

/** What the token matched: its booking and whether the door serves the booked object. */
export interface CredentialMatch {
  bookingStatus: BookingStatus;
  validFrom: Date;
  validUntil: Date;
  doorServesObject: boolean;
}

export type AccessDecision = { allowed: true } | { allowed: false; reason: DenialReason };

/**
 * Whether a scanned token opens a door. The first failing check gives the reason; the window is
 * half-open like the booking: validFrom ≤ now < validUntil.
 */
export function decideAccess(match: CredentialMatch | undefined, now: Date): AccessDecision {
  if (!match) return { allowed: false, reason: 'invalid_token' };
  if (match.bookingStatus !== 'CONFIRMED') return { allowed: false, reason: 'booking_not_confirmed' };
  if (now < match.validFrom || now >= match.validUntil) return { allowed: false, reason: 'outside_booking_window' };
  if (!match.doorServesObject) return { allowed: false, reason: 'door_not_mapped_to_object' };
  return { allowed: true };
}
