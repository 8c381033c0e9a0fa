import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterStore } from '../../kernel/limits/index.js';

/** One sign-in attempt, as the throttle sees it. */
export interface SignInAttempt {
  /** The email, lower-cased: throttled whether or not a user has it. */
  account: string;
  /** The client address (fastify's req.ip, which TRUST_PROXY governs). */
  address: string;
}

/** What the throttle answers for one attempt: refused now, or counted and waiting for its verdict. */
export type SignInTicket =
  | { allowed: false; /** Whole seconds to wait (≥ 1). */ retryAfterSeconds: number }
  | {
      allowed: true;
      /** Reports the password check: a failure may start a block; a success takes its count back. */
      judged(succeeded: boolean): Promise<void>;
    };

/**
 * Guessing passwords costs time. Every attempt is counted BEFORE its password is checked (one
 * atomic consume per limiter), so a burst of simultaneous guesses gets at most the remaining
 * budget of verdicts and the rest are refused. Built once at the composition root (buildApp);
 * tests build one with short windows.
 */
export interface SignInThrottle {
  /** Counts the attempt on every limiter, or refuses it when any limiter's budget is spent. */
  take(attempt: SignInAttempt): Promise<SignInTicket>;
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
  key: (attempt: SignInAttempt) => string;
}

/**
 * The throttle on rate-limiter-flexible and the runtime's limiter store (src/limits): counters in
 * memory, or in Redis so every process shares them (an in-memory limiter insures against a Redis
 * outage). Unlike src/limits' failure tiers, whose wait lasts until the counting window ends, a
 * rule here has its own, shorter block window: failures are remembered for long, while the owner
 * who mistyped waits only minutes.
 */
export function createSignInThrottle(
  options: SignInThrottleOptions = DEFAULT_SIGN_IN_THROTTLE,
  store?: LimiterStore,
): SignInThrottle {
  const make = (name: string, rule: ThrottleRule): RateLimiterAbstract => {
    const base = { keyPrefix: `${REDIS_PREFIX}:${name}`, points: rule.failures, duration: rule.windowSeconds };
    const memory = new RateLimiterMemory(base);
    if (store?.kind !== 'redis') return memory;
    return new RateLimiterRedis({
      ...base,
      storeClient: store.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };
  const limiters: Limiter[] = [
    {
      rule: options.perAccountAndAddress,
      limiter: make('account-address', options.perAccountAndAddress),
      key: (a) => `${a.account}|${a.address}`,
    },
    { rule: options.perAccount, limiter: make('account', options.perAccount), key: (a) => a.account },
    { rule: options.perAddress, limiter: make('address', options.perAddress), key: (a) => a.address },
  ];
  const [accountAndAddress] = limiters;
  const waitOf = (rule: ThrottleRule, res: RateLimiterRes) =>
    Math.max(1, Math.ceil(Math.min(res.msBeforeNext, rule.blockSeconds * 1000) / 1000));
  return {
    async take(attempt) {
      const taken: { entry: Limiter; res: RateLimiterRes }[] = [];
      for (const entry of limiters) {
        try {
          taken.push({ entry, res: await entry.limiter.consume(entry.key(attempt)) });
        } catch (error) {
          // A rejection with a RateLimiterRes: this limiter's budget is spent. The attempt gets no
          // verdict, so the points it took from the other limiters are given back.
          if (!(error instanceof RateLimiterRes)) throw error;
          await Promise.all(taken.map(({ entry: other }) => other.limiter.reward(other.key(attempt))));
          return { allowed: false, retryAfterSeconds: waitOf(entry.rule, error) };
        }
      }
      return {
        allowed: true,
        async judged(succeeded) {
          if (succeeded) {
            // A right password is not a guess: its point is taken back, and the account's
            // failures from this address are forgotten.
            await Promise.all(
              taken.map(({ entry }) =>
                entry === accountAndAddress
                  ? entry.limiter.delete(entry.key(attempt))
                  : entry.limiter.reward(entry.key(attempt)),
              ),
            );
            return;
          }
          // The attempt that spent a limiter's last point starts that limiter's block window.
          for (const { entry, res } of taken) {
            if (res.consumedPoints >= entry.rule.failures)
              await entry.limiter.block(entry.key(attempt), entry.rule.blockSeconds);
          }
        },
      };
    },
  };
}
