import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import type { LimiterStore } from './store.js';

/** At most `maxFailures` failures in a window of `windowSeconds` that starts at the first one. */
export interface FailureTier {
  maxFailures: number;
  windowSeconds: number;
}

/**
 * Counts failures (wrong codes, wrong passwords) per key and tells how long a key must wait.
 * Several tiers make a backoff: e.g. 10 a minute, then 30 an hour.
 */
export interface FailureLimiter {
  readonly name: string;
  readonly tiers: readonly FailureTier[];
  /** Whole seconds until `key` may try again; 0 when it is not blocked. */
  retryAfterSeconds(key: string): Promise<number>;
  /** Counts one failure of `key`; returns the seconds it must now wait (0: it may go on). */
  recordFailure(key: string): Promise<number>;
  /** Forgets `key`'s failures (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
}

const KEY_PREFIX = 'portier:guess:';

function tierLimiter(store: LimiterStore, name: string, tier: FailureTier, index: number): RateLimiterAbstract {
  const options = {
    keyPrefix: `${KEY_PREFIX}${name}:${index}`,
    points: tier.maxFailures,
    duration: tier.windowSeconds,
  };
  if (store.kind === 'memory') return new RateLimiterMemory(options);
  // A Redis outage must not open the floodgates nor break the door: the process counts on its own
  // (the insurance limiter) until Redis is back.
  return new RateLimiterRedis({
    ...options,
    storeClient: store.redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

function waitOf(res: RateLimiterRes | null, tier: FailureTier): number {
  if (!res || res.consumedPoints < tier.maxFailures) return 0;
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * A failure limiter on the given store (rate-limiter-flexible): shared by every process when the
 * store is Redis. `name` keeps the counters of different limiters apart.
 */
export function createFailureLimiter(store: LimiterStore, name: string, tiers: readonly FailureTier[]): FailureLimiter {
  if (tiers.length === 0) throw new Error(`Failure limiter ${name} needs at least one tier`);
  const limiters = tiers.map((tier, index) => ({ tier, limiter: tierLimiter(store, name, tier, index) }));
  return {
    name,
    tiers,
    async retryAfterSeconds(key) {
      const states = await Promise.all(limiters.map(async ({ tier, limiter }) => waitOf(await limiter.get(key), tier)));
      return Math.max(0, ...states);
    },
    async recordFailure(key) {
      const states = await Promise.all(
        limiters.map(async ({ tier, limiter }) => waitOf(await limiter.penalty(key, 1), tier)),
      );
      return Math.max(0, ...states);
    },
    async reset(key) {
      await Promise.all(limiters.map(({ limiter }) => limiter.delete(key)));
    },
  };
}
