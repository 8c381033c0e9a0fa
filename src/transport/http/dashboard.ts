import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { problem } from '../../kernel/errors.js';
import type { RouteDoc } from '../rest/openapi-registry.js';

// The dashboard's single-page app (dashboard/, built by `npm run build:dashboard` into
// dashboard/dist) at /dashboard. Every asset comes from this server, and the pages carry a strict
// Content-Security-Policy: no inline script or style, no other host, no framing. Like every other
// route, each page address is registered and documented: nothing else under /dashboard answers.

export const DASHBOARD_PATH = '/dashboard';
/**
 * dashboard/dist of the project: three levels up from src/transport/http when run from source (tests, tsx), four
 * from dist/src/transport/http when run compiled (`npm start`).
 */
export const DASHBOARD_DIST = ['../../../dashboard/dist/', '../../../../dashboard/dist/']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .reduce((found, candidate) => (existsSync(found) ? found : candidate));

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

/** The app's page addresses (dashboard/src/App.tsx); each answers with the app, which draws the page. */
export const DASHBOARD_PAGES: { path: string; operationId: string; summary: string; undocumented?: true }[] = [
  { path: '', operationId: 'dashboardOverview', summary: 'Dashboard: overview (also at /dashboard/)' },
  // The app's base address: served, but left out of the OpenAPI document, whose paths carry no
  // trailing slash (redocly's no-path-trailing-slash); /dashboard documents the same page.
  {
    path: '/',
    operationId: 'dashboardOverviewSlash',
    summary: 'Dashboard: overview (the app’s base address)',
    undocumented: true,
  },
  { path: '/login', operationId: 'dashboardSignIn', summary: 'Dashboard: sign-in' },
  {
    path: '/forgot-password',
    operationId: 'dashboardForgotPassword',
    summary: 'Dashboard: ask for a password-reset link',
  },
  {
    path: '/reset-password',
    operationId: 'dashboardResetPasswordPage',
    summary: 'Dashboard: set a new password (the mailed link, ?token=…)',
  },
  {
    path: '/accept-invite',
    operationId: 'dashboardAcceptInvitePage',
    summary: 'Dashboard: accept an invitation (the mailed link, ?token=…)',
  },
  {
    path: '/calendar',
    operationId: 'dashboardCalendar',
    summary: 'Dashboard: calendar (day and week per accommodation)',
  },
  { path: '/bookings', operationId: 'dashboardBookings', summary: 'Dashboard: bookings' },
  { path: '/bookings/:id', operationId: 'dashboardBooking', summary: 'Dashboard: one booking' },
  { path: '/customers', operationId: 'dashboardCustomers', summary: 'Dashboard: customers (search, export)' },
  {
    path: '/customers/:id',
    operationId: 'dashboardCustomer',
    summary: 'Dashboard: one customer (bookings, notes, merge, erase)',
  },
  { path: '/catalog', operationId: 'dashboardCatalog', summary: 'Dashboard: catalog' },
  { path: '/catalog/objects/:id', operationId: 'dashboardObject', summary: 'Dashboard: one bookable object' },
  { path: '/pricing', operationId: 'dashboardPricing', summary: 'Dashboard: pricing' },
  {
    path: '/reports',
    operationId: 'dashboardReports',
    summary: 'Dashboard: reports (occupancy, revenue, payments, cash-up, no-shows)',
  },
  { path: '/account', operationId: 'dashboardAccount', summary: 'Dashboard: your account (password, sessions)' },
  {
    path: '/admin/:page',
    operationId: 'dashboardAdmin',
    summary:
      'Dashboard: an admin page (api-keys, devices, webhooks, notifications, booking-page, team, oauth-apps, connected-apps)',
  },
  { path: '/admin/webhooks/:id', operationId: 'dashboardWebhook', summary: 'Dashboard: one webhook’s delivery log' },
  { path: '/admin/devices/:id', operationId: 'dashboardDevice', summary: 'Dashboard: one device’s command history' },
];

const HTML_PAGE = {
  description: 'The dashboard app (HTML); it signs in or draws the page.',
  contentType: 'text/html',
  schema: { type: 'string', description: 'An HTML document.' },
};
const NOT_BUILT = {
  description: 'The dashboard is not built (`npm run build:dashboard`).',
  contentType: 'application/problem+json',
  schema: { type: 'object' },
};

function pageDoc(page: (typeof DASHBOARD_PAGES)[number]): RouteDoc {
  const names = [...page.path.matchAll(/:([a-z]+)/g)].map((m) => m[1]);
  return {
    operationId: page.operationId,
    summary: page.summary,
    tags: ['dashboard'],
    ...(names.length
      ? {
          params: {
            type: 'object',
            properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
            required: names,
          },
        }
      : {}),
    responses: { 200: HTML_PAGE, 503: NOT_BUILT },
  };
}

const ASSET_DOC: RouteDoc = {
  operationId: 'dashboardAsset',
  summary: 'Dashboard: a built script or stylesheet (content-hashed name, cached for good)',
  tags: ['dashboard'],
  params: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
  responses: {
    200: { description: 'The file.', contentType: 'application/octet-stream', schema: { type: 'string' } },
    404: { description: 'No such file.' },
    503: NOT_BUILT,
  },
};

const ICON_DOC: RouteDoc = {
  operationId: 'dashboardIcon',
  summary: 'Dashboard: its icon',
  tags: ['dashboard'],
  responses: {
    200: { description: 'An SVG image.', contentType: 'image/svg+xml', schema: { type: 'string' } },
    503: NOT_BUILT,
  },
};

const ROOT_DOC: RouteDoc = {
  operationId: 'root',
  summary:
    'The server root: a browser (Accept: text/html) is sent to the dashboard; API clients get 404 route_not_found',
  tags: ['dashboard'],
  responses: {
    302: { description: 'To /dashboard/ (the request prefers HTML).' },
    404: {
      description: 'No API route here (the request does not ask for HTML).',
      contentType: 'application/problem+json',
      schema: { type: 'object' },
    },
  },
};

/**
 * True when an Accept header asks for an HTML page before JSON: text/html (or text/*) listed with
 * a weight above zero and at least JSON's. A browser's navigation does; curl's `*\/*` and an API
 * client's `application/json` do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((p) => p.trim());
    if (!type) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(weight)) continue;
    weights.set(type, Math.max(weights.get(type) ?? 0, weight));
  }
  const html = Math.max(weights.get('text/html') ?? 0, weights.get('application/xhtml+xml') ?? 0);
  const json = Math.max(weights.get('application/json') ?? 0, weights.get('application/problem+json') ?? 0);
  return html > 0 && html >= json;
}

export async function registerDashboard(app: FastifyInstance): Promise<void> {
  const built = existsSync(`${DASHBOARD_DIST}index.html`);

  // `GET /` in a browser opens the dashboard; every other client keeps the JSON 404 it always had.
  app.get('/', { config: { auth: 'none', openapi: ROOT_DOC }, exposeHeadRoute: false }, (req, reply) => {
    if (prefersHtml(req.headers.accept)) return reply.redirect(`${DASHBOARD_PATH}/`, 302);
    return reply.callNotFound();
  });
  if (built) await app.register(fastifyStatic, { root: DASHBOARD_DIST, serve: false });

  for (const page of DASHBOARD_PAGES) {
    app.get(
      `${DASHBOARD_PATH}${page.path}`,
      { config: { auth: 'none', openapi: page.undocumented ? false : pageDoc(page) }, exposeHeadRoute: false },
      (_req, reply) => {
        if (!built) return notBuilt(reply);
        return reply
          .headers({ ...SECURITY_HEADERS, 'cache-control': 'no-cache' })
          .type('text/html; charset=utf-8')
          .sendFile('index.html', { cacheControl: false });
      },
    );
  }

  // Hashed file names: a new build has new names, so they may be cached for good.
  app.get<{ Params: { file: string } }>(
    `${DASHBOARD_PATH}/assets/:file`,
    { config: { auth: 'none', openapi: ASSET_DOC }, exposeHeadRoute: false },
    (req, reply) => {
      if (!built) return notBuilt(reply);
      return reply
        .headers(SECURITY_HEADERS)
        .sendFile(`assets/${req.params.file}`, { immutable: true, maxAge: '365d', dotfiles: 'deny' });
    },
  );
  app.get(
    `${DASHBOARD_PATH}/favicon.svg`,
    { config: { auth: 'none', openapi: ICON_DOC }, exposeHeadRoute: false },
    (_req, reply) => {
      if (!built) return notBuilt(reply);
      return reply.headers(SECURITY_HEADERS).sendFile('favicon.svg', { maxAge: '1d' });
    },
  );
}

function notBuilt(reply: FastifyReply) {
  return reply
    .status(503)
    .type('application/problem+json')
    .send(
      problem(
        503,
        'dashboard_not_built',
        'The dashboard is not built: run `npm run build:dashboard` (npm ci does it through prepare).',
      ),
    );
}
