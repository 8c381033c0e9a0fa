import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, requester, type Harness, type TestResponse } from './harness.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import {
  buildUser,
  OWN_ORIGIN,
  PASSWORD,
  sessionCookieOf,
  sessionGraphql,
  signIn,
  type SignedIn,
} from './dashboard.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../src/modules/users/index.js';

let h: Harness;
let tenantId: string;
beforeAll(async () => {
  h = await harness();
  ({ tenantId } = await h.tenant('Session tenant'));
});
afterEach(() => h.clock.set(null));

const CREATE_KEY = 'mutation { createApiKey(name: "through the cookie", scopes: ["admin"]) { apiKey } }';
const apiKeyCount = async (id: string) =>
  (await h.deps.database.db.selectFrom('api_keys').select('id').where('tenant_id', '=', id).execute()).length;
const whoAmI = (cookie: string) => h.request({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
const signOutHeaders = (s: SignedIn) => ({ cookie: s.cookie, 'x-csrf-token': s.csrfToken, origin: OWN_ORIGIN });

function expectCsrfRefusal(res: TestResponse) {
  expect(res.status).toBe(403);
  const code = res.body.code ?? res.body.errors?.[0]?.extensions?.reason;
  expect(code).toBe('csrf_failed');
}

describe('sign-in', () => {
  it('answers the user, tenant, scopes and a CSRF token, and sets the session cookie', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const { res, cookie } = await signIn(h.request, user.email.toUpperCase());
    expect(res.body).toMatchObject({
      user: { id: user.userId, email: user.email, role: 'staff' },
      tenant: { id: tenantId, name: 'Session tenant' },
    });
    expect(res.body.scopes).toEqual([
      'bookings:read',
      'bookings:write',
      'catalog:read',
      'pricing:read',
      'devices:read',
      'devices:write',
      'customers:read',
      'customers:write',
    ]);
    expect(typeof res.body.csrfToken).toBe('string');
    expect(cookie).toMatch(/^portier_session=[A-Za-z0-9_-]{40,}$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await whoAmI(cookie);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('cookie flags: HttpOnly, SameSite=Lax, Path=/, and no Secure on an http PUBLIC_URL', async () => {
    const user = await buildUser(h, tenantId);
    const { res } = await signIn(h.request, user.email);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    expect(setCookie).not.toMatch(/Domain=/);
  });

  it('gives the same answer for an unknown email and a wrong password, and sets no cookie', async () => {
    const user = await buildUser(h, tenantId);
    const wrong = await h.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: user.email, password: 'not the password!' },
    });
    const unknown = await h.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: `nobody-${user.userId}@example.test`, password: 'not the password!' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('invalid_credentials');
  });

  it('400 naming the missing or mistyped field', async () => {
    const res = await h.request({ method: 'POST', url: '/dashboard/api/session', body: { email: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'email', message: 'must be a string' },
      { field: 'password', message: 'is required' },
    ]);
    expect((await h.request({ method: 'POST', url: '/dashboard/api/session', body: '[1,2]' })).status).toBe(400);
  });

  it('makes a new session id at every sign-in and ends the one the browser brought', async () => {
    const user = await buildUser(h, tenantId);
    const first = await signIn(h.request, user.email);
    const second = await signIn(h.request, user.email, PASSWORD, { cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect(second.csrfToken).not.toBe(first.csrfToken);
    expect((await whoAmI(first.cookie)).status).toBe(401);
    expect((await whoAmI(second.cookie)).status).toBe(200);
    // A value planted in the browser beforehand (session fixation) is never adopted.
    const planted = 'portier_session=planted-by-someone-else-0123456789abcdefghijklmnop';
    const third = await signIn(h.request, user.email, PASSWORD, { cookie: planted });
    expect(third.cookie).not.toBe(planted);
    expect((await whoAmI(planted)).status).toBe(401);
  });

  it('a sign-in posted from another origin is refused (login CSRF)', async () => {
    const user = await buildUser(h, tenantId);
    const res = await h.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: user.email, password: PASSWORD },
      headers: { origin: 'http://evil.example' },
    });
    expectCsrfRefusal(res);
    expect(sessionCookieOf(res)).toBeUndefined();
  });
});

describe('Secure cookie', () => {
  let app: App;
  afterAll(async () => app?.fastify.close());

  it('carries Secure when PUBLIC_URL is https', async () => {
    app = await buildApp({ ...h.deps, env: { ...h.deps.env, publicUrl: 'https://portier.example' } });
    await app.fastify.ready();
    const user = await buildUser(h, tenantId);
    const res = await requester(app.fastify)({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: user.email, password: PASSWORD },
      headers: { origin: 'https://portier.example' },
    });
    expect(res.status).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
  });
});

describe('GraphQL through the session', () => {
  it("acts as the user with the cookie, the CSRF token and Portier's own Origin", async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const res = await sessionGraphql(h.request, session, '{ viewer { id name } viewerUser { id email role } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      viewer: { id: tenantId, name: 'Session tenant' },
      viewerUser: { id: user.userId, email: user.email, role: 'ADMIN' },
    });
    // The request's own origin (scheme, host and port it was sent to) counts as Portier's own too.
    const own = await sessionGraphql(h.request, session, '{ viewer { id } }', undefined, {
      origin: 'http://localhost:80',
    });
    expect(own.status).toBe(200);
  });

  it.each([
    ['without the CSRF token', (s: SignedIn) => ({ cookie: s.cookie, origin: OWN_ORIGIN })],
    [
      'with a wrong CSRF token',
      (s: SignedIn) => ({ cookie: s.cookie, origin: OWN_ORIGIN, 'x-csrf-token': `${s.csrfToken.slice(0, -2)}xx` }),
    ],
    [
      'from another origin',
      (s: SignedIn) => ({ cookie: s.cookie, origin: 'http://evil.example', 'x-csrf-token': s.csrfToken }),
    ],
    [
      'from another port of the same host',
      (s: SignedIn) => ({ cookie: s.cookie, origin: 'http://portier.test:8080', 'x-csrf-token': s.csrfToken }),
    ],
    [
      'from another port of the host it was sent to',
      (s: SignedIn) => ({ cookie: s.cookie, origin: 'http://localhost:81', 'x-csrf-token': s.csrfToken }),
    ],
    [
      'from https of the same host',
      (s: SignedIn) => ({ cookie: s.cookie, origin: 'https://portier.test', 'x-csrf-token': s.csrfToken }),
    ],
    ['from an opaque origin', (s: SignedIn) => ({ cookie: s.cookie, origin: 'null', 'x-csrf-token': s.csrfToken })],
    [
      'cross-site by Sec-Fetch-Site without Origin',
      (s: SignedIn) => ({ cookie: s.cookie, 'sec-fetch-site': 'same-site', 'x-csrf-token': s.csrfToken }),
    ],
  ])('a mutation %s is refused with 403 csrf_failed and changes nothing', async (_, headersOf) => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const before = await apiKeyCount(tenantId);
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/graphql',
      body: { query: CREATE_KEY },
      headers: headersOf(session),
    });
    expectCsrfRefusal(res);
    expect(res.text).not.toContain('svc_');
    expect(await apiKeyCount(tenantId)).toBe(before);
  });

  it('a query without the token is refused too (the cookie alone never acts)', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    expectCsrfRefusal(await sessionGraphql(h.request, { cookie: session.cookie }, '{ viewer { id } }'));
  });

  it('the cookie does not authenticate GET GraphQL or REST routes', async () => {
    const venue = await buildVenue(h);
    const user = await buildUser(h, venue.tenantId);
    const session = await signIn(h.request, user.email);
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: OWN_ORIGIN };
    const get = await h.request({
      method: 'GET',
      url: `/api/v1/graphql?query=${encodeURIComponent('{ viewer { id } }')}`,
      headers,
    });
    expect(get.status).toBe(401);
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/objects/${venue.object.id}/opening-hours`,
      headers,
    });
    expect(rest.status).toBe(401);
    const restWrite = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/bookings`,
      headers,
      body: { objectId: venue.object.id },
    });
    expect(restWrite.status).toBe(401);
  });

  it('a request with Authorization: Bearer ignores the cookie', async () => {
    const other = await h.tenant('Integrator tenant');
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const res = await sessionGraphql(h.request, session, '{ viewer { id } viewerUser { id } }', undefined, {
      authorization: `Bearer ${other.apiKey}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ viewer: { id: other.tenantId }, viewerUser: null });
    // and an invalid bearer is not rescued by a valid cookie
    const bad = await sessionGraphql(h.request, session, '{ viewer { id } }', undefined, {
      authorization: 'Bearer svc_nonsense',
    });
    expect(bad.status).toBe(401);
  });

  it('no response carries Access-Control-Allow-Credentials for an origin not listed in CORS_ORIGINS', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const foreign = 'http://evil.example';
    const responses = [
      await h.request({
        method: 'POST',
        url: '/dashboard/api/session',
        body: { email: user.email, password: PASSWORD },
        headers: { origin: foreign },
      }),
      await h.request({
        method: 'GET',
        url: '/dashboard/api/session',
        headers: { cookie: session.cookie, origin: foreign },
      }),
      await sessionGraphql(h.request, session, '{ viewer { id } }', undefined, { origin: foreign }),
      await h.app.fastify
        .inject({
          method: 'OPTIONS',
          url: '/api/v1/graphql',
          headers: {
            origin: foreign,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'x-csrf-token, content-type',
          },
        })
        .then((r) => ({ headers: r.headers }) as TestResponse),
      await h.app.fastify
        .inject({
          method: 'OPTIONS',
          url: '/dashboard/api/session',
          headers: { origin: foreign, 'access-control-request-method': 'POST' },
        })
        .then((r) => ({ headers: r.headers }) as TestResponse),
    ];
    for (const res of responses) {
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).not.toBe(foreign);
      expect(res.headers['access-control-allow-origin']).not.toBe('*');
    }
  });
});

describe('sign-out', () => {
  it('ends the session (204) and clears the cookie; the old cookie no longer works anywhere', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const out = await h.request({ method: 'DELETE', url: '/dashboard/api/session', headers: signOutHeaders(session) });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^portier_session=;.*Max-Age=0/);
    expect((await whoAmI(session.cookie)).status).toBe(401);
    const gql = await sessionGraphql(h.request, session, '{ viewer { id } }');
    expect(gql.status).toBe(401);
  });

  it('from another origin or without the token it is refused and the session lives on', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    expectCsrfRefusal(
      await h.request({
        method: 'DELETE',
        url: '/dashboard/api/session',
        headers: { cookie: session.cookie, origin: OWN_ORIGIN },
      }),
    );
    expectCsrfRefusal(
      await h.request({
        method: 'DELETE',
        url: '/dashboard/api/session',
        headers: { ...signOutHeaders(session), origin: 'http://portier.test:3001' },
      }),
    );
    expectCsrfRefusal(
      await h.request({
        method: 'POST',
        url: '/dashboard/api/session/revoke-all',
        headers: { ...signOutHeaders(session), origin: 'http://evil.example' },
      }),
    );
    expect((await whoAmI(session.cookie)).status).toBe(200);
  });

  it('"sign out everywhere" ends every session of the user, and only theirs', async () => {
    const user = await buildUser(h, tenantId);
    const colleague = await buildUser(h, tenantId);
    const laptop = await signIn(h.request, user.email);
    const phone = await signIn(h.request, user.email);
    const theirs = await signIn(h.request, colleague.email);
    const res = await h.request({
      method: 'POST',
      url: '/dashboard/api/session/revoke-all',
      headers: signOutHeaders(phone),
    });
    expect(res.status).toBe(204);
    expect((await whoAmI(laptop.cookie)).status).toBe(401);
    expect((await whoAmI(phone.cookie)).status).toBe(401);
    expect((await whoAmI(theirs.cookie)).status).toBe(200);
    expect(
      (await h.request({ method: 'POST', url: '/dashboard/api/session/revoke-all', headers: signOutHeaders(phone) }))
        .status,
    ).toBe(401);
  });
});

describe('expiry', () => {
  it(`ends a session idle for ${SESSION_IDLE_MS / 60_000} minutes; use keeps it alive`, async () => {
    const user = await buildUser(h, tenantId);
    const start = Date.now();
    h.clock.set(new Date(start));
    const busy = await signIn(h.request, user.email);
    const idle = await signIn(h.request, user.email);
    h.clock.set(new Date(start + SESSION_IDLE_MS - 60_000));
    expect((await whoAmI(busy.cookie)).status).toBe(200);
    h.clock.set(new Date(start + SESSION_IDLE_MS + 60_000));
    expect((await whoAmI(idle.cookie)).status).toBe(401);
    expect((await whoAmI(busy.cookie)).status).toBe(200);
  });

  it(`ends every session ${SESSION_MAX_MS / 3_600_000} hours after sign-in however busy`, async () => {
    const user = await buildUser(h, tenantId);
    const start = Date.now();
    h.clock.set(new Date(start));
    const session = await signIn(h.request, user.email);
    for (let t = start; t < start + SESSION_MAX_MS - 60_000; t += SESSION_IDLE_MS / 2) {
      h.clock.set(new Date(t));
      expect((await whoAmI(session.cookie)).status).toBe(200);
    }
    h.clock.set(new Date(start + SESSION_MAX_MS + 1000));
    expect((await whoAmI(session.cookie)).status).toBe(401);
  });
});

describe('roles and tenants through the session', () => {
  it('staff cannot list or create API keys (403) but can read bookings', async () => {
    const venue = await buildVenue(h);
    const slot = slotInDays(3);
    await buildBooking(h, venue.tenantId, venue.object.id, {
      start: slot.startTime,
      end: slot.endTime,
      guestName: 'Grace Hopper',
    });
    const staff = await buildUser(h, venue.tenantId, 'staff');
    const session = await signIn(h.request, staff.email);
    const list = await sessionGraphql(h.request, session, '{ apiKeys { id } }');
    expect(list.status).toBe(403);
    expect(list.body.errors[0].extensions.reason).toBe('missing_scope');
    const before = await apiKeyCount(venue.tenantId);
    const create = await sessionGraphql(h.request, session, CREATE_KEY);
    expect(create.status).toBe(403);
    expect(await apiKeyCount(venue.tenantId)).toBe(before);
    for (const query of ['{ users { id } }', '{ auditLog { edges { cursor } } }', '{ webhooks { id } }']) {
      expect((await sessionGraphql(h.request, session, query)).status).toBe(403);
    }
    const bookings = await sessionGraphql(h.request, session, '{ bookings { guestName } }');
    expect(bookings.status).toBe(200);
    expect(bookings.body.data.bookings).toEqual([{ guestName: 'Grace Hopper' }]);
  });

  it('a user of tenant A cannot read tenant B', async () => {
    const a = await buildVenue(h);
    const b = await buildVenue(h);
    const slot = slotInDays(4);
    const theirs = await buildBooking(h, b.tenantId, b.object.id, {
      start: slot.startTime,
      end: slot.endTime,
      guestName: 'Secret Guest',
    });
    const admin = await buildUser(h, a.tenantId, 'admin');
    const session = await signIn(h.request, admin.email);
    const byArgument = await sessionGraphql(h.request, session, 'query($t: ID) { bookings(tenantId: $t) { id } }', {
      t: b.tenantId,
    });
    expect(byArgument.status).toBe(200);
    expect(byArgument.body.errors[0].extensions.reason).toBe('tenant_mismatch');
    const byId = await sessionGraphql(h.request, session, 'query($id: ID!) { booking(id: $id) { guestName } }', {
      id: theirs.id,
    });
    expect(byId.status).toBe(200);
    expect(byId.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const users = await sessionGraphql(h.request, session, 'query($t: ID) { users(tenantId: $t) { id } }', {
      t: b.tenantId,
    });
    expect(users.status).toBe(200);
    expect(users.body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const res of [byArgument, byId, users]) expect(res.text).not.toContain('Secret Guest');
    const own = await sessionGraphql(h.request, session, '{ bookings { id } }');
    expect(own.body.data.bookings).toEqual([]);
  });

  it('a role change takes effect on the next request of a signed-in user', async () => {
    const user = await buildUser(h, tenantId, 'admin');
    await buildUser(h, tenantId, 'admin'); // so this one is not the last admin
    const session = await signIn(h.request, user.email);
    expect((await sessionGraphql(h.request, session, '{ apiKeys { id } }')).status).toBe(200);
    await h.deps.database.db.updateTable('users').set({ role: 'staff' }).where('id', '=', user.userId).execute();
    expect((await sessionGraphql(h.request, session, '{ apiKeys { id } }')).status).toBe(403);
    expect((await whoAmI(session.cookie)).body.user.role).toBe('staff');
  });
});
