import type { FastifyInstance } from 'fastify';

/** One year, the value HSTS preload lists ask for; sent only when PUBLIC_URL is https (docs/operations.md#security-headers). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The headers every response carries; Strict-Transport-Security only when the service is reached over https. */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (publicUrl.toLowerCase().startsWith('https://'))
    headers['strict-transport-security'] = `max-age=${HSTS_MAX_AGE_SECONDS}`;
  return headers;
}

/**
 * Set on every request before anything can refuse it, so refusals (401, 404, 429, 503) carry them
 * too; requests fastify refuses before routing get them in frameworkErrorHandler.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Record<string, string> {
  const headers = securityHeaders(publicUrl);
  app.addHook('onRequest', async (_req, reply) => {
    reply.headers(headers);
  });
  return headers;
}
