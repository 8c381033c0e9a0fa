import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { problem } from '../errors.js';

// The dashboard's single-page app (dashboard/, built by `npm run build:dashboard` into
// dashboard/dist) at /dashboard. Every asset comes from this server, and the pages carry a strict
// Content-Security-Policy: no inline script or style, no other host, no framing.

export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Files at the top of dist (favicon.svg …) are served as they are; every other path is the app. */
const TOP_LEVEL_FILE = /^[a-z0-9][a-z0-9._-]*\.(svg|png|ico|txt|webmanifest)$/i;

function sendApp(reply: FastifyReply) {
  return reply.headers({ ...SECURITY_HEADERS, 'cache-control': 'no-cache' }).type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
}

export async function registerDashboard(app: FastifyInstance): Promise<void> {
  const built = existsSync(`${DASHBOARD_DIST}index.html`);
  if (built) {
    await app.register(fastifyStatic, { root: DASHBOARD_DIST, serve: false });
  }

  const config = { auth: 'none' as const, openapi: false as const };

  // Hashed file names: a new build has new names, so they may be cached for good.
  app.get(`${DASHBOARD_PATH}/assets/*`, { config, exposeHeadRoute: false }, (req: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    if (!built) return notBuilt(reply);
    return reply.headers(SECURITY_HEADERS).sendFile(`assets/${req.params['*']}`, { immutable: true, maxAge: '365d', dotfiles: 'deny' });
  });

  const page = (req: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
    if (!built) return notBuilt(reply);
    const rest = req.params['*'] ?? '';
    if (rest.startsWith('api/')) {
      return reply.status(404).type('application/problem+json').send(problem(404, 'not_found', `No route ${req.method} ${req.url}`));
    }
    if (TOP_LEVEL_FILE.test(rest)) return reply.headers(SECURITY_HEADERS).sendFile(rest, { maxAge: '1d', dotfiles: 'deny' });
    return sendApp(reply);
  };
  app.get(DASHBOARD_PATH, { config, exposeHeadRoute: false }, page);
  app.get(`${DASHBOARD_PATH}/*`, { config, exposeHeadRoute: false }, page);
}

function notBuilt(reply: FastifyReply) {
  return reply
    .status(503)
    .type('application/problem+json')
    .send(problem(503, 'dashboard_not_built', 'The dashboard is not built: run `npm run build:dashboard` (npm ci does it through prepare).'));
}
