import type { FailureTier } from '../../kernel/limits/index.js';

/**
 * Wrong SMS codes per door, a backoff in two steps: 10 in a minute, then 30 in an hour. Past either,
 * a wrong or not-yet-valid code is answered 429 without saying why; a code that opens the door
 * now still opens it (docs/devices.md). QR tokens are never counted: 192 signed bits are not guessed.
 */
export const SMS_CODE_GUESS_TIERS: readonly FailureTier[] = [
  { maxFailures: 10, windowSeconds: 60 },
  { maxFailures: 30, windowSeconds: 60 * 60 },
];

/** The limiter key: guesses are counted per door and credential shape (SMS codes only). */
export const smsGuessKey = (doorId: string): string => `door:${doorId}:sms`;
