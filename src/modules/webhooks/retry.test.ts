import { describe, expect, it } from 'vitest';
import { nextAttemptAt, parseRetryAfter, RETRY_DELAYS_MS } from './retry.js';

const now = new Date('2026-11-20T10:00:00Z');
const after = (failures: number, retryAfter?: string) => {
  const at = nextAttemptAt(failures, now, retryAfter);
  return at && (at.getTime() - now.getTime()) / 1000;
};

describe('retry schedule', () => {
  it.each([
    [1, 5],
    [2, 300],
    [3, 1800],
    [4, 7200],
    [5, 18000],
    [6, 36000],
    [7, 36000],
    [8, null],
  ])('after failure %i the next attempt is %s s later', (failures, seconds) => {
    expect(after(failures)).toBe(seconds);
  });

  it('has seven retries', () => expect(RETRY_DELAYS_MS).toHaveLength(7));

  it.each([
    ['120', 1, 120],
    ['2', 2, 300],
    ['Fri, 20 Nov 2026 11:00:00 GMT', 1, 3600],
    ['999999', 1, 86400],
    ['soon', 1, 5],
  ])('honours Retry-After %s after failure %i: %s s', (header, failures, seconds) => {
    expect(after(failures, header)).toBe(seconds);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
