import { MODULES } from '../src/app/modules.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { REST_ROUTES } from '../src/transport/rest/routes.js';
import { REST_BASE } from '../src/transport/graphql/yoga.js';
import { buildSchema } from '../src/transport/graphql/schema.js';
import { DASHBOARD_PAGES } from '../src/transport/http/dashboard.js';

// The interface contract's endpoints (spec/service-interface.md), as method + path. A route in
// REST_ROUTES must be one of these; the server exposes REST_ROUTES plus DELIBERATE_ADDITIONS and
// nothing else. Other modules add their routes to REST_ROUTES, and hand-written routes (devices,
// price preview) to HAND_WRITTEN_ROUTES, as they land.
const CONTRACT_ROUTES = [
  'GET /api/v1/tenants/:tenantId/bookings',
  'GET /api/v1/tenants/:tenantId/bookings/:bookingId',
  'POST /api/v1/tenants/:tenantId/bookings',
  'PATCH /api/v1/tenants/:tenantId/bookings/:bookingId',
  'GET /api/v1/tenants/:tenantId/bookings/:bookingId/credentials',
  'GET /api/v1/tenants/:tenantId/objects/availability',
  'GET /api/v1/tenants/:tenantId/objects/:objectId/opening-hours',
  'GET /api/v1/tenants/:tenantId/objects/:objectId/booking-rules',
  'GET /api/v1/tenants/:tenantId/pricing-rules',
  'POST /api/v1/tenants/:tenantId/pricing-rules',
  'GET /api/v1/tenants/:tenantId/cancellation-policies',
  'POST /api/pricing/preview',
  'GET /api/v1/tenants/:tenantId/webhooks',
  'POST /api/v1/tenants/:tenantId/webhooks',
  'GET /api/v1/tenants/:tenantId/webhooks/:webhookId',
  'DELETE /api/v1/tenants/:tenantId/webhooks/:webhookId',
  'POST /api/v1/tenants/:tenantId/webhooks/:webhookId/test',
  'POST /api/devices/activate',
  'POST /api/devices/:deviceId/heartbeat',
  'GET /api/devices/:deviceId/commands',
  'PATCH /api/devices/:deviceId/commands/:commandId',
  'POST /api/devices/:deviceId/access-check',
  'GET /api/devices/:deviceId/config',
  'POST /api/v1/graphql',
];

/** Contract routes served by hand-written fastify handlers rather than REST_ROUTES. */
const HAND_WRITTEN_ROUTES: string[] = [
  'POST /api/pricing/preview',
  'POST /api/devices/activate',
  'POST /api/devices/:deviceId/heartbeat',
  'GET /api/devices/:deviceId/commands',
  'PATCH /api/devices/:deviceId/commands/:commandId',
  'POST /api/devices/:deviceId/access-check',
  'GET /api/devices/:deviceId/config',
];

/** Routes DESIGN section 6 names beside the contract. */
const DESIGN_ROUTES = [
  'POST /api/v1/tenants/:tenantId/devices/:deviceId/commands',
  // offline door decisions reported back (DESIGN section 9, docs/devices.md)
  'POST /api/devices/:deviceId/access-log',
  // DESIGN section 9 (issue 17): subscriptions integrators can operate.
  'PATCH /api/v1/tenants/:tenantId/webhooks/:webhookId',
  'POST /api/v1/tenants/:tenantId/webhooks/:webhookId/rotate-secret',
  'POST /api/v1/tenants/:tenantId/webhooks/:webhookId/replay',
  // DESIGN section 10 (issue 27): the events feed (docs/events.md).
  'GET /api/v1/tenants/:tenantId/events',
];

/** Routes Portier adds on purpose (documented in the README). */
const DASHBOARD_ROUTES = [
  ...DASHBOARD_PAGES.map((p) => `GET /dashboard${p.path}`),
  'GET /dashboard/assets/:file',
  'GET /dashboard/favicon.svg',
];

const DELIBERATE_ADDITIONS = [
  'POST /api/v1/graphql',
  'GET /api/v1/graphql', // GraphQL over HTTP: queries by GET
  'GET /healthz',
  'GET /readyz',
  'GET /pay/:token', // the payment page behind paymentUrl
  'GET /pay/:token/done', // where Stripe Checkout sends the guest after paying (docs/payments.md)
  'GET /pay/:token/cancelled', // where Stripe Checkout sends a guest who went back
  // the guest's own page of a booking behind its manage link (issue #41, docs/booking-page.md)
  'GET /b/:token',
  'GET /b/:token/calendar.ics',
  'GET /b/:token/receipt',
  'GET /b/:token/cancel',
  'POST /b/:token/cancel',
  'GET /b/:token/reschedule',
  'POST /b/:token/reschedule',
  'POST /api/payments/stripe/webhook', // Stripe's events (DESIGN section 10)
  'POST /api/payments/stripe/webhook/:tenantId', // a venue's own Stripe account's events (keys set in the dashboard)
  // the public booking page (issue #41, docs/booking-page.md); its assets and /widget.js are undocumented files
  'GET /book/:slug',
  'GET /book/:slug/choice',
  'POST /book/:slug',
  'GET /book/assets/page.css',
  'GET /book/assets/page.js',
  'GET /widget.js',
  'GET /api/openapi.json',
  'GET /api/explorer/:file', // the GraphQL explorer's files (GraphiQL, served by Portier)
  'GET /api/docs',
  'GET /api/docs/scalar.js', // the API reference's renderer (Scalar's standalone bundle)
  'GET /', // a browser at the root is sent to the dashboard (issue #24)
  // issue 27 (time zones in REST): the tenant's bookable objects, each with its accommodation's time zone.
  'GET /api/v1/tenants/:tenantId/objects',
  'GET /api/v1/tenants/:tenantId/webhooks/:webhookId/deliveries', // the delivery log
  'POST /api/v1/tenants/:tenantId/webhooks/:webhookId/events/:eventId/redeliver',
  // the dashboard's sessions (DESIGN section 9, docs/dashboard.md)
  'POST /dashboard/api/session',
  'GET /dashboard/api/session',
  'DELETE /dashboard/api/session',
  'POST /dashboard/api/session/revoke-all',
  'GET /dashboard/api/session/sessions',
  'DELETE /dashboard/api/session/sessions/:sessionId',
  // staff accounts: forgotten passwords and invitations by mail (issue #43, docs/dashboard.md)
  'POST /dashboard/api/password-reset',
  'POST /dashboard/api/password-reset/confirm',
  'POST /dashboard/api/invitation',
  'POST /dashboard/api/invitation/accept',
  // the dashboard's pages and built files (DESIGN section 9, docs/dashboard-ui.md)
  ...DASHBOARD_ROUTES,
  // OAuth 2.0 for third-party apps (DESIGN section 9, docs/oauth.md)
  'GET /.well-known/oauth-authorization-server',
  'GET /oauth/authorize',
  'GET /oauth/authorize/:uid',
  'GET /oauth/jwks',
  'POST /oauth/token',
  'POST /oauth/revoke',
  'GET /oauth/interaction/:uid',
  'POST /oauth/interaction/:uid/sign-in',
  'POST /oauth/interaction/:uid/decision',
  // streamed CSV exports (docs/dashboard-ui.md#find-and-export)
  'GET /api/v1/tenants/:tenantId/bookings/export.csv',
  'GET /api/v1/tenants/:tenantId/audit-log/export.csv',
  // issue 43: no-shows and the reports with their CSVs (docs/bookings.md, docs/reports.md)
  'POST /api/v1/tenants/:tenantId/bookings/:bookingId/no-show',
  'GET /api/v1/tenants/:tenantId/reports/occupancy',
  'GET /api/v1/tenants/:tenantId/reports/revenue',
  'GET /api/v1/tenants/:tenantId/reports/payments',
  'GET /api/v1/tenants/:tenantId/reports/cash-up',
  'GET /api/v1/tenants/:tenantId/reports/no-shows',
  'GET /api/v1/tenants/:tenantId/reports/occupancy.csv',
  'GET /api/v1/tenants/:tenantId/reports/revenue.csv',
  'GET /api/v1/tenants/:tenantId/reports/revenue-by-object.csv',
  'GET /api/v1/tenants/:tenantId/reports/payments.csv',
  'GET /api/v1/tenants/:tenantId/reports/cash-up.csv',
  'GET /api/v1/tenants/:tenantId/reports/no-shows.csv',
  // issue 41: the booking page's settings, publishing objects, and the publishable key's public fields (docs/booking-page.md)
  'GET /api/v1/tenants/:tenantId/booking-page',
  'PATCH /api/v1/tenants/:tenantId/booking-page',
  'POST /api/v1/tenants/:tenantId/objects/publish',
  'GET /api/v1/tenants/:tenantId/public/booking-page',
  'GET /api/v1/tenants/:tenantId/public/objects',
  'GET /api/v1/tenants/:tenantId/public/objects/:objectId/availability',
  'GET /api/v1/tenants/:tenantId/public/objects/:objectId/price-quote',
  'GET /api/v1/tenants/:tenantId/public/booking-challenge',
  'POST /api/v1/tenants/:tenantId/public/bookings',
  // a venue's own provider credentials (issue #41, docs/payments.md#credentials-in-the-dashboard)
  'GET /api/v1/tenants/:tenantId/provider-credentials',
  'PUT /api/v1/tenants/:tenantId/provider-credentials/stripe',
  'PUT /api/v1/tenants/:tenantId/provider-credentials/smtp',
  'PUT /api/v1/tenants/:tenantId/provider-credentials/sms',
  'DELETE /api/v1/tenants/:tenantId/provider-credentials/:provider',
  // payment issues staff settle (issue #42, docs/payments.md#payment-issues)
  'GET /api/v1/tenants/:tenantId/payment-issues',
  'POST /api/v1/tenants/:tenantId/bookings/:bookingId/retry-refund',
  'POST /api/v1/tenants/:tenantId/payment-issues/:id/acknowledge',
  // issue 43: recurring bookings (docs/bookings.md#recurring-bookings)
  'POST /api/v1/tenants/:tenantId/booking-series',
  'POST /api/v1/tenants/:tenantId/booking-series/preview',
  'GET /api/v1/tenants/:tenantId/booking-series/:id',
  'POST /api/v1/tenants/:tenantId/booking-series/:id/cancel',
  'POST /api/v1/tenants/:tenantId/booking-series/:id/occurrences/:bookingId/reschedule',
  // issue 43: customers and their GDPR tools (docs/customers.md)
  'GET /api/v1/tenants/:tenantId/customers',
  'GET /api/v1/tenants/:tenantId/customers/:id',
  'PATCH /api/v1/tenants/:tenantId/customers/:id',
  'POST /api/v1/tenants/:tenantId/customers/merge',
  'POST /api/v1/tenants/:tenantId/customers/:id/erase',
  'GET /api/v1/tenants/:tenantId/customers/:id/data',
  'GET /api/v1/tenants/:tenantId/customers/export.csv',
  'GET /api/v1/tenants/:tenantId/customers/:id/export.json',
  // issue 44: the device list and registration over REST (the Device schema), and the devices'
  // command channel (docs/devices.md, "The command channel")
  'GET /api/v1/tenants/:tenantId/devices',
  'POST /api/v1/tenants/:tenantId/devices',
  'GET /api/devices/:deviceId/channel',
  // issue 44: single reads over REST (docs/bookings.md#one-object, docs/events.md, docs/devices.md)
  'GET /api/v1/tenants/:tenantId/objects/:objectId',
  'GET /api/v1/tenants/:tenantId/events/:eventId',
  'GET /api/v1/tenants/:tenantId/devices/:deviceId/commands/:commandId',
];

const restRoutes = () => REST_ROUTES.map((r) => `${r.method} ${REST_BASE}${r.path}`);

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe('the route table', () => {
  it('REST_ROUTES lists only paths of the contract, of DESIGN, or deliberate additions', () => {
    for (const route of HAND_WRITTEN_ROUTES) expect(CONTRACT_ROUTES).toContain(route);
    for (const route of restRoutes())
      expect([...CONTRACT_ROUTES, ...DESIGN_ROUTES, ...DELIBERATE_ADDITIONS]).toContain(route);
  });

  it('has exactly the documented routes and the deliberate additions', () => {
    const registered = h.app.routes.routes.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    const expected = [...restRoutes(), ...HAND_WRITTEN_ROUTES, ...DESIGN_ROUTES, ...DELIBERATE_ADDITIONS];
    expect([...new Set(registered)].sort()).toEqual([...new Set(expected)].sort());
    expect(registered).toHaveLength(new Set(registered).size);
  });

  it('has a HEAD route only as the implicit twin of a hand-written GET (never one forwarded to yoga)', () => {
    const forwarded = new Set(
      [...restRoutes(), ...DELIBERATE_ADDITIONS.filter((r) => r.includes('/graphql'))].map((r) => r.split(' ')[1]),
    );
    const gets = new Set(h.app.routes.routes.filter((r) => r.method === 'GET').map((r) => r.url));
    for (const head of h.app.routes.routes.filter((r) => r.method === 'HEAD')) {
      expect(gets.has(head.url), head.url).toBe(true);
      expect(forwarded.has(head.url), head.url).toBe(false);
    }
  });
});

describe('nothing else is reachable', () => {
  it("404 for SOFA's own route of every root field not in REST_ROUTES, even with an admin key", async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const schema = buildSchema(MODULES);
    const bridged = new Set(REST_ROUTES.map((r) => r.field));
    const probes: { method: 'GET' | 'POST'; url: string }[] = [];
    for (const [kind, type, method] of [
      ['Query', schema.getQueryType(), 'GET'],
      ['Mutation', schema.getMutationType(), 'POST'],
    ] as const) {
      for (const field of Object.keys(type?.getFields() ?? {})) {
        if (bridged.has(`${kind}.${field}`)) continue;
        probes.push({ method, url: `${REST_BASE}/${field}` });
        probes.push({
          method,
          url: `${REST_BASE}/${field}?tenantId=${tenantId}&id=${object.id}&objectId=${object.id}`,
        });
      }
    }
    expect(probes.map((p) => p.url)).toContain(`${REST_BASE}/accommodations`);
    expect(probes.map((p) => p.url)).toContain(`${REST_BASE}/viewer`);
    probes.push(
      { method: 'POST', url: `${REST_BASE}/webhook` },
      { method: 'POST', url: `${REST_BASE}/webhook/some-id` },
      { method: 'GET', url: `${REST_BASE}/openapi.json` },
      { method: 'GET', url: `${REST_BASE}/docs` },
      { method: 'GET', url: `${REST_BASE}/` },
      { method: 'GET', url: `${REST_BASE}/tenants/${tenantId}/accommodations` },
    );
    for (const probe of probes) {
      const res = await h.request({ ...probe, apiKey, ...(probe.method === 'POST' ? { body: {} } : {}) });
      expect(res.status, `${probe.method} ${probe.url}`).toBe(404);
      expect(res.body.code, `${probe.method} ${probe.url}`).toBe('route_not_found');
    }
  });

  it('404 for a documented path with another method, HEAD included', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const url = `${REST_BASE}/tenants/${tenantId}/objects/${object.id}/opening-hours`;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await h.request({ method, url, apiKey, body: {} });
      expect(res.status, method).toBe(404);
    }
    const head = await h.app.fastify.inject({ method: 'HEAD', url, headers: { authorization: `Bearer ${apiKey}` } });
    expect(head.statusCode).toBe(404);
  });

  it('the health routes answer without a key', async () => {
    expect((await h.request({ method: 'GET', url: '/healthz' })).body).toEqual({ status: 'ok' });
    const ready = await h.request({ method: 'GET', url: '/readyz' });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: h.deps.database.kind });
  });
});
