import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN } from './dashboard.js';
import { buildVenue } from './builders.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { authorizeUrl, basic, formPost, injectHttp, pkce, runAuthorization, type Http } from './oauth-flow.js';

// Issue #27, findings 2 and 3: the metadata advertises only what Portier does (an OAuth 2.0
// authorization server, not an OpenID provider), a client's RFC 8414 discovery works, and refused
// bearer credentials get RFC 6750 challenges whose words fit the credential.

const REDIRECT = 'https://app.example.test/callback';
const METADATA = '/.well-known/oauth-authorization-server';

let h: Harness;
let o: OwnApp;
let http: Http;

beforeAll(async () => {
  h = await harness();
  o = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  http = injectHttp(o.app.fastify);
});

afterAll(async () => {
  await o.close();
});

/** fetch() answered by the app in process (fastify inject), for oauth4webapi. */
const injectFetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
  const target = new URL(url);
  const res = await o.app.fastify.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: target.pathname + target.search,
    headers: Object.fromEntries(new Headers(init.headers).entries()),
  });
  return new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
};

async function accessToken(
  scope: string,
  appScopes: Parameters<typeof createApp>[1]['scopes'],
): Promise<{ token: string; tenantId: string; auth: string }> {
  const owner = await h.tenant('App maker');
  const { app, clientSecret } = await createApp(h.deps.database.db, {
    tenantId: owner.tenantId,
    name: 'Sync',
    redirectUris: [REDIRECT],
    scopes: appScopes,
  });
  const customer = await buildVenue(h);
  const user = await buildUser(h, customer.tenantId, 'admin');
  const { verifier, challenge } = pkce();
  const flow = await runAuthorization(http, {
    url: authorizeUrl({ clientId: app.client_id, redirectUri: REDIRECT, scope, state: 's1', challenge }),
    origin: OWN_ORIGIN,
    email: user.email,
    password: user.password,
  });
  const code = flow.redirect?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${flow.redirect?.toString() ?? flow.last.status}`);
  const auth = basic(app.client_id, clientSecret ?? '');
  const res = await formPost(
    http,
    '/oauth/token',
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
    auth,
  );
  expect(res.status).toBe(200);
  return { token: String(res.body.access_token), tenantId: customer.tenantId, auth };
}

describe('OAuth metadata', () => {
  it('advertises only what Portier does: no openid scope, only the query response mode, no ID-token or claims fields', async () => {
    const res = await o.request({ method: 'GET', url: METADATA });
    expect(res.status).toBe(200);
    expect(res.body.scopes_supported).not.toContain('openid');
    expect(res.body.response_modes_supported).toEqual(['query']);
    for (const absent of [
      'id_token_signing_alg_values_supported',
      'claims_supported',
      'claims_parameter_supported',
      'claim_types_supported',
      'subject_types_supported',
      'request_uri_parameter_supported',
      'userinfo_endpoint',
    ]) {
      expect(res.body, absent).not.toHaveProperty(absent);
    }
  });

  it('is found by RFC 8414 discovery (oauth4webapi with algorithm oauth2, as openid-client uses it)', async () => {
    const issuer = new URL(o.deps.env.publicUrl);
    const response = await oauth.discoveryRequest(issuer, {
      algorithm: 'oauth2',
      [oauth.customFetch]: injectFetch,
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test server speaks plain HTTP on loopback
      [oauth.allowInsecureRequests]: true,
    });
    expect(new URL(response.url || `${issuer.origin}${METADATA}`).pathname).toBe(METADATA);
    const as = await oauth.processDiscoveryResponse(issuer, response);
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ''));
    expect(as.token_endpoint).toBe(`${issuer.origin}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('refuses response_mode form_post and fragment (only query is offered)', async () => {
    const owner = await h.tenant('App maker');
    const { app } = await createApp(h.deps.database.db, {
      tenantId: owner.tenantId,
      name: 'Modes',
      redirectUris: [REDIRECT],
      scopes: ['bookings:read'],
    });
    const { challenge } = pkce();
    for (const mode of ['form_post', 'fragment']) {
      const url = `${authorizeUrl({ clientId: app.client_id, redirectUri: REDIRECT, scope: 'bookings:read', state: 's', challenge })}&response_mode=${mode}`;
      const res = await o.app.fastify.inject({ method: 'GET', url });
      // The error goes back to the app (never a sign-in page): invalid_request naming response_mode.
      const text = `${res.headers.location ?? ''} ${res.body}`;
      expect(text, mode).toContain('invalid_request');
      expect(text, mode).toContain('response_mode');
      expect(res.headers.location ?? '').not.toContain('/oauth/interaction/');
    }
  });
});

describe('RFC 6750 challenges', () => {
  const bookings = (tenantId: string) => `/api/v1/tenants/${tenantId}/bookings`;

  it('no credential: the bare challenge', async () => {
    const { tenantId } = await h.tenant();
    const res = await h.request({ method: 'GET', url: bookings(tenantId) });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portier"');
  });

  it('an unknown OAuth token: invalid_token, and the text speaks of an access token, not an API key', async () => {
    const { tenantId } = await h.tenant();
    for (const res of [
      await h.request({
        method: 'GET',
        url: bookings(tenantId),
        apiKey: 'Fq6nW7bC1xZrK9pT3mL0vS8dH2jY5gA4eU-oN_iQwRt',
      }),
      await h.graphql('Fq6nW7bC1xZrK9pT3mL0vS8dH2jY5gA4eU-oN_iQwRt', '{ __typename }'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="portier", error="invalid_token", error_description="The OAuth access token is unknown, expired or revoked"',
      );
      expect(res.text).not.toContain('API key');
      expect(res.text).toContain('access token');
    }
  });

  it('a revoked OAuth token: invalid_token', async () => {
    const { token, tenantId, auth } = await accessToken('bookings:read', ['bookings:read']);
    expect((await h.request({ method: 'GET', url: bookings(tenantId), apiKey: token })).status).toBe(200);
    expect((await formPost(http, '/oauth/revoke', { token }, auth)).status).toBe(200);
    const res = await h.request({ method: 'GET', url: bookings(tenantId), apiKey: token });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(res.body.detail).toBe('The OAuth access token is unknown, expired or revoked');
  });

  it('an unknown API key: invalid_token naming the API key', async () => {
    const { tenantId } = await h.tenant();
    const res = await h.request({
      method: 'GET',
      url: bookings(tenantId),
      apiKey: 'svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="portier", error="invalid_token", error_description="The API key is unknown or revoked"',
    );
  });

  it('a missing scope: 403 with insufficient_scope and the scope needed (REST bridged, hand-written, GraphQL)', async () => {
    const { tenantId } = await h.tenant();
    const key = await h.key(tenantId, ['catalog:read']);
    const challenge = (scope: string) =>
      `Bearer realm="portier", error="insufficient_scope", error_description="The credential lacks a scope this request needs", scope="${scope}"`;
    const rest = await h.request({ method: 'GET', url: bookings(tenantId), apiKey: key });
    expect(rest.status).toBe(403);
    expect(rest.headers['www-authenticate']).toBe(challenge('bookings:read'));
    const preview = await h.request({ method: 'POST', url: '/api/pricing/preview', apiKey: key, body: {} });
    expect(preview.status).toBe(403);
    expect(preview.headers['www-authenticate']).toBe(challenge('pricing:read'));
    const graphql = await h.graphql(key, '{ booking(id: "5c8e2f4a-6b1d-4a3c-9e7f-0d2b4c6e8a13") { id } }');
    expect(graphql.status).toBe(403);
    expect(graphql.headers['www-authenticate']).toBe(challenge('bookings:read'));
    // Another tenant is not a scope matter: no challenge.
    const other = await h.tenant();
    const mismatch = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${other.tenantId}/cancellation-policies`,
      apiKey: await h.key(tenantId, ['pricing:read']),
    });
    expect(mismatch.status).toBe(403);
    expect(mismatch.headers['www-authenticate']).toBeUndefined();
  });

  it('an OAuth token without the scope: insufficient_scope, and the text speaks of an access token', async () => {
    const { token, tenantId } = await accessToken('catalog:read', ['catalog:read', 'bookings:read']);
    const res = await h.request({ method: 'GET', url: bookings(tenantId), apiKey: token });
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(res.headers['www-authenticate']).toContain('scope="bookings:read"');
    expect(res.body.detail).toContain('This access token lacks the scope bookings:read');
    expect(res.text).not.toContain('API key');
  });
});
