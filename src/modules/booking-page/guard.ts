import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ServerSecret } from '../../kernel/crypto.js';
import {
  createFailureLimiter,
  type FailureLimiter,
  type FailureTier,
  type LimiterStore,
} from '../../kernel/limits/index.js';
import { issueChallenge, verifyProof, type Challenge } from './pow.js';

// Bot protection for bookings made without an API key (docs/booking-page.md, "Bot protection"):
// a honeypot field, a proof of work (pow.ts) that is single-use, and limits on booking attempts per
// client address and per tenant. The counters live in the limiter store (Redis when REDIS_URL is
// set, so every process shares them; else this process). Exported from the module's index so the
// public API's createPublicBooking can put the same guard in front of its bookings.

export interface BookingGuardOptions {
  /** Leading zero bits a proof must have (BOOKING_PAGE_POW_BITS); 0: any nonce does, the challenge is still single-use. */
  powBits: number;
  /** Booking attempts one client address may make per hour (BOOKING_PAGE_BOOKINGS_PER_ADDRESS_PER_HOUR). */
  perAddressPerHour: number;
  /** Booking attempts one tenant receives per hour from all addresses (BOOKING_PAGE_BOOKINGS_PER_TENANT_PER_HOUR). */
  perTenantPerHour: number;
  /** Attempts without a proof (no JavaScript) one address may make per hour. */
  withoutProofPerHour?: number;
  /** How long an issued challenge may be used. */
  challengeSeconds?: number;
}

export type GuardRefusal =
  | { ok: false; reason: 'honeypot' | 'proof_invalid' | 'proof_expired' | 'proof_used' }
  | { ok: false; reason: 'address_limited' | 'tenant_limited' | 'without_proof_limited'; retryAfterSeconds: number };
export type GuardVerdict = { ok: true } | GuardRefusal;

/** Why a proof that must be there was refused (checkProof, for the public API's clear errors). */
export type ProofRefusal =
  | { ok: false; reason: 'honeypot' | 'challenge_missing' | 'nonce_missing' | 'proof_used' }
  | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'too_easy' | 'unsolved'; bits: number };
export type ProofCheck = { ok: true } | ProofRefusal;

export interface BookingAttempt {
  tenantId: string;
  /** The client address (fastify's req.ip: TRUST_PROXY decides whether X-Forwarded-For counts). */
  address: string;
  /** The honeypot field as submitted: anything but empty is a bot. */
  honeypot?: string | null;
  /** The challenge token and the nonce found for it; both empty when the client ran no script. */
  challenge?: string | null;
  nonce?: string | null;
  now: Date;
}

export const DEFAULT_CHALLENGE_SECONDS = 1800;
const HOUR = 3600;

/** Spent challenge ids, each kept until its challenge expires: the first `consume` of an id wins. */
function spentChallenges(store: LimiterStore, seconds: number): RateLimiterAbstract {
  const options = { keyPrefix: 'portier:booking-page:challenge', points: 1, duration: seconds };
  if (store.kind === 'memory') return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: store.redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

export class BookingGuard {
  private readonly perAddress: FailureLimiter;
  private readonly perTenant: FailureLimiter;
  private readonly withoutProof: FailureLimiter;
  private readonly spent: RateLimiterAbstract;
  readonly challengeSeconds: number;

  constructor(
    store: LimiterStore,
    private readonly secret: ServerSecret,
    readonly options: BookingGuardOptions,
  ) {
    // A failure limiter refuses once its count reaches maxFailures: N attempts pass, the N+1st waits.
    const hourly = (attempts: number): FailureTier[] => [{ maxFailures: attempts + 1, windowSeconds: HOUR }];
    this.perAddress = createFailureLimiter(store, 'booking-page-address', hourly(options.perAddressPerHour));
    this.perTenant = createFailureLimiter(store, 'booking-page-tenant', hourly(options.perTenantPerHour));
    this.withoutProof = createFailureLimiter(store, 'booking-page-no-proof', hourly(options.withoutProofPerHour ?? 3));
    this.challengeSeconds = options.challengeSeconds ?? DEFAULT_CHALLENGE_SECONDS;
    this.spent = spentChallenges(store, this.challengeSeconds);
  }

  /** A new challenge for a form of `tenantId`'s page. */
  challenge(tenantId: string, now: Date): Challenge {
    return issueChallenge(
      this.secret,
      tenantId,
      this.options.powBits,
      new Date(now.getTime() + this.challengeSeconds * 1000),
    );
  }

  /**
   * Whether a booking attempt may go on. Every attempt spends one of its address's budget first
   * (so a flood from one address is cut off cheaply and its own refusals count against it), then
   * the honeypot and the proof are checked; only an attempt that passed those spends one of the
   * tenant's budget, so one noisy address cannot use up the tenant's bookings for everyone else.
   */
  async check(attempt: BookingAttempt): Promise<GuardVerdict> {
    const addressKey = `${attempt.tenantId}|${attempt.address}`;
    const addressWait = await this.perAddress.recordFailure(addressKey);
    if (addressWait > 0) return { ok: false, reason: 'address_limited', retryAfterSeconds: addressWait };
    if (attempt.honeypot) return { ok: false, reason: 'honeypot' };
    const challenge = attempt.challenge ?? '';
    const nonce = attempt.nonce ?? '';
    if (!nonce) {
      // No script ran (or it had no Web Crypto): a much smaller budget per address.
      const wait = await this.withoutProof.recordFailure(addressKey);
      if (wait > 0) return { ok: false, reason: 'without_proof_limited', retryAfterSeconds: wait };
      if (challenge) {
        const verdict = verifyProof(this.secret, attempt.tenantId, challenge, '0', attempt.now, 0);
        if (!verdict.ok && verdict.reason === 'expired') return { ok: false, reason: 'proof_expired' };
        if (!verdict.ok && verdict.reason !== 'unsolved') return { ok: false, reason: 'proof_invalid' };
        if (!(await this.spend(challenge.split('.')[1] ?? ''))) return { ok: false, reason: 'proof_used' };
      }
    } else {
      const verdict = verifyProof(this.secret, attempt.tenantId, challenge, nonce, attempt.now, this.options.powBits);
      if (!verdict.ok) return { ok: false, reason: verdict.reason === 'expired' ? 'proof_expired' : 'proof_invalid' };
      if (!(await this.spend(verdict.challenge.id))) return { ok: false, reason: 'proof_used' };
    }
    const tenantWait = await this.perTenant.recordFailure(attempt.tenantId);
    if (tenantWait > 0) return { ok: false, reason: 'tenant_limited', retryAfterSeconds: tenantWait };
    return { ok: true };
  }

  /**
   * The honeypot and a proof that must be there (the public API's createPublicBooking: a client of
   * the API always runs code, so there is no budget without a proof), with the reason of a refusal
   * in detail. The same challenges, difficulty and spent set as the page's: a challenge books once,
   * on the page or through the API. No limit is counted here (public-limits.ts counts those).
   */
  async checkProof(attempt: Omit<BookingAttempt, 'address'>): Promise<ProofCheck> {
    if (attempt.honeypot) return { ok: false, reason: 'honeypot' };
    const challenge = attempt.challenge ?? '';
    const nonce = attempt.nonce ?? '';
    if (!challenge) return { ok: false, reason: 'challenge_missing' };
    if (!nonce) return { ok: false, reason: 'nonce_missing' };
    const bits = this.options.powBits;
    const verdict = verifyProof(this.secret, attempt.tenantId, challenge, nonce, attempt.now, bits);
    if (!verdict.ok) return { ok: false, reason: verdict.reason, bits };
    if (!(await this.spend(verdict.challenge.id))) return { ok: false, reason: 'proof_used' };
    return { ok: true };
  }

  /** Marks a challenge spent; false when it already was. */
  private async spend(id: string): Promise<boolean> {
    try {
      await this.spent.consume(id, 1);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }
}
