import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { bookViaRest, buildVenue, slotInDays } from './builders.js';
import { buildUser, OWN_ORIGIN, signIn } from './dashboard.js';
import { closeAll, eventually, SseSubscription, WsSubscription } from './subscription-clients.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { parseCreateApp } from '../src/modules/oauth/apps.commands.js';
import { authorizeUrl, basic, formPost, injectHttp, pkce, runAuthorization, type Http } from './oauth-flow.js';

// Open subscriptions end with their credential (docs/subscriptions.md, "When the credential ends"):
// the credential ends on one process (the harness's app, "A"), the streams are open on another
// ("B", an app of its own on the same database, with its own API-key cache and hub); nothing but
// the database carries the change from A to B. Both databases.

const CHANGED = 'subscription { bookingChanged { type booking { id guestName } } }';
const REDIRECT = 'https://app.example.test/callback';

let h: Harness;
let b: OwnApp;
let bUrl: string;
let http: Http;

beforeAll(async () => {
  h = await harness();
  b = await ownApp(h, {
    env: { liveRevalidateMs: 300 },
    options: { loadShedding: { maxEventLoopDelay: 600_000 } },
  });
  bUrl = await b.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  http = injectHttp(h.app.fastify);
});

afterAll(async () => {
  await b?.close();
});

afterEach(async () => {
  await closeAll();
  await eventually(() => (b.deps.live.hub.size === 0 ? true : undefined), 60_000, 'no open subscriptions');
});

const open = (n: number) =>
  eventually(() => (b.deps.live.hub.size >= n ? true : undefined), 60_000, `${n} open subscriptions on B`);

let day = 1;

/** Both kinds of stream of one bearer credential on B. */
async function streams(token: string) {
  const sse = await SseSubscription.open(bUrl, token, CHANGED);
  expect(sse.status).toBe(200);
  const ws = WsSubscription.open(bUrl, { authorization: `Bearer ${token}` }, CHANGED);
  return { sse, ws };
}

/** The SSE stream's last word: one result with the error, then `complete`. */
async function sseEnded(sse: SseSubscription, code: string) {
  await eventually(() => (sse.completed ? true : undefined), 30_000, 'the SSE stream to end');
  const last = sse.received.at(-1)?.payload;
  expect(last?.errors?.[0]).toMatchObject({
    message: 'credential revoked',
    extensions: { code, reason: 'credential_revoked' },
  });
  expect(JSON.stringify(last)).not.toMatch(/http|stack|postgres/i);
}

/** The WebSocket's: an `error` message for the subscription, then the socket closes. */
async function wsEnded(ws: WsSubscription) {
  const error = await eventually(() => ws.error, 30_000, 'the subscription’s error message');
  expect(error).toEqual([
    { message: 'credential revoked', extensions: { code: 'UNAUTHENTICATED', reason: 'credential_revoked' } },
  ]);
  // The lazy client closes its idle socket itself (1000) as soon as its one subscription ended;
  // otherwise the server's 4401 does.
  const closed = await eventually(() => ws.closed, 30_000, 'the socket to close');
  expect([1000, 4401]).toContain(closed.code);
}

/** A stream of a credential that still works keeps being told of changes. */
async function stillWorking(
  venue: Awaited<ReturnType<typeof buildVenue>>,
  s: { sse: SseSubscription; ws: WsSubscription },
) {
  const id = await bookViaRest(h, { ...venue, objectId: venue.object.id, ...slotInDays(day++) });
  const isIt = (p: { data?: { bookingChanged?: { booking?: { id?: string } } } }) =>
    p.data?.bookingChanged?.booking?.id === id;
  await s.sse.next(isIt);
  await s.ws.next(isIt);
  expect(s.sse.completed).toBe(false);
  expect(s.ws.completed).toBe(false);
}

async function oauthSetup(role: 'admin' | 'staff' = 'admin') {
  const owner = await h.tenant('App maker');
  const { app, clientSecret } = await createApp(h.deps.database.db, {
    tenantId: owner.tenantId,
    ...parseCreateApp({ name: 'Calendar Sync', redirectUris: [REDIRECT], scopes: ['bookings:read'] }),
  });
  const venue = await buildVenue(h);
  const user = await buildUser(h, venue.tenantId, role);
  return { venue, user, clientId: app.client_id, auth: basic(app.client_id, clientSecret ?? '') };
}

async function accessToken(s: Awaited<ReturnType<typeof oauthSetup>>): Promise<string> {
  const { verifier, challenge } = pkce();
  const flow = await runAuthorization(http, {
    url: authorizeUrl({ clientId: s.clientId, redirectUri: REDIRECT, scope: 'bookings:read', state: 'st', challenge }),
    origin: OWN_ORIGIN,
    email: s.user.email,
    password: s.user.password,
  });
  const code = flow.redirect?.searchParams.get('code');
  if (!code) throw new Error('no code');
  const res = await formPost(
    http,
    '/oauth/token',
    { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
    s.auth,
  );
  expect(res.status).toBe(200);
  return (res.body as { access_token: string }).access_token;
}

/** A dashboard session's SSE stream on B (cookie, CSRF token, own Origin). */
async function sessionStream(email: string, password: string) {
  const session = await signIn(h.request, email, password);
  const sse = await SseSubscription.open(
    bUrl,
    null,
    CHANGED,
    {},
    {
      cookie: session.cookie,
      origin: OWN_ORIGIN,
      'x-csrf-token': session.csrfToken,
    },
  );
  expect(sse.status).toBe(200);
  return { session, sse };
}

describe('streams end with their credential, across processes', () => {
  it('a revoked API key: SSE and WebSocket end; another key’s streams go on', { timeout: 120_000 }, async () => {
    const venue = await buildVenue(h);
    const created = await h.graphql(
      venue.apiKey,
      'mutation { createApiKey(name: "front desk", scopes: ["bookings:read"]) { apiKeyInfo { id } apiKey } }',
    );
    const { id } = created.body.data.createApiKey.apiKeyInfo;
    const doomed = await streams(created.body.data.createApiKey.apiKey);
    const kept = await streams(venue.apiKey);
    await open(4);

    const revoked = await h.graphql(venue.apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id });
    expect(revoked.body.errors).toBeUndefined();

    await sseEnded(doomed.sse, 'UNAUTHENTICATED');
    await wsEnded(doomed.ws);
    await stillWorking(venue, kept);
  });

  it('a revoked OAuth access token (RFC 7009 on A): its streams on B end', { timeout: 120_000 }, async () => {
    const s = await oauthSetup();
    const token = await accessToken(s);
    const doomed = await streams(token);
    const kept = await streams(s.venue.apiKey);
    await open(4);

    expect((await formPost(http, '/oauth/revoke', { token, token_type_hint: 'access_token' }, s.auth)).status).toBe(
      200,
    );

    await sseEnded(doomed.sse, 'UNAUTHENTICATED');
    await wsEnded(doomed.ws);
    await stillWorking(s.venue, kept);
  });

  it('a revoked OAuth grant (revokeConnectedApp on A): its streams on B end', { timeout: 120_000 }, async () => {
    const s = await oauthSetup();
    const doomed = await streams(await accessToken(s));
    await open(2);

    const revoked = await h.graphql(s.venue.apiKey, 'mutation($id: ID!) { revokeConnectedApp(clientId: $id) }', {
      id: s.clientId,
    });
    expect(revoked.body.data?.revokeConnectedApp).toBe(true);

    await sseEnded(doomed.sse, 'UNAUTHENTICATED');
    await wsEnded(doomed.ws);
  });

  it(
    'a signed-out dashboard session: its SSE stream on B ends; another session’s goes on',
    { timeout: 120_000 },
    async () => {
      const venue = await buildVenue(h);
      const user = await buildUser(h, venue.tenantId, 'staff');
      const doomed = await sessionStream(user.email, user.password);
      const kept = await sessionStream(user.email, user.password);
      await open(2);

      const out = await h.request({
        method: 'DELETE',
        url: '/dashboard/api/session',
        headers: { cookie: doomed.session.cookie, origin: OWN_ORIGIN, 'x-csrf-token': doomed.session.csrfToken },
      });
      expect(out.status).toBeLessThan(300);

      await sseEnded(doomed.sse, 'UNAUTHENTICATED');
      const id = await bookViaRest(h, { ...venue, objectId: venue.object.id, ...slotInDays(day++) });
      await kept.sse.next((p) => p.data?.bookingChanged?.booking?.id === id);
      expect(kept.sse.completed).toBe(false);
    },
  );

  it('a removed user: the session’s and the OAuth token’s streams on B end', { timeout: 120_000 }, async () => {
    const s = await oauthSetup('staff');
    const token = await accessToken(s);
    const viaToken = await streams(token);
    const viaSession = await sessionStream(s.user.email, s.user.password);
    const kept = await streams(s.venue.apiKey);
    await open(5);

    const removed = await h.graphql(s.venue.apiKey, 'mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', {
      id: s.user.userId,
    });
    expect(removed.body.errors).toBeUndefined();

    await sseEnded(viaSession.sse, 'UNAUTHENTICATED');
    await sseEnded(viaToken.sse, 'UNAUTHENTICATED');
    await wsEnded(viaToken.ws);
    await stillWorking(s.venue, kept);
  });
});
