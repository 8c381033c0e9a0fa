import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Counters the in-memory store keeps (least recently used keys are dropped beyond this). */
const MEMORY_STORE_KEYS = 10_000;
const REDIS_NAMESPACE = 'portier:ratelimit:';

/**
 * Whose budget a request spends: its API key, its device, or else its client address. A publishable
 * key sits in every guest's browser, so its budget is per key and client address: one abuser
 * cannot spend the venue's whole budget (docs/booking-page.md, "Publishable key").
 */
export function rateLimitKey(req: FastifyRequest): string {
  const principal = req.principal;
  if (principal?.kind === 'apiKey' && principal.publishable) return `pk:${principal.keyId}:ip:${normalizeIP(req.ip)}`;
  if (principal?.kind === 'apiKey') return `key:${principal.keyId}`;
  if (principal?.kind === 'device') return `device:${principal.deviceId}`;
  return `ip:${normalizeIP(req.ip)}`;
}

/** Requests per minute for this request's budget: the key's own limit, else the server default. */
export function rateLimitOf(req: FastifyRequest, defaultPerMinute: number): number {
  const principal = req.principal;
  if (principal?.kind === 'apiKey' && principal.rateLimitPerMinute) return principal.rateLimitPerMinute;
  return defaultPerMinute;
}

/**
 * Loads @fastify/rate-limit and returns its check as an onRequest hook. It is not installed per
 * route: the caller adds it after the principal is resolved, so the budget is the caller's, and
 * before credentials are enforced, so 401 and 404 answers are counted (per client address) and
 * carry the headers too. With REDIS_URL the counters live in Redis and every process shares them.
 */
export interface RateLimit {
  /** The onRequest hook: sets the headers, answers 429 past the limit. */
  hook: onRequestAsyncHookHandler;
  /** Counts a request that never reaches the hooks (a malformed URL) and says where it stands. */
  check: ReturnType<FastifyInstance['createRateLimit']>;
}

export async function loadRateLimit(app: FastifyInstance, deps: AppDeps): Promise<RateLimit> {
  // The limiter store's connection (opened and closed by the runtime, shared with the guessing limits).
  const store = deps.limits.store;
  const redis = store.kind === 'redis' ? store.redis : undefined;

  await app.register(rateLimit, {
    global: false,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    max: (req) => rateLimitOf(req, deps.env.rateLimitPerMinute),
    keyGenerator: rateLimitKey,
    cache: MEMORY_STORE_KEYS,
    ...(redis ? { redis, nameSpace: REDIS_NAMESPACE } : {}),
    // A store outage lets requests through (logged above) rather than failing every request.
    skipOnError: true,
    errorResponseBuilder: (_req, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new DomainError(
        'RATE_LIMITED',
        'rate_limited',
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${seconds} s`,
      );
    },
  });
  const limit = app.rateLimit();
  const hook: onRequestAsyncHookHandler = async function (this: FastifyInstance, req, reply) {
    if (req.routeOptions.config?.rateLimited === false) return;
    await limit.call(this, req, reply);
  };
  return { hook, check: app.createRateLimit() };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: never counted nor refused by the rate limit (the health checks: an orchestrator probing
     * a healthy process must not see 429 because other clients share its address).
     */
    rateLimited?: boolean;
  }
}
