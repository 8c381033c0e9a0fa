import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterStore } from '../../kernel/limits/index.js';
import { DomainError } from '../../kernel/errors.js';

// Abuse limits on createPublicBooking (docs/booking-page.md, "Publishable key"): bookings per
// client address (across every venue) and per publishable key, counted in the limiter store
// (Redis with REDIS_URL, so every process shares them). An address is counted first and a refused
// attempt spends nothing of the key's budget: a burst from one address is stopped there without
// using up what the venue's other guests need.

export interface Budget {
  points: number;
  seconds: number;
}

export interface PublicBookingBudgets {
  perAddress: Budget;
  perKey: Budget;
}

/** 10 booking attempts per address per 10 minutes; 300 per publishable key per 10 minutes. */
export const PUBLIC_BOOKING_BUDGETS: PublicBookingBudgets = {
  perAddress: { points: 10, seconds: 600 },
  perKey: { points: 300, seconds: 600 },
};

const PREFIX = 'portier:public-booking:';

function limiterOf(store: LimiterStore, name: string, budget: Budget): RateLimiterAbstract {
  const options = { keyPrefix: `${PREFIX}${name}`, points: budget.points, duration: budget.seconds };
  if (store.kind === 'memory') return new RateLimiterMemory(options);
  // A Redis outage neither opens the gate nor closes it: the process counts on its own meanwhile.
  return new RateLimiterRedis({
    ...options,
    storeClient: store.redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

export interface PublicBookingLimits {
  /** Counts one attempt of `address` with `keyId`; throws RATE_LIMITED (with Retry-After) past a budget. */
  take(keyId: string, address: string): Promise<void>;
  /** Counts one attempt of `address` (every attempt, first); throws RATE_LIMITED past its budget. */
  takeAddress(address: string): Promise<void>;
  /** Counts one attempt through `keyId` (only attempts that passed the bot check); RATE_LIMITED past its budget. */
  takeKey(keyId: string): Promise<void>;
}

export function createPublicBookingLimits(
  store: LimiterStore,
  budgets: PublicBookingBudgets = PUBLIC_BOOKING_BUDGETS,
): PublicBookingLimits {
  const perAddress = limiterOf(store, 'address', budgets.perAddress);
  const perKey = limiterOf(store, 'key', budgets.perKey);
  const refuse = (res: RateLimiterRes, what: string, budget: Budget) => {
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new DomainError(
      'RATE_LIMITED',
      'rate_limited',
      `Too many bookings ${what}: at most ${budget.points} in ${budget.seconds / 60} minutes; retry in ${seconds} s`,
      { headers: { 'Retry-After': String(seconds) } },
    );
  };
  const consume = async (limiter: RateLimiterAbstract, key: string, what: string, budget: Budget) => {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw refuse(error, what, budget);
      throw error;
    }
  };
  const takeAddress = (address: string) => consume(perAddress, address, 'from this address', budgets.perAddress);
  const takeKey = (keyId: string) => consume(perKey, keyId, 'through this publishable key', budgets.perKey);
  return {
    async take(keyId, address) {
      await takeAddress(address);
      await takeKey(keyId);
    },
    takeAddress,
    takeKey,
  };
}

/** What createPublicBooking's input carries for the bot check (challenge, nonce, honeypot). */
export interface PublicBotCheck {
  challenge: string | null;
  nonce: string | null;
  honeypot: string | null;
}

/**
 * The bot check createPublicBooking runs after its address is counted and before the key is
 * (src/app/deps.ts wires `publicBookingGuard`: the page's proof of work and honeypot through
 * publicProofGuard, public-guard.ts). It throws a DomainError to refuse.
 */
export type PublicBookingGuard = (attempt: {
  tenantId: string;
  keyId: string;
  clientAddress: string | null;
  botCheck: PublicBotCheck;
  now: Date;
}) => Promise<void>;

/** No bot check (a test's or a tool's own app; the limits above still apply). */
export const allowEveryAttempt: PublicBookingGuard = () => Promise.resolve();
