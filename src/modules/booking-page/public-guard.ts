import { DomainError, invalidField } from '../../kernel/errors.js';
import type { BookingGuard, ProofRefusal } from './guard.js';
import type { PublicBookingGuard } from './public-limits.js';

// The public API's bot check (docs/booking-page.md, "Publishable key"): createPublicBooking must
// carry a challenge from publicBookingChallenge and the nonce that solves it, and an empty
// honeypot. The booking page's guard checks them (the same challenges, difficulty and spent set);
// this file names what is wrong, field by field, so an integrator can fix their client.

const ASK = 'ask publicBookingChallenge (REST GET /api/v1/tenants/{tenantId}/public/booking-challenge) for one';

/** The error a refused proof answers: BAD_USER_INPUT naming the field, or CONFLICT for a spent challenge. */
export function proofRefusalError(refusal: ProofRefusal): DomainError {
  switch (refusal.reason) {
    case 'honeypot':
      return invalidField(
        'honeypot',
        'must be empty: it mirrors a form field hidden from people, and only bots fill it in',
        'bot_suspected',
      );
    case 'challenge_missing':
      return invalidField('challenge', `is required: ${ASK}, solve it and send it with its nonce`, 'proof_required');
    case 'nonce_missing':
      return invalidField(
        'nonce',
        'is required: the decimal number n such that SHA-256("<challenge>:<n>") starts with the challenge’s bits zero bits',
        'proof_required',
      );
    case 'malformed':
      return invalidField('challenge', `is not a challenge Portier issued: ${ASK}`, 'proof_invalid');
    case 'forged':
      return invalidField(
        'challenge',
        `was not issued for this venue (or was altered): ${ASK} with this venue's key`,
        'proof_invalid',
      );
    case 'expired':
      return invalidField('challenge', `has expired: ${ASK} again`, 'proof_expired');
    case 'too_easy':
      return invalidField(
        'challenge',
        `was issued for fewer zero bits than the venue now asks (${refusal.bits}): ${ASK} again`,
        'proof_invalid',
      );
    case 'unsolved':
      return invalidField(
        'nonce',
        `does not solve the challenge: SHA-256("<challenge>:<nonce>") must start with ${refusal.bits} zero bits, the nonce a decimal number of at most 16 digits`,
        'proof_invalid',
      );
    case 'proof_used':
      return new DomainError(
        'CONFLICT',
        'proof_used',
        `challenge: was already used for a booking (each challenge books once): ${ASK} again`,
        { fieldErrors: [{ field: 'challenge', message: 'was already used for a booking' }] },
      );
  }
}

/** createPublicBooking's bot check: the booking page's honeypot and proof of work, a proof required. */
export function publicProofGuard(guard: BookingGuard): PublicBookingGuard {
  return async ({ tenantId, botCheck, now }) => {
    const verdict = await guard.checkProof({ tenantId, ...botCheck, now });
    if (!verdict.ok) throw proofRefusalError(verdict);
  };
}
