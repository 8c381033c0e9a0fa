// When a failed delivery is tried again (DESIGN section 5): after 5 s, 5 min, 30 min, 2 h, 5 h,
// 10 h and 10 h; eight attempts in all, then the delivery has failed.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** A Retry-After longer than this is not waited for: the delivery waits this long instead. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/**
 * When to try again after the failed attempt number `failures` (1 = the first attempt failed),
 * or null when the schedule is exhausted. A Retry-After from the receiver is honoured: the next
 * attempt is never earlier than it asks, up to MAX_RETRY_AFTER_MS.
 */
export function nextAttemptAt(failures: number, now: Date, retryAfter?: string | null): Date | null {
  const scheduled = RETRY_DELAYS_MS[failures - 1];
  if (scheduled === undefined) return null;
  const asked = parseRetryAfter(retryAfter, now);
  const delay = asked === undefined ? scheduled : Math.min(Math.max(scheduled, asked), MAX_RETRY_AFTER_MS);
  return new Date(now.getTime() + delay);
}
