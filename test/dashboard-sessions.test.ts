import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildUser, OWN_ORIGIN, PASSWORD, sessionCookieOf, sessionGraphql, signIn } from './dashboard.js';

let h: Harness;
let tenantId: string;
beforeAll(async () => {
  h = await harness();
  ({ tenantId } = await h.tenant('Session tenant'));
});

describe('sign-in', () => {
  it('answers the user, tenant, scopes and a CSRF token, and sets the session cookie', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const { res, cookie } = await signIn(h.request, user.email.toUpperCase());
    expect(res.body).toMatchObject({ user: { id: user.userId, email: user.email, role: 'staff' }, tenant: { id: tenantId, name: 'Session tenant' } });
    expect(res.body.scopes).toContain('bookings:read');
    expect(res.body.scopes).not.toContain('admin');
    expect(typeof res.body.csrfToken).toBe('string');
    expect(cookie).toMatch(/^portier_session=[A-Za-z0-9_-]{40,}$/);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // PUBLIC_URL is http in the harness
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const user = await buildUser(h, tenantId);
    const wrong = await h.request({ method: 'POST', url: '/dashboard/api/session', body: { email: user.email, password: 'not the password!' } });
    const unknown = await h.request({ method: 'POST', url: '/dashboard/api/session', body: { email: `nobody-${user.userId}@example.test`, password: 'not the password!' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_credentials');
    const strip = (b: Record<string, unknown>) => ({ ...b });
    expect(strip(wrong.body)).toEqual(strip(unknown.body));
    expect(wrong.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(sessionCookieOf(wrong)).toBeUndefined();
  });

  it('GraphQL through the cookie and CSRF token acts as the user', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const res = await sessionGraphql(h.request, session, '{ viewer { id name } }');
    expect(res.status).toBe(200);
    expect(res.body.data.viewer).toEqual({ id: tenantId, name: 'Session tenant' });
  });

  it('a GraphQL mutation through the cookie without the token is refused (403 csrf_failed)', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email);
    const res = await sessionGraphql(h.request, { cookie: session.cookie }, 'mutation { createApiKey(name: "csrf", scopes: ["admin"]) { apiKey } }');
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.reason).toBe('csrf_failed');
  });

  it('sign-out ends the session', async () => {
    const user = await buildUser(h, tenantId);
    const session = await signIn(h.request, user.email, PASSWORD);
    const out = await h.request({ method: 'DELETE', url: '/dashboard/api/session', headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: OWN_ORIGIN } });
    expect(out.status).toBe(204);
    const after = await h.request({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: session.cookie } });
    expect(after.status).toBe(401);
  });
});
