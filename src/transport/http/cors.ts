import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';

/** Response headers a browser script on an allowed origin may read. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'WWW-Authenticate',
];

/**
 * CORS through @fastify/cors, off unless CORS_ORIGINS names the request's Origin exactly: then that
 * origin is echoed, on every route (errors included, so a script can read a 401), and preflights
 * are answered before credentials are checked. An unlisted origin gets no CORS header at all.
 * Credentials (cookies) are never allowed cross-origin: a listed origin's scripts send
 * `Authorization: Bearer`, and the dashboard's session cookie works on Portier's own origin only.
 */
export async function registerCors(app: FastifyInstance, allowed: readonly string[]): Promise<void> {
  if (allowed.length === 0) return;
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.includes(origin)),
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
