import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN } from './dashboard.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { authorizeUrl, basic, formPost, injectHttp, pkce, runAuthorization, type Http } from './oauth-flow.js';

// Issue #23, finding 5: a removed user's refresh token, a public app sending a secret, and a native
// app's loopback redirect URI on another port (RFC 8252 §7.3; docs/oauth.md says what holds).

const REDIRECT = 'https://app.example.test/callback';
const BOOKINGS = (tenantId: string) => `/api/v1/tenants/${tenantId}/bookings`;

let h: Harness;
let o: OwnApp;
let http: Http;

beforeAll(async () => {
  h = await harness();
  o = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  http = injectHttp(o.app.fastify);
});
afterAll(async () => o?.close());

async function setup(options: { public?: boolean; redirectUris?: string[] } = {}) {
  const owner = await h.tenant('App maker');
  const { app, clientSecret } = await createApp(h.deps.database.db, {
    tenantId: owner.tenantId,
    name: 'Calendar Sync',
    redirectUris: options.redirectUris ?? [REDIRECT],
    scopes: ['bookings:read'],
    public: options.public,
  });
  const customer = await h.tenant('Harbour Hotel');
  // a staff user may grant bookings:read, and removing one leaves the tenant's admins alone
  const user = await buildUser(h, customer.tenantId, 'staff');
  return {
    owner,
    customer,
    user,
    clientId: app.client_id,
    clientSecret,
    auth: clientSecret ? basic(app.client_id, clientSecret) : undefined,
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function authorize(s: Setup, redirectUri = REDIRECT) {
  const { verifier, challenge } = pkce();
  const flow = await runAuthorization(http, {
    url: authorizeUrl({ clientId: s.clientId, redirectUri, scope: 'bookings:read', state: 'st', challenge }),
    origin: OWN_ORIGIN,
    email: s.user.email,
    password: s.user.password,
  });
  return { flow, verifier, code: flow.redirect?.searchParams.get('code') ?? undefined };
}

function exchange(
  s: Setup,
  code: string,
  verifier: string,
  redirectUri = REDIRECT,
  extra: Record<string, string> = {},
) {
  const params: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    ...extra,
  };
  if (!s.auth) params.client_id = s.clientId;
  return formPost(http, '/oauth/token', params, s.auth);
}

describe('OAuth (issue #23, finding 5)', () => {
  it('finding 5: after the granting user is removed (removeUser), the refresh token is invalid_grant and the access token 401', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const tokens = (await exchange(s, code ?? '', verifier)).body as { access_token: string; refresh_token: string };
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: tokens.access_token })).status,
    ).toBe(200);
    const removed = await o.graphql(s.customer.apiKey, 'mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', {
      id: s.user.userId,
    });
    expect(removed.body).toEqual({ data: { removeUser: { removedUserId: s.user.userId } } });
    const refreshed = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      s.auth,
    );
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(
      (await o.request({ method: 'GET', url: BOOKINGS(s.customer.tenantId), apiKey: tokens.access_token })).status,
    ).toBe(401);
  });

  it('finding 5: a refresh token whose grant the tenant revoked (revokeConnectedApp) is invalid_grant too', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const tokens = (await exchange(s, code ?? '', verifier)).body as { refresh_token: string };
    const revoked = await o.graphql(s.customer.apiKey, 'mutation($id: ID!) { revokeConnectedApp(clientId: $id) }', {
      id: s.clientId,
    });
    expect((revoked.body as { errors?: unknown }).errors).toBeUndefined();
    const refreshed = await formPost(
      http,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      s.auth,
    );
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('finding 5: a public app sending a client_secret in the body gets invalid_client (code and refresh), without one it gets tokens', async () => {
    const s = await setup({ public: true });
    expect(s.auth).toBeUndefined();
    const { code, verifier } = await authorize(s);
    const withSecret = await exchange(s, code ?? '', verifier, REDIRECT, { client_secret: 'anything at all' });
    expect(withSecret.status).toBe(401);
    expect(withSecret.body.error).toBe('invalid_client');
    const empty = await exchange(s, code ?? '', verifier, REDIRECT, { client_secret: '' });
    expect(empty.body.error).toBe('invalid_client');
    // the code was not spent by the refused requests
    const ok = await exchange(s, code ?? '', verifier);
    expect(ok.status).toBe(200);
    const refresh = (extra: Record<string, string>) =>
      formPost(http, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: String(ok.body.refresh_token),
        client_id: s.clientId,
        ...extra,
      });
    const refused = await refresh({ client_secret: 'x' });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect((await refresh({})).status).toBe(200);
    // revocation too
    const revoke = await formPost(http, '/oauth/revoke', {
      token: 'whatever',
      client_id: s.clientId,
      client_secret: 'x',
    });
    expect(revoke.body.error).toBe('invalid_client');
  });

  it('finding 5: a confidential app sending its secret in the body as well as HTTP Basic gets invalid_client', async () => {
    const s = await setup();
    const { code, verifier } = await authorize(s);
    const both = await exchange(s, code ?? '', verifier, REDIRECT, { client_secret: s.clientSecret ?? '' });
    expect(both.status).toBe(401);
    expect(both.body.error).toBe('invalid_client');
    expect((await exchange(s, code ?? '', verifier)).status).toBe(200);
  });

  it('finding 5: a loopback IP redirect URI matches on any port (RFC 8252 §7.3), path and query exactly; https stays exact, port included', async () => {
    const s = await setup({
      public: true,
      redirectUris: ['http://127.0.0.1/callback', 'http://[::1]:8080/cb', REDIRECT],
    });
    // the port the native app listens on, chosen at the time of the request
    const ephemeral = 'http://127.0.0.1:53123/callback';
    const { flow, code, verifier } = await authorize(s, ephemeral);
    expect(flow.redirect?.origin).toBe('http://127.0.0.1:53123');
    expect(flow.redirect?.pathname).toBe('/callback');
    // the code is bound to the redirect URI it was issued to, port included
    const elsewhere = await exchange(s, code ?? '', verifier, 'http://127.0.0.1:53124/callback');
    expect(elsewhere.body.error).toBe('invalid_grant');
    const v6 = await authorize(s, 'http://[::1]:41000/cb');
    expect(v6.flow.redirect?.host).toBe('[::1]:41000');
    for (const redirectUri of [
      'http://127.0.0.1:53123/other',
      'http://127.0.0.1:53123/callback?x=1',
      'http://127.0.0.2:53123/callback',
      'https://127.0.0.1:53123/callback',
      'https://app.example.test:8443/callback',
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
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.location, redirectUri).toBeUndefined();
      expect(res.text).toContain('invalid_redirect_uri');
    }
  });
});
