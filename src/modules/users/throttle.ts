import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterStore } from '../../limits/index.js';

/** One sign-in attempt, as the throttle sees it. */
export interface SignInAttempt {
  /** The email, lower-cased: throttled whether or not a user has it. */
  account: string;
  /** The client address (fastify's req.ip, which TRUST_PROXY governs). */
  address: string;
}

/**
 * Guessing passwords costs time. Built once at the composition root (buildApp); tests build one
 * with short windows.
 */
export interface SignInThrottle {
  /** Seconds until this attempt may be tried, or 0 when it may be tried now. */
  retryAfter(attempt: SignInAttempt): Promise<number>;
  /** A wrong password or unknown email. */
  failed(attempt: SignInAttempt): Promise<void>;
  /** A correct password: the account's failures from this address are forgotten. */
  succeeded(attempt: SignInAttempt): Promise<void>;
}

export interface ThrottleRule {
  /** Failures allowed within `windowSeconds`… */
  failures: number;
  windowSeconds: number;
  /** …after which attempts are refused for this long. */
  blockSeconds: number;
}

export interface SignInThrottleOptions {
  /** One account from one address: the owner who mistypes, or one guesser. Reset by a success. */
  perAccountAndAddress: ThrottleRule;
  /** One account from anywhere: a guesser spread over many addresses. */
  perAccount: ThrottleRule;
  /** One address trying many accounts. */
  perAddress: ThrottleRule;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleOptions = {
  perAccountAndAddress: { failures: 5, windowSeconds: 15 * 60, blockSeconds: 5 * 60 },
  perAccount: { failures: 20, windowSeconds: 60 * 60, blockSeconds: 15 * 60 },
  perAddress: { failures: 100, windowSeconds: 60 * 60, blockSeconds: 60 * 60 },
};

const REDIS_PREFIX = 'portier:signin';

interface Limiter {
  rule: ThrottleRule;
  limiter: RateLimiterAbstract;
  key(attempt: SignInAttempt): string;
}

/**
 * The throttle on rate-limiter-flexible and the runtime's limiter store (src/limits): counters in
 * memory, or in Redis so every process shares them (an in-memory limiter insures against a Redis
 * outage). Unlike src/limits' failure tiers, whose wait lasts until the counting window ends, a
 * rule here has its own, shorter block window: failures are remembered for long, while the owner
 * who mistyped waits only minutes.
 */
export function createSignInThrottle(options: SignInThrottleOptions = DEFAULT_SIGN_IN_THROTTLE, store?: LimiterStore): SignInThrottle {
  const make = (name: string, rule: ThrottleRule): RateLimiterAbstract => {
    const base = { keyPrefix: `${REDIS_PREFIX}:${name}`, points: rule.failures, duration: rule.windowSeconds };
    const memory = new RateLimiterMemory(base);
    if (store?.kind !== 'redis') return memory;
    return new RateLimiterRedis({ ...base, storeClient: store.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  };
  const limiters: Limiter[] = [
    { rule: options.perAccountAndAddress, limiter: make('account-address', options.perAccountAndAddress), key: (a) => `${a.account}|${a.address}` },
    { rule: options.perAccount, limiter: make('account', options.perAccount), key: (a) => a.account },
    { rule: options.perAddress, limiter: make('address', options.perAddress), key: (a) => a.address },
  ];
  const [accountAndAddress] = limiters;
  return {
    async retryAfter(attempt) {
      let ms = 0;
      for (const { rule, limiter, key } of limiters) {
        const res = await limiter.get(key(attempt));
        if (res && res.consumedPoints >= rule.failures) ms = Math.max(ms, res.msBeforeNext);
      }
      return ms > 0 ? Math.ceil(ms / 1000) : 0;
    },
    async failed(attempt) {
      for (const { rule, limiter, key } of limiters) {
        const k = key(attempt);
        try {
          const res = await limiter.consume(k);
          if (res.consumedPoints >= rule.failures) await limiter.block(k, rule.blockSeconds);
        } catch (error) {
          // A rejection with a RateLimiterRes means the key is already past its limit (blocked).
          if (!(error instanceof RateLimiterRes)) throw error;
        }
      }
    },
    async succeeded(attempt) {
      if (accountAndAddress) await accountAndAddress.limiter.delete(accountAndAddress.key(attempt));
    },
  };
}
