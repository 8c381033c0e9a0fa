import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import {
  createFailureLimiter,
  memoryLimiterStore,
  openLimiterStore,
  type LimiterStore,
} from '../src/kernel/limits/index.js';
import { workerRedisUrl } from './worker-services.js';

// The guessing limiters (src/limits): tiers, windows that run out, and — with REDIS_URL — counters
// shared by every process and kept across a restart.

const redisUrl = workerRedisUrl();
const log = pino({ level: 'silent' });
const opened: LimiterStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});

async function until(check: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a failure limiter in memory', () => {
  it('blocks a key after maxFailures in its window, keys apart, and the longest tier wins', async () => {
    const limiter = createFailureLimiter(memoryLimiterStore(), 'test', [
      { maxFailures: 2, windowSeconds: 60 },
      { maxFailures: 3, windowSeconds: 3600 },
    ]);
    expect(await limiter.recordFailure('a')).toBe(0);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    const wait = await limiter.recordFailure('a');
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limiter.retryAfterSeconds('b')).toBe(0);
    await limiter.recordFailure('a');
    expect(await limiter.retryAfterSeconds('a')).toBeGreaterThan(3500);
    await limiter.reset('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('lets a key try again once its window ran out', async () => {
    const limiter = createFailureLimiter(memoryLimiterStore(), 'short', [{ maxFailures: 1, windowSeconds: 1 }]);
    expect(await limiter.recordFailure('k')).toBe(1);
    await until(async () => (await limiter.retryAfterSeconds('k')) === 0);
  });
});

const title = redisUrl ? 'failure limiters on Redis' : 'failure limiters on Redis — SKIPPED: set REDIS_URL to run it';
if (!redisUrl) console.info(title);

describe.skipIf(!redisUrl)(title, () => {
  const open = async () => {
    const store = await openLimiterStore(redisUrl, log);
    opened.push(store);
    return store;
  };

  it('share one count between processes (two stores) and keep it across a restart (a new connection)', async () => {
    const name = `test-${randomUUID()}`;
    const tiers = [{ maxFailures: 4, windowSeconds: 600 }];
    const first = createFailureLimiter(await open(), name, tiers);
    const second = createFailureLimiter(await open(), name, tiers);
    await first.recordFailure('door');
    await second.recordFailure('door');
    await first.recordFailure('door');
    expect(await second.retryAfterSeconds('door')).toBe(0);
    expect(await second.recordFailure('door')).toBeGreaterThan(590);
    const restarted = await open();
    await (opened.shift() as LimiterStore).close();
    expect(await createFailureLimiter(restarted, name, tiers).retryAfterSeconds('door')).toBeGreaterThan(590);
    expect(await createFailureLimiter(restarted, `${name}-other`, tiers).retryAfterSeconds('door')).toBe(0);
  });
});
