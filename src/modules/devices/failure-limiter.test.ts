import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './failure-limiter.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + seconds * 1000);

describe('FailureLimiter', () => {
  it('blocks a key after the maximum failures within the window, until the oldest ages out', () => {
    const limiter = new FailureLimiter(3, 60_000);
    limiter.recordFailure('a', at(0));
    limiter.recordFailure('a', at(10));
    expect(limiter.retryAfterSeconds('a', at(11))).toBe(0);
    limiter.recordFailure('a', at(20));
    expect(limiter.retryAfterSeconds('a', at(21))).toBe(39);
    expect(limiter.retryAfterSeconds('a', at(59.5))).toBe(1);
    expect(limiter.retryAfterSeconds('a', at(60))).toBe(0);
  });

  it('keeps keys apart', () => {
    const limiter = new FailureLimiter(1, 60_000);
    limiter.recordFailure('a', at(0));
    expect(limiter.retryAfterSeconds('a', at(1))).toBe(59);
    expect(limiter.retryAfterSeconds('b', at(1))).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const limiter = new FailureLimiter(2, 60_000);
    limiter.recordFailure('a', at(0));
    limiter.recordFailure('a', at(61));
    expect(limiter.retryAfterSeconds('a', at(62))).toBe(0);
  });

  it('drops the least recently failed keys beyond its capacity', () => {
    const limiter = new FailureLimiter(1, 60_000, 2);
    limiter.recordFailure('a', at(0));
    limiter.recordFailure('b', at(1));
    limiter.recordFailure('c', at(2));
    expect(limiter.retryAfterSeconds('a', at(3))).toBe(0);
    expect(limiter.retryAfterSeconds('b', at(3))).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('c', at(3))).toBeGreaterThan(0);
  });
});
