import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { harness, type Harness } from '../harness.js';
import { ownApp, type OwnApp } from '../own-app.js';
import { freePort } from '../processes.js';
import { buildUser } from '../dashboard.js';
import { createApp } from '../../src/modules/oauth/apps.service.js';

// The whole OAuth flow as an app developer meets it: a standard client library Portier does not
// contain (oauth4webapi) against a listening Portier, and a real Chromium clicking "Sign in" and
// "Allow" on Portier's pages.

const SCREENSHOTS = 'test-results/screenshots';
// The app's redirect URI: a small server of the test's, standing in for the app.
let REDIRECT = '';
let callbackServer: Server;
// The test's authorization server is plain http on 127.0.0.1: what this (deprecated on purpose) switch is for.
// eslint-disable-next-line @typescript-eslint/no-deprecated
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let h: Harness;
let o: OwnApp;
let base: string;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  h = await harness();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  o = await ownApp(h, { env: { publicUrl: base }, options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  await o.app.fastify.listen({ port, host: '127.0.0.1' });
  callbackServer = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><p>Back in the app</p>');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  const address = callbackServer.address();
  REDIRECT = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await o?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

/** Opens the authorization URL in a fresh browser, signs in, clicks the decision; returns the callback URL. */
async function clickThrough(
  authorizationUrl: URL,
  user: { email: string; password: string },
  decision: 'Allow' | 'Deny',
  screenshot?: string,
): Promise<URL> {
  // One context for the file: the packaged Chromium runs single-process, where closing a context
  // ends the browser. Each visit starts without cookies, as a fresh browser would.
  context ??= await browser.newContext();
  await context.clearCookies();
  {
    const page = await context.newPage();
    await page.goto(authorizationUrl.href);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor({ timeout: 60_000 });
    if (screenshot) await page.screenshot({ path: `${SCREENSHOTS}/${screenshot}`, fullPage: true });
    await page.getByRole('button', { name: decision }).click();
    await page.waitForURL(`${REDIRECT}**`, { timeout: 60_000 });
    return new URL(page.url());
  }
}

async function api(path: string, accessToken: string, init: RequestInit = {}) {
  return fetch(`${base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      ...Object.fromEntries(new Headers(init.headers)),
    },
  });
}

describe('OAuth end to end (oauth4webapi + Chromium)', () => {
  it('discovery → authorize → sign in → Allow → code → token → REST and GraphQL → refresh (rotated) → old refresh token refused, grant revoked → revocation of a fresh grant', async () => {
    const owner = await h.tenant('Calendar Co');
    const registered = await createApp(h.deps.database.db, {
      tenantId: owner.tenantId,
      name: 'Calendar Sync',
      redirectUris: [REDIRECT],
      scopes: ['bookings:read', 'catalog:read'],
    });
    const customer = await h.tenant('Harbour Hotel');
    const user = await buildUser(h, customer.tenantId, 'admin');

    // Discovery (RFC 8414).
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as.issuer).toBe(base);
    const client: oauth.Client = { client_id: registered.app.client_id };
    const clientAuth = oauth.ClientSecretBasic(registered.clientSecret ?? '');

    async function authorize(screenshot?: string) {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint ?? '');
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'bookings:read catalog:read',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const callback = await clickThrough(url, user, 'Allow', screenshot);
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        params,
        REDIRECT,
        verifier,
        insecure,
      );
      return oauth.processAuthorizationCodeResponse(as, client, response);
    }

    const tokens = await authorize('oauth-consent.png');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('bookings:read catalog:read');
    const accessToken = tokens.access_token;
    const refreshToken = tokens.refresh_token ?? '';
    expect(refreshToken).not.toBe('');

    // The token works where an API key works: REST and GraphQL, for the tenant that allowed it.
    const listed = await api(`/api/v1/tenants/${customer.tenantId}/bookings`, accessToken);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-ratelimit-limit')).not.toBeNull();
    const viewer = await api('/api/v1/graphql', accessToken, {
      method: 'POST',
      body: JSON.stringify({ query: '{ viewer { id name } accommodations { id } }' }),
    });
    expect(((await viewer.json()) as { data: unknown }).data).toEqual({
      viewer: { id: customer.tenantId, name: 'Harbour Hotel' },
      accommodations: [],
    });
    expect((await api(`/api/v1/tenants/${owner.tenantId}/bookings`, accessToken)).status).toBe(403);

    // Refresh: a new refresh token each time.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(refreshToken);
    expect((await api(`/api/v1/tenants/${customer.tenantId}/bookings`, refreshed.access_token)).status).toBe(200);

    // The old refresh token again: refused, and the whole grant ends.
    const reuse = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure),
    );
    await expect(reuse).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await api(`/api/v1/tenants/${customer.tenantId}/bookings`, refreshed.access_token)).status).toBe(401);
    const afterReuse = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token ?? '', insecure),
    );
    await expect(afterReuse).rejects.toMatchObject({ error: 'invalid_grant' });

    // A fresh grant, then RFC 7009 revocation of its refresh token: its access token stops too.
    const fresh = await authorize();
    expect((await api(`/api/v1/tenants/${customer.tenantId}/bookings`, fresh.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, fresh.refresh_token ?? '', insecure),
    );
    expect((await api(`/api/v1/tenants/${customer.tenantId}/bookings`, fresh.access_token)).status).toBe(401);
    const afterRevocation = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, fresh.refresh_token ?? '', insecure),
    );
    await expect(afterRevocation).rejects.toMatchObject({ error: 'invalid_grant' });
  }, 240_000);

  it('"Deny" comes back to the app as access_denied with its state', async () => {
    const owner = await h.tenant('Maker');
    const registered = await createApp(h.deps.database.db, {
      tenantId: owner.tenantId,
      name: 'Denied App',
      redirectUris: [REDIRECT],
      scopes: ['bookings:read'],
      public: true,
    });
    const customer = await h.tenant('Guesthouse');
    const user = await buildUser(h, customer.tenantId, 'admin');
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const client: oauth.Client = { client_id: registered.app.client_id };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint ?? '');
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'bookings:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    const callback = await clickThrough(url, user, 'Deny');
    expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(
      expect.objectContaining({ error: 'access_denied' }) as Error,
    );
    expect(callback.searchParams.get('state')).toBe(state);
  }, 240_000);
});
