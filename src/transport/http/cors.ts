import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import { forbidden } from '../../kernel/errors.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';

/** Response headers a browser script on an allowed origin may read. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'WWW-Authenticate',
  'Portier-Version',
];

/** The booking pages' allowed origins (docs/booking-page.md, "Publishable key"). */
export interface BookingPageOrigins {
  /** Whether some enabled booking page lists `origin` (a preflight carries no key, so no tenant is known yet). */
  listedAnywhere(origin: string): Promise<boolean>;
  /** Whether the tenant's booking page lists `origin`. */
  listedFor(tenantId: string, origin: string): Promise<boolean>;
}

/** The paths a publishable key calls from a venue's page: GraphQL and the public REST routes. */
export function isPublicFieldPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === GRAPHQL_PATH || /^\/api\/v1\/tenants\/[^/]+\/public\//.test(path);
}

/** Remembers the answers of `listedAnywhere` for a few seconds (preflights come in bursts). */
function remembered(lookup: (origin: string) => Promise<boolean>, ttlMs = 5_000, capacity = 1_000) {
  const answers = new Map<string, { listed: boolean; expires: number }>();
  return async (origin: string): Promise<boolean> => {
    const now = performance.now();
    const known = answers.get(origin);
    if (known && known.expires > now) return known.listed;
    const listed = await lookup(origin);
    if (answers.size >= capacity) answers.clear();
    answers.set(origin, { listed, expires: now + ttlMs });
    return listed;
  };
}

/**
 * CORS through @fastify/cors. An origin CORS_ORIGINS names exactly is echoed on every route
 * (errors included, so a script can read a 401), and preflights are answered before credentials
 * are checked. An origin a venue's booking page lists (allowedOrigins) is echoed on the paths of
 * the publishable key's fields only (GraphQL and /api/v1/tenants/{id}/public/…); which fields it
 * may then use is the key's business (registerPublishableOrigins). Any other origin gets no CORS
 * header at all. Credentials (cookies) are never allowed cross-origin: a listed origin's scripts
 * send `Authorization: Bearer`, and the dashboard's session cookie works on Portier's own origin only.
 */
export async function registerCors(
  app: FastifyInstance,
  allowed: readonly string[],
  pages?: { origins: BookingPageOrigins; self: string },
): Promise<void> {
  if (allowed.length === 0 && !pages) return;
  const listedAnywhere = pages ? remembered((origin) => pages.origins.listedAnywhere(origin)) : undefined;
  const options = {
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  };
  await app.register(cors, {
    delegator: async (req: FastifyRequest) => {
      const origin = req.headers.origin;
      if (origin === undefined) return { ...options, origin: false };
      if (allowed.includes(origin)) return { ...options, origin };
      if (!listedAnywhere || !pages || origin === pages.self || !isPublicFieldPath(req.url))
        return { ...options, origin: false };
      const listed = await listedAnywhere(origin).catch(() => false);
      return listed ? { ...options, methods: ['GET', 'POST'], origin } : { ...options, origin: false };
    },
  });
}

/**
 * A publishable key used from a browser (an Origin header) must be used from a page its venue
 * lists (allowedOrigins), from Portier's own pages, or from a CORS_ORIGINS origin; else 403
 * origin_not_allowed. A request without Origin (a server, curl) is not a browser's and passes: the
 * origin check protects a venue's key from other sites' scripts, not from someone who copies it.
 */
export function registerPublishableOrigins(
  app: FastifyInstance,
  allowed: readonly string[],
  pages: { origins: BookingPageOrigins; self: string },
): void {
  app.addHook('onRequest', async (req) => {
    const principal = req.principal;
    if (principal?.kind !== 'apiKey' || !principal.publishable) return;
    const origin = req.headers.origin;
    if (origin === undefined || origin === pages.self || allowed.includes(origin)) return;
    if (await pages.origins.listedFor(principal.tenantId, origin)) return;
    throw forbidden(
      `This publishable key may not be used from ${origin.slice(0, 200)}: add it to the booking page's allowed origins`,
      'origin_not_allowed',
    );
  });
}
