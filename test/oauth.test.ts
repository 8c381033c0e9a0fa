import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN, signIn } from './dashboard.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { parseCreateApp } from '../src/modules/oauth/apps.commands.js';
import {
  CookieJar,
  authorizeUrl,
  basic,
  formPost,
  injectHttp,
  pkce,
  runAuthorization,
  type Http,
} from './oauth-flow.js';

// The authorization server through Portier's own HTTP stack (fastify inject, no browser): every
// refusal is a standard OAuth error (RFC 6749), tokens act exactly like API keys.

const REDIRECT = 'https://app.example.test/callback';
const BOOKINGS = (tenantId: string) => `/api/v1/tenants/${tenantId}/bookings`;

let h: Harness;
let o: OwnApp;
let http: Http;

beforeAll(async () => {
  h = await harness();
  // Argon2 sign-ins on a busy machine must not trip load shedding (503) in these tests.
  o = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  http = injectHttp(o.app.fastify);
});

afterAll(async () => {
  await o.close();
});

async function setup(options: { scopes?: string[]; public?: boolean; role?: 'admin' | 'staff' } = {}) {
  const owner = await h.tenant('App maker');
  const { app, clientSecret } = await createApp(h.deps.database.db, {
    tenantId: owner.tenantId,
    ...parseCreateApp({
      name: 'Calendar Sync',
      redirectUris: [REDIRECT],
      scopes: options.scopes ?? ['bookings:read', 'catalog:read'],
      public: options.public,
    }),
  });
  const customer = await h.tenant('Harbour Hotel');
  const user = await buildUser(h, customer.tenantId, options.role ?? 'admin');
  return {
    owner,
    customer,
    user,
    clientId: app.client_id,
    clientSecret: clientSecret ?? '',
    auth: clientSecret ? basic(app.client_id, clientSecret) : undefined,
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function authorize(
  s: Setup,
  scope = 'bookings:read',
  extra: { state?: string; decision?: 'allow' | 'deny'; jar?: CookieJar; email?: string } = {},
) {
  const { verifier, challenge } = pkce();
  const state = extra.state ?? 'st-' + Math.random().toString(36).slice(2);
  const flow = await runAuthorization(http, {
    url: authorizeUrl({ clientId: s.clientId, redirectUri: REDIRECT, scope, state, challenge }),
    origin: OWN_ORIGIN,
    email: extra.email ?? s.user.email,
    password: s.user.password,
    decision: extra.decision,
    jar: extra.jar,
  });
  return { flow, verifier, state, code: flow.redirect?.searchParams.get('code') ?? undefined };
}

async function exchange(s: Setup, code: string, verifier: string | undefined) {
  const params: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
  if (verifier !== undefined) params.code_verifier = verifier;
  if (!s.auth) params.client_id = s.clientId;
  return formPost(http, '/oauth/token', params, s.auth);
}

async function tokens(s: Setup, scope = 'bookings:read') {
  const { code, verifier } = await authorize(s, scope);
  if (!code) throw new Error('no code');
  const res = await exchange(s, code, verifier);
  expect(res.status).toBe(200);
  return res.body as {
    access_token: string;
    refresh_token: string;
    scope: string;
    expires_in: number;
    token_type: string;
  };
}

describe('OAuth: the code flow', () => {
  it('publishes RFC 8414 metadata with issuer = PUBLIC_URL and only what Portier supports', async () => {
    const res = await o.request({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: 'http://portier.test',
      authorization_endpoint: 'http://portier.test/oauth/authorize',
      token_endpoint: 'http://portier.test/oauth/token',
      revocation_endpoint: 'http://portier.test/oauth/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.body.scopes_supported).toEqual(expect.arrayContaining(['bookings:read', 'admin']));
    for (const absent of [
      'registration_endpoint',
      'device_authorization_endpoint',
      'userinfo_endpoint',
      'introspection_endpoint',
      'pushed_authorization_request_endpoint',
      'end_session_endpoint',
    ]) {
      expect(res.body).not.toHaveProperty(absent);
    }
    // No OpenID Connect discovery, no dynamic registration, no device flow routes.
    for (const url of [
      '/.well-known/openid-configuration',
      '/oauth/register',
      '/oauth/device/auth',
      '/oauth/userinfo',
      '/oauth/par',
    ]) {
      expect(
        (await o.request({ method: url === '/.well-known/openid-configuration' ? 'GET' : 'POST', url })).status,
      ).toBe(404);
    }
  });

  it('signs in, asks consent naming the app, its owner and each scope, and returns state unchanged with the code', async () => {
    const s = await setup();
    const state = 'opaque/state with spaces & symbols?=';
    const { flow, code } = await authorize(s, 'bookings:read catalog:read', { state });
    expect(flow.pages).toEqual(['sign-in', 'consent']);
    expect(`${flow.redirect?.origin}${flow.redirect?.pathname ?? ''}`).toBe(REDIRECT);
    expect(flow.redirect?.searchParams.get('state')).toBe(state);
    expect(flow.redirect?.searchParams.get('iss')).toBe('http://portier.test');
    expect(code).toBeTruthy();
  });

  it('the consent page names the app, the tenant that registered it and each scope in plain words', async () => {
    const s = await setup();
    const jar = new CookieJar();
    const start = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: s.clientId,
        redirectUri: REDIRECT,
        scope: 'bookings:read catalog:read',
        state: 'x',
        challenge: pkce().challenge,
      }),
    });
    jar.take(start);
    const interaction = String(start.headers.location);
    const page = await http({ method: 'GET', url: interaction, headers: { cookie: jar.header() } });
    jar.take(page);
    expect(page.text).toContain('Email');
    expect(page.text).toContain('Sign in');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const signedIn = await http({
      method: 'POST',
      url: `${interaction}/sign-in`,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: OWN_ORIGIN },
      body: new URLSearchParams({ csrf, email: s.user.email, password: s.user.password }).toString(),
    });
    expect(signedIn.status).toBe(303);
    const consent = await http({ method: 'GET', url: interaction, headers: { cookie: jar.header() } });
    expect(consent.status).toBe(200);
    for (const text of [
      'Calendar Sync',
      'App maker',
      'Harbour Hotel',
      'See your bookings',
      'See your accommodations, bookable objects and doors',
      '>Allow<',
      '>Deny<',
    ]) {
      expect(consent.text).toContain(text);
    }
    expect(consent.text).not.toMatch(/<(script|link|img)\b/);
    expect(String(consent.headers['content-security-policy'])).toContain("default-src 'none'");
  });

  it('a forged form (no CSRF token, or another origin) is refused', async () => {
    const s = await setup();
    const jar = new CookieJar();
    const start = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: s.clientId,
        redirectUri: REDIRECT,
        scope: 'bookings:read',
        state: 'x',
        challenge: pkce().challenge,
      }),
    });
    jar.take(start);
    const interaction = String(start.headers.location);
    const page = await http({ method: 'GET', url: interaction, headers: { cookie: jar.header() } });
    jar.take(page);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const post = (body: Record<string, string>, origin = OWN_ORIGIN) =>
      http({
        method: 'POST',
        url: `${interaction}/sign-in`,
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams(body).toString(),
      });
    expect((await post({ email: s.user.email, password: s.user.password })).status).toBe(403);
    expect((await post({ csrf: 'forged', email: s.user.email, password: s.user.password })).status).toBe(403);
    expect((await post({ csrf, email: s.user.email, password: s.user.password }, 'https://evil.example')).status).toBe(
      403,
    );
    const wrong = await post({ csrf, email: s.user.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('The email or password is wrong.');
  });

  it('uses the dashboard session when the browser has one: no sign-in form', async () => {
    const s = await setup();
    const session = await signIn(o.request, s.user.email, s.user.password);
    const { flow, code } = await authorize(s, 'bookings:read', { jar: new CookieJar(session.cookie), email: '' });
    expect(flow.pages).toEqual(['consent']);
    expect(code).toBeTruthy();
  });

  it('tokens work where an API key works, with the granted scopes, for the signing-in user’s tenant', async () => {
    const s = await setup();
    const t = await tokens(s, 'bookings:read');
    expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'bookings:read' });
    expect(t.refresh_token).toBeTruthy();
    const listed = await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token });
    expect(listed.status).toBe(200);
    expect(listed.headers['x-ratelimit-limit']).toBeDefined();
    const viewer = await o.graphql(t.access_token, '{ viewer { id name } }');
    expect(viewer.body.data.viewer).toEqual({ id: s.customer.tenantId, name: 'Harbour Hotel' });
    // A scope it was not granted: 403 like an API key without it.
    const write = await o.request({
      method: 'POST',
      url: BOOKINGS(s.customer.tenantId),
      apiKey: t.access_token,
      body: {},
    });
    expect(write.status).toBe(403);
    const catalog = await o.graphql(t.access_token, '{ accommodations { id } }');
    expect(catalog.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // The price preview takes it too (404 for an unknown object, not 401).
    const preview = await o.request({
      method: 'POST',
      url: '/api/pricing/preview',
      apiKey: t.access_token,
      body: {
        objectId: '00000000-0000-4000-8000-000000000000',
        startTime: '2030-01-01T10:00:00Z',
        endTime: '2030-01-01T11:00:00Z',
      },
    });
    expect(preview.status).not.toBe(401);
  });

  it('a token of tenant A on tenant B’s path is refused with 403', async () => {
    const s = await setup();
    const t = await tokens(s);
    const res = await o.request({ method: 'GET', url: BOOKINGS(s.owner.tenantId), apiKey: t.access_token });
    expect(res.status).toBe(403);
  });

  it('records the last use, lists the connected app, counts authorizing tenants, and revocation by the tenant stops every token at once (401)', async () => {
    const s = await setup();
    const first = await tokens(s);
    const second = await tokens(s, 'bookings:read catalog:read');
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: first.access_token })).status,
    ).toBe(200);
    const admin = await h.key(s.customer.tenantId, ['admin']);
    const listed = await o.graphql(
      admin,
      '{ connectedApps { clientId name ownerTenantName scopes authorizedAt lastUsedAt } }',
    );
    expect(listed.body.data.connectedApps).toHaveLength(1);
    expect(listed.body.data.connectedApps[0]).toMatchObject({
      clientId: s.clientId,
      name: 'Calendar Sync',
      ownerTenantName: 'App maker',
    });
    expect(listed.body.data.connectedApps[0].scopes.sort()).toEqual(['bookings:read', 'catalog:read']);
    expect(listed.body.data.connectedApps[0].lastUsedAt).not.toBeNull();
    const ownerApps = await o.graphql(s.owner.apiKey, '{ oauthApps { clientId authorizedTenantCount } }');
    expect(ownerApps.body.data.oauthApps).toEqual([{ clientId: s.clientId, authorizedTenantCount: 1 }]);

    const revoked = await o.graphql(admin, 'mutation($id: ID!) { revokeConnectedApp(clientId: $id) }', {
      id: s.clientId,
    });
    expect(revoked.body.data.revokeConnectedApp).toBe(true);
    for (const t of [first, second]) {
      expect(
        (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token })).status,
      ).toBe(401);
      const refreshed = await formPost(
        http,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: t.refresh_token },
        s.auth,
      );
      expect(refreshed.body.error).toBe('invalid_grant');
    }
    expect((await o.graphql(admin, '{ connectedApps { clientId } }')).body.data.connectedApps).toEqual([]);
    expect(
      (await o.graphql(s.owner.apiKey, '{ oauthApps { authorizedTenantCount } }')).body.data.oauthApps[0]
        .authorizedTenantCount,
    ).toBe(0);
  });

  it('applies the rate limit per app and tenant with the same headers', async () => {
    const s = await setup();
    const t = await tokens(s);
    const res = await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token });
    const again = await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token });
    expect(Number(again.headers['x-ratelimit-remaining'])).toBe(Number(res.headers['x-ratelimit-remaining']) - 1);
    const { authenticateAccessToken } = await import('../src/modules/oauth/tokens.js');
    const principal = await authenticateAccessToken(h.deps, t.access_token);
    expect(principal?.keyId).toBe(`oauth:${s.clientId}:${s.customer.tenantId}`);
    expect(principal?.via).toMatchObject({ type: 'oauth', clientId: s.clientId, userId: s.user.userId });
  });

  it('refresh tokens rotate; a rotated one used again is refused and ends the whole grant', async () => {
    const s = await setup();
    const t = await tokens(s);
    const refreshed = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      s.auth,
    );
    expect(refreshed.status).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(t.refresh_token);
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: next.access_token })).status,
    ).toBe(200);
    const reused = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: t.refresh_token },
      s.auth,
    );
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: next.access_token })).status,
    ).toBe(401);
    const nextRefresh = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: next.refresh_token },
      s.auth,
    );
    expect(nextRefresh.body.error).toBe('invalid_grant');
  });

  it('revocation (RFC 7009) of either token ends the whole grant; unknown tokens are fine to revoke', async () => {
    const s = await setup();
    const admin = await h.key(s.customer.tenantId, ['admin']);
    for (const kind of ['access_token', 'refresh_token'] as const) {
      const t = await tokens(s);
      const revoked = await formPost(http, '/oauth/revoke', { token: t[kind], token_type_hint: kind }, s.auth);
      expect(revoked.status).toBe(200);
      expect(
        (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token })).status,
      ).toBe(401);
      const refreshed = await formPost(
        http,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: t.refresh_token },
        s.auth,
      );
      expect(refreshed.body.error).toBe('invalid_grant');
      expect((await o.graphql(admin, '{ connectedApps { clientId } }')).body.data.connectedApps).toEqual([]);
    }
    expect(
      (await formPost(http, '/oauth/revoke', { token: 'never-issued-token-value-000000000' }, s.auth)).status,
    ).toBe(200);
    // Another app may not revoke this app's tokens.
    const t = await tokens(s);
    const other = await setup();
    expect((await formPost(http, '/oauth/revoke', { token: t.access_token }, other.auth)).body.error).toBe(
      'invalid_request',
    );
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token })).status,
    ).toBe(200);
  });

  it('a public app uses PKCE without a secret', async () => {
    const s = await setup({ public: true });
    expect(s.auth).toBeUndefined();
    const t = await tokens(s);
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token })).status,
    ).toBe(200);
  });

  it('stores no token, code or secret in plain text', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const rows = async () =>
      JSON.stringify(await h.deps.database.db.selectFrom('oauth_store').selectAll().execute()) +
      JSON.stringify(await h.deps.database.db.selectFrom('oauth_apps').selectAll().execute());
    const before = await rows();
    expect(before).not.toContain(code);
    const t = (await exchange(s, code ?? '', verifier)).body as { access_token: string; refresh_token: string };
    const after = await rows();
    for (const secret of [t.access_token, t.refresh_token, code ?? 'x', s.clientSecret, verifier])
      expect(after).not.toContain(secret);
  });

  it('a rotated client secret replaces the old one at once; a wrong secret is invalid_client', async () => {
    const s = await setup();
    const rotated = await o.graphql(
      s.owner.apiKey,
      'mutation($id: ID!) { rotateOAuthAppSecret(clientId: $id) { clientSecret app { clientId secretRotatedAt } } }',
      {
        id: s.clientId,
      },
    );
    const newSecret = rotated.body.data.rotateOAuthAppSecret.clientSecret as string;
    expect(newSecret).toMatch(/^pcs_/);
    const { code, verifier } = await authorize(s);
    const old = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT, code_verifier: verifier },
      s.auth,
    );
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('invalid_client');
    const ok = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT, code_verifier: verifier },
      basic(s.clientId, newSecret),
    );
    expect(ok.status).toBe(200);
  });
});

describe('OAuth: refusals are standard errors', () => {
  it('an unregistered redirect URI: an error page, no redirect', async () => {
    const s = await setup();
    for (const redirectUri of [
      'https://evil.example/callback',
      REDIRECT + '/',
      REDIRECT + '?x=1',
      'https://APP.example.test/callback',
    ]) {
      const res = await http({
        method: 'GET',
        url: authorizeUrl({
          clientId: s.clientId,
          redirectUri,
          scope: 'bookings:read',
          state: 's',
          challenge: pkce().challenge,
        }),
      });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('invalid_redirect_uri');
    }
  });

  it('an unknown client: an error page, no redirect', async () => {
    const res = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: 'app_unknown',
        redirectUri: REDIRECT,
        scope: 'bookings:read',
        state: 's',
        challenge: pkce().challenge,
      }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('invalid_client');
  });

  it('PKCE is required (S256 only); a missing or wrong verifier is invalid_grant', async () => {
    const s = await setup();
    const none = await http({
      method: 'GET',
      url: authorizeUrl({ clientId: s.clientId, redirectUri: REDIRECT, scope: 'bookings:read', state: 'keep-me' }),
    });
    const noneTo = new URL(String(none.headers.location));
    expect(noneTo.searchParams.get('error')).toBe('invalid_request');
    expect(noneTo.searchParams.get('state')).toBe('keep-me');
    const plain = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: s.clientId,
        redirectUri: REDIRECT,
        scope: 'bookings:read',
        state: 'p',
        challenge: 'a'.repeat(43),
        method: 'plain',
      }),
    });
    expect(new URL(String(plain.headers.location)).searchParams.get('error')).toBe('invalid_request');

    const missing = await authorize(s);
    const noVerifier = await exchange(s, missing.code ?? '', undefined);
    expect(noVerifier.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(noVerifier.body.error);
    const wrong = await authorize(s);
    const badVerifier = await exchange(s, wrong.code ?? '', pkce().verifier);
    expect(badVerifier.status).toBe(400);
    expect(badVerifier.body.error).toBe('invalid_grant');
  });

  it('a code used twice is invalid_grant, and the tokens of its first use are revoked', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const first = await exchange(s, code ?? '', verifier);
    expect(first.status).toBe(200);
    const access = first.body.access_token as string;
    expect((await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: access })).status).toBe(200);
    const second = await exchange(s, code ?? '', verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: access })).status).toBe(401);
    const refreshed = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string },
      s.auth,
    );
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('the same code exchanged twice at the same moment gives tokens once', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const answers = await Promise.all([exchange(s, code ?? '', verifier), exchange(s, code ?? '', verifier)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)?.body.error).toBe('invalid_grant');
  });

  it('an expired code is invalid_grant', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    // Codes live 60 s; age this one past its end instead of waiting.
    await h.deps.database.db
      .updateTable('oauth_store')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('model', '=', 'AuthorizationCode')
      .execute();
    const res = await exchange(s, code ?? '', verifier);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a scope beyond the app’s registered scopes is invalid_scope at the redirect URI, before anyone signs in', async () => {
    const s = await setup({ scopes: ['bookings:read'] });
    const { flow } = await authorize(s, 'bookings:read bookings:write', { state: 'st1' });
    expect(flow.pages).toEqual([]);
    expect(flow.redirect?.searchParams.get('error')).toBe('invalid_scope');
    expect(flow.redirect?.searchParams.get('state')).toBe('st1');
  });

  it('an unknown scope, or none, is invalid_scope too — never a silently narrowed grant', async () => {
    const s = await setup();
    for (const scope of ['bookings:read openid', 'bookings:read frobnicate', '']) {
      const { flow } = await authorize(s, scope, { state: 'st2' });
      expect(flow.redirect?.searchParams.get('error')).toBe('invalid_scope');
      expect(flow.redirect?.searchParams.get('state')).toBe('st2');
    }
  });

  it('a staff user granting an admin scope (or any scope beyond the role) is invalid_scope', async () => {
    const s = await setup({ scopes: ['admin', 'bookings:read', 'webhooks:write'], role: 'staff' });
    for (const scope of ['admin', 'bookings:read webhooks:write']) {
      const { flow } = await authorize(s, scope, { state: 'st3' });
      expect(flow.pages).toEqual(['sign-in']);
      expect(flow.redirect?.searchParams.get('error')).toBe('invalid_scope');
      expect(flow.redirect?.searchParams.get('error_description')).toMatch(/role/);
      expect(flow.redirect?.searchParams.get('state')).toBe('st3');
    }
    const ok = await authorize(s, 'bookings:read', { state: 'st4' });
    expect(ok.code).toBeTruthy();
  });

  it('Deny is access_denied at the redirect URI with state', async () => {
    const s = await setup();
    const { flow } = await authorize(s, 'bookings:read', { decision: 'deny', state: 'st5' });
    expect(flow.pages).toEqual(['sign-in', 'consent']);
    expect(flow.redirect?.searchParams.get('error')).toBe('access_denied');
    expect(flow.redirect?.searchParams.get('state')).toBe('st5');
    expect(flow.redirect?.searchParams.get('code')).toBeNull();
  });

  it('a token after the app was deleted, or its user removed, is refused with 401', async () => {
    const s = await setup();
    const t = await tokens(s);
    await h.deps.database.db.deleteFrom('users').where('id', '=', s.user.userId).execute();
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: t.access_token })).status,
    ).toBe(401);

    const s2 = await setup();
    const t2 = await tokens(s2);
    const deleted = await o.graphql(s2.owner.apiKey, 'mutation($id: ID!) { deleteOAuthApp(clientId: $id) }', {
      id: s2.clientId,
    });
    expect(deleted.body.data.deleteOAuthApp).toBe(true);
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s2.customer.tenantId), apiKey: t2.access_token })).status,
    ).toBe(401);
  });
});

describe('OAuth: what the walkthrough promises', () => {
  it('a secret in the body instead of HTTP Basic is invalid_client; only code is a response type; refresh cannot widen scope', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const post = await formPost(http, '/oauth/token', {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: s.clientId,
      client_secret: s.clientSecret,
    });
    expect(post.status).toBe(401);
    expect(post.body.error).toBe('invalid_client');
    const token = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: s.clientId,
        redirectUri: REDIRECT,
        scope: 'bookings:read',
        state: 'rt',
        challenge: pkce().challenge,
      }).replace('response_type=code', 'response_type=token'),
    });
    // response_type=token is refused in the fragment, as that response type would answer: the
    // fragment response mode it implies is not offered (response_modes_supported: query), so the
    // refusal is invalid_request (issue #27).
    const refusal = new URLSearchParams(new URL(String(token.headers.location)).hash.slice(1));
    expect(refusal.get('error')).toBe('invalid_request');
    expect(refusal.get('error_description')).toContain('response_mode');
    const t = await tokens(s, 'bookings:read');
    const wider = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: t.refresh_token, scope: 'bookings:read catalog:read' },
      s.auth,
    );
    expect(wider.body.error).toBe('invalid_scope');
    const password = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'password', username: s.user.email, password: s.user.password },
      s.auth,
    );
    expect(password.body.error).toBe('unsupported_grant_type');
  });
});

describe('OAuth apps over GraphQL', () => {
  it('creates, lists, rotates and deletes apps; admin only; clear 400-style errors', async () => {
    const { apiKey, tenantId } = await h.tenant('Maker');
    const created = await o.graphql(
      apiKey,
      'mutation { createOAuthApp(name: "Sync", redirectUris: ["https://sync.example/cb"], scopes: ["bookings:read"]) { clientSecret app { clientId name redirectUris scopes public authorizedTenantCount } } }',
    );
    expect(created.body.data.createOAuthApp.clientSecret).toMatch(/^pcs_/);
    expect(created.body.data.createOAuthApp.app).toMatchObject({
      name: 'Sync',
      redirectUris: ['https://sync.example/cb'],
      scopes: ['bookings:read'],
      public: false,
      authorizedTenantCount: 0,
    });
    const pub = await o.graphql(
      apiKey,
      'mutation { createOAuthApp(name: "Mobile", redirectUris: ["com.example.portier:/cb", "http://127.0.0.1:7777/cb"], scopes: ["bookings:read"], public: true) { clientSecret app { public } } }',
    );
    expect(pub.body.data.createOAuthApp).toEqual({ clientSecret: null, app: { public: true } });
    const bad = await o.graphql(
      apiKey,
      'mutation { createOAuthApp(name: "", redirectUris: ["http://evil.example/cb", "javascript:alert(1)"], scopes: ["nope"]) { clientSecret } }',
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].message).toMatch(/name/);
    expect(bad.body.errors[0].message).toMatch(/redirectUris/);
    expect(bad.body.errors[0].message).toMatch(/scopes/);
    const reader = await h.key(tenantId, ['bookings:read']);
    expect((await o.graphql(reader, '{ oauthApps { clientId } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const listed = await o.graphql(apiKey, '{ oauthApps { name } }');
    expect(listed.body.data.oauthApps.map((a: { name: string }) => a.name)).toEqual(['Sync', 'Mobile']);
    const other = await h.tenant('Other');
    const clientId = created.body.data.createOAuthApp.app.clientId as string;
    expect(
      (await o.graphql(other.apiKey, 'mutation($id: ID!) { deleteOAuthApp(clientId: $id) }', { id: clientId })).body
        .errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(
      (await o.graphql(apiKey, 'mutation($id: ID!) { deleteOAuthApp(clientId: $id) }', { id: clientId })).body.data
        .deleteOAuthApp,
    ).toBe(true);
  });
});
