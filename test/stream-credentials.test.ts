import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { bookViaRest, buildActiveDevice, buildDoor, buildVenue, slotInDays } from './builders.js';
import { buildUser, OWN_ORIGIN, signIn } from './dashboard.js';
import { closeAll, eventually, SseSubscription, WsSubscription } from './subscription-clients.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { parseCreateApp } from '../src/modules/oauth/apps.commands.js';
import { authorizeUrl, basic, formPost, injectHttp, pkce, runAuthorization, type Http } from './oauth-flow.js';

// Open subscriptions end with their credential (docs/subscriptions.md, "When the credential ends"):
// the credential ends on one process (the harness's app, "A"), the streams are open on another
// ("B", an app of its own on the same database, with its own API-key cache and hub); B ignores the
// credential notices A publishes (as when one is lost), so nothing but B's periodic re-check of the
// database carries the change from A to B. C, below, hears them and re-checks only once a minute.
// Both databases; test/e2e/stream-credentials.processes.test.ts runs two real processes.

const CHANGED = 'subscription { bookingChanged { type booking { id guestName } } }';
const DECIDED = 'subscription($doorId: ID) { accessDecided(doorId: $doorId) { allowed doorId entry { reason } } }';
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
  // A lost notice: B's streams end by its periodic re-check alone.
  vi.spyOn(b.deps.live.guard, 'nudge').mockResolvedValue(undefined);
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

/** A socket of our own that stays open between operations (not lazy), with what each operation got. */
function socketOn(baseUrl: string, connectionParams: Record<string, unknown> | undefined, headers = {}) {
  const state: { closed?: { code: number; reason: string } } = {};
  const client: Client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/api/v1/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    },
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        state.closed = { code, reason };
      },
    },
    onNonLazyError: () => undefined,
  });
  /** Runs one query or mutation over the socket: its result, or the error the server sent. */
  const run = (query: string) =>
    new Promise<{ data?: unknown; errors?: unknown }>((resolve) => {
      let result: { data?: unknown; errors?: unknown } = {};
      client.subscribe(
        { query },
        {
          next: (value) => (result = value as typeof result),
          error: (error) => resolve({ errors: error }),
          complete: () => resolve(result),
        },
      );
    });
  return { client, state, run, close: () => client.dispose() };
}

describe('a changed scope (updateApiKey)', () => {
  it(
    'narrowing a key on A ends its streams on B that need the lost scope (missing_scope); those that keep theirs go on',
    { timeout: 120_000 },
    async () => {
      const venue = await buildVenue(h);
      const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
      const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
      const created = await h.graphql(
        venue.apiKey,
        'mutation { createApiKey(name: "front desk", scopes: ["bookings:read", "devices:read"]) { apiKeyInfo { id } apiKey } }',
      );
      const { id } = created.body.data.createApiKey.apiKeyInfo;
      const key: string = created.body.data.createApiKey.apiKey;

      const bookingsSse = await SseSubscription.open(bUrl, key, CHANGED);
      const doorSse = await SseSubscription.open(bUrl, key, DECIDED, { doorId: door.id });
      expect([bookingsSse.status, doorSse.status]).toEqual([200, 200]);
      // Both kinds on one socket: the lost scope ends one subscription, not the socket.
      const bookingsWs = WsSubscription.open(bUrl, { authorization: `Bearer ${key}` }, CHANGED);
      const doorOnWs: unknown[] = [];
      let doorWsEnded: unknown;
      bookingsWs.client.subscribe(
        { query: DECIDED, variables: { doorId: door.id } },
        {
          next: (v) => void doorOnWs.push(v),
          error: (e) => (doorWsEnded = e),
          complete: () => (doorWsEnded = 'complete'),
        },
      );
      await open(4);

      const narrowed = await h.graphql(
        venue.apiKey,
        'mutation($id: ID!) { updateApiKey(id: $id, scopes: ["devices:read"]) { id name scopes revokedAt } }',
        { id },
      );
      expect(narrowed.body.errors).toBeUndefined();
      expect(narrowed.body.data.updateApiKey).toEqual({
        id,
        name: 'front desk',
        scopes: ['devices:read'],
        revokedAt: null,
      });

      const lost = {
        message: 'credential no longer holds the scope bookings:read this subscription needs',
        extensions: { code: 'FORBIDDEN', reason: 'missing_scope' },
      };
      await eventually(() => (bookingsSse.completed ? true : undefined), 30_000, 'the bookings SSE stream to end');
      expect(bookingsSse.received.at(-1)?.payload.errors).toEqual([lost]);
      expect(await eventually(() => bookingsWs.error, 30_000, 'the bookings subscription’s error')).toEqual([lost]);

      // The key still holds devices:read: its accessDecided streams, SSE and on the same socket, go on.
      const checked = await h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/access-check`,
        headers: { authorization: `Bearer ${device.deviceKey}` },
        body: { doorId: door.id, token: 'not-a-token' },
      });
      expect(checked.status).toBe(200);
      const decision = { accessDecided: { allowed: false, doorId: door.id, entry: { reason: 'invalid_token' } } };
      expect((await doorSse.next()).payload.data).toEqual(decision);
      await eventually(() => (doorOnWs.length ? true : undefined), 30_000, 'the decision on the socket');
      expect(doorOnWs[0]).toEqual({ data: decision });
      expect(doorSse.completed).toBe(false);
      expect(doorWsEnded).toBeUndefined();
      expect(bookingsWs.closed).toBeUndefined();

      // A new stream that needs the lost scope is refused, on both transports.
      const again = await SseSubscription.open(bUrl, key, CHANGED);
      // (SSE: a 200 stream carrying the error, so an SSE client sees the reason; docs/subscriptions.md)
      expect(again.status).toBe(200);
      await eventually(() => (again.completed ? true : undefined), 30_000, 'the refusal on SSE');
      expect(again.received[0]?.payload.errors[0].extensions).toEqual({ code: 'FORBIDDEN', reason: 'missing_scope' });
      const againWs = WsSubscription.open(bUrl, { authorization: `Bearer ${key}` }, CHANGED);
      // (as any refused subscription on the socket: the operation's `error` message, no `next`)
      await eventually(() => (againWs.completed ? true : undefined), 30_000, 'the refusal');
      expect(againWs.received).toEqual([]);
      const refused = againWs.error as { extensions?: unknown }[];
      expect(refused[0]?.extensions).toEqual({ code: 'FORBIDDEN', reason: 'missing_scope' });

      const audit = await h.graphql(
        venue.apiKey,
        '{ auditLog(first: 5) { edges { node { action targetId details } } } }',
      );
      const entry = audit.body.data.auditLog.edges.find(
        (e: { node: { action: string } }) => e.node.action === 'api_key.updated',
      )?.node;
      expect(entry).toMatchObject({
        targetId: id,
        details: {
          name: 'front desk',
          from: { scopes: ['bookings:read', 'devices:read'] },
          to: { scopes: ['devices:read'] },
        },
      });
    },
  );
});

describe('dashboard sessions and WebSockets', () => {
  it(
    'a session cannot open a WebSocket stream (only SSE): its cookie on the upgrade, or as a bearer, is closed 4401',
    {
      timeout: 60_000,
    },
    async () => {
      const venue = await buildVenue(h);
      const user = await buildUser(h, venue.tenantId, 'staff');
      const session = await signIn(h.request, user.email, user.password);
      const headers = { cookie: session.cookie, origin: OWN_ORIGIN };
      const cookieOnly = socketOn(bUrl, undefined, headers);
      const closed = await eventually(() => cookieOnly.state.closed, 30_000, 'the socket to close');
      expect(closed.code).toBe(4401);
      const value = session.cookie.split(';')[0]?.split('=').slice(1).join('=') ?? '';
      const asBearer = socketOn(bUrl, { authorization: `Bearer ${value}` }, headers);
      expect((await eventually(() => asBearer.state.closed, 30_000, 'the socket to close')).code).toBe(4401);
      await Promise.all([cookieOnly.close(), asBearer.close()]);
    },
  );
});

describe('a socket outlives no credential', () => {
  it(
    'after revokeApiKey on A, an open socket on B runs no more queries and closes 4401',
    { timeout: 60_000 },
    async () => {
      const venue = await buildVenue(h);
      const created = await h.graphql(
        venue.apiKey,
        'mutation { createApiKey(name: "socket", scopes: ["bookings:read"]) { apiKeyInfo { id } apiKey } }',
      );
      const { id } = created.body.data.createApiKey.apiKeyInfo;
      const socket = socketOn(bUrl, { authorization: `Bearer ${created.body.data.createApiKey.apiKey}` });
      const before = await socket.run('{ viewer { id } }');
      expect(before.data).toEqual({ viewer: { id: venue.tenantId } });

      await h.graphql(venue.apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id });

      // B's lookup of the key expires within API_KEY_CACHE_MS; from then on the socket is refused.
      const deadline = Date.now() + 30_000;
      let last: { data?: unknown; errors?: unknown } = {};
      while (Date.now() < deadline) {
        last = await socket.run('{ viewer { id } }');
        if (last.errors) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(last.errors).toEqual([
        { message: 'credential revoked', extensions: { code: 'UNAUTHENTICATED', reason: 'credential_revoked' } },
      ]);
      expect(await eventually(() => socket.state.closed, 30_000, 'the socket to close')).toEqual({
        code: 4401,
        reason: 'credential revoked',
      });
      await socket.close();
    },
  );
});

describe('a pushed notice ends streams before the periodic re-check', () => {
  // C re-checks its streams' credentials once a minute: a stream that ends within seconds was ended
  // by the notice the changing process published on the live transport (announceCredentialChange).
  let c: OwnApp;
  let cUrl: string;
  beforeAll(async () => {
    c = await ownApp(h, {
      env: { liveRevalidateMs: 60_000 },
      options: { loadShedding: { maxEventLoopDelay: 600_000 } },
    });
    cUrl = await c.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await closeAll();
    await c?.close();
  });
  const SOON_MS = 20_000;

  it(
    'revokeApiKey, updateApiKey, a sign-out and RFC 7009 revocation on A end C’s streams at once',
    { timeout: 120_000 },
    async () => {
      const s = await oauthSetup('staff');
      const key = async (name: string) => {
        const created = await h.graphql(
          s.venue.apiKey,
          `mutation { createApiKey(name: "${name}", scopes: ["bookings:read", "devices:read"]) { apiKeyInfo { id } apiKey } }`,
        );
        return {
          id: created.body.data.createApiKey.apiKeyInfo.id as string,
          plain: created.body.data.createApiKey.apiKey as string,
        };
      };
      const revoked = await key('to revoke');
      const narrowed = await key('to narrow');
      const token = await accessToken(s);
      const session = await signIn(h.request, s.user.email, s.user.password);
      const onC = async (bearer: string) => {
        const sse = await SseSubscription.open(cUrl, bearer, CHANGED);
        expect(sse.status).toBe(200);
        return { sse, ws: WsSubscription.open(cUrl, { authorization: `Bearer ${bearer}` }, CHANGED) };
      };
      const byKey = await onC(revoked.plain);
      const byNarrowed = await onC(narrowed.plain);
      const byToken = await onC(token);
      const bySession = await SseSubscription.open(
        cUrl,
        null,
        CHANGED,
        {},
        {
          cookie: session.cookie,
          origin: OWN_ORIGIN,
          'x-csrf-token': session.csrfToken,
        },
      );
      await eventually(() => (c.deps.live.hub.size >= 7 ? true : undefined), 60_000, '7 open subscriptions on C');

      const ended = (sse: SseSubscription) =>
        eventually(() => (sse.completed ? true : undefined), SOON_MS, 'the SSE stream to end');
      const errored = (ws: WsSubscription) => eventually(() => ws.error, SOON_MS, 'the subscription’s error');

      await h.graphql(s.venue.apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: revoked.id });
      await ended(byKey.sse);
      await errored(byKey.ws);

      await h.graphql(s.venue.apiKey, 'mutation($id: ID!) { updateApiKey(id: $id, scopes: ["devices:read"]) { id } }', {
        id: narrowed.id,
      });
      await ended(byNarrowed.sse);
      expect(byNarrowed.sse.received.at(-1)?.payload.errors[0].extensions.reason).toBe('missing_scope');
      await errored(byNarrowed.ws);

      expect((await formPost(http, '/oauth/revoke', { token, token_type_hint: 'access_token' }, s.auth)).status).toBe(
        200,
      );
      await ended(byToken.sse);
      await errored(byToken.ws);

      const out = await h.request({
        method: 'DELETE',
        url: '/dashboard/api/session',
        headers: { cookie: session.cookie, origin: OWN_ORIGIN, 'x-csrf-token': session.csrfToken },
      });
      expect(out.status).toBe(204);
      await ended(bySession);
      expect(bySession.received.at(-1)?.payload.errors[0].extensions.reason).toBe('credential_revoked');
    },
  );
});
