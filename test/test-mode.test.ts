import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { harness, type Harness } from './harness.js';
import {
  WEBHOOK_SECRET,
  bookViaRest,
  buildActiveDevice,
  buildDoor,
  buildVenue,
  buildWebhook,
  slotInDays,
} from './builders.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import type { Sender } from '../src/modules/webhooks/sender.js';
import { buildUser, sessionGraphql, signIn } from './dashboard.js';

// Test mode (issue #44, docs/test-mode.md): svc_test_ keys act on the live tenant's sandbox, whose
// data is apart from the live tenant's; every object and event says which mode it is in.
let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const CREATE_KEY = `mutation($name: String!, $scopes: [String!]!, $livemode: Boolean) {
  createApiKey(name: $name, scopes: $scopes, livemode: $livemode) { apiKey apiKeyInfo { id prefix livemode kind } }
}`;

/** A live venue and a test key (admin) of its sandbox, with the sandbox's own venue. */
async function liveAndSandbox() {
  const live = await buildVenue(h);
  const made = await h.graphql(live.apiKey, CREATE_KEY, { name: 'Test admin', scopes: ['admin'], livemode: false });
  expect(made.body.errors).toBeUndefined();
  const testKey = made.body.data.createApiKey.apiKey as string;
  const viewer = await h.graphql(testKey, '{ viewer { id livemode liveTenantId sandboxTenantId } }');
  const sandboxId = viewer.body.data.viewer.id as string;
  const sandbox = await buildVenue(h, { tenant: { tenantId: sandboxId, apiKey: testKey } });
  return { live, sandbox, testKey, keyInfo: made.body.data.createApiKey.apiKeyInfo, viewer: viewer.body.data.viewer };
}

function recordingSender(into: { url: string; headers: Record<string, string>; body: string }[]): Sender {
  return (url, headers, body) => {
    into.push({ url, headers, body });
    return Promise.resolve({ statusCode: 204, durationMs: 1, error: null, retryAfter: null });
  };
}

describe('test-mode keys', () => {
  it('start with svc_test_, belong to a sandbox made on first use, and the tenants point at each other', async () => {
    const { live, testKey, keyInfo, viewer } = await liveAndSandbox();
    expect(testKey).toMatch(/^svc_test_[A-Za-z0-9_-]{20,}$/);
    expect(keyInfo).toMatchObject({ prefix: testKey.slice(0, 12), livemode: false, kind: 'SECRET' });
    expect(viewer).toEqual({
      id: expect.any(String),
      livemode: false,
      liveTenantId: live.tenantId,
      sandboxTenantId: null,
    });
    expect(viewer.id).not.toBe(live.tenantId);

    const liveViewer = await h.graphql(live.apiKey, '{ viewer { id livemode liveTenantId sandboxTenantId } }');
    expect(liveViewer.body.data.viewer).toEqual({
      id: live.tenantId,
      livemode: true,
      liveTenantId: null,
      sandboxTenantId: viewer.id,
    });

    // A second test key goes to the same sandbox; a live key stays svc_ (not svc_test_).
    const again = await h.graphql(live.apiKey, CREATE_KEY, {
      name: 'Second',
      scopes: ['bookings:read'],
      livemode: false,
    });
    const second = again.body.data.createApiKey.apiKey as string;
    expect(second.startsWith('svc_test_')).toBe(true);
    expect((await h.graphql(second, '{ viewer { id } }')).body.data.viewer.id).toBe(viewer.id);
    const liveKey = await h.graphql(live.apiKey, CREATE_KEY, { name: 'Live', scopes: ['bookings:read'] });
    expect(liveKey.body.data.createApiKey.apiKey).toMatch(/^svc_(?!test_)/);
    expect(liveKey.body.data.createApiKey.apiKeyInfo.livemode).toBe(true);

    // A test key makes test keys (livemode left out or false), never a live one.
    const fromTest = await h.graphql(testKey, CREATE_KEY, { name: 'From test', scopes: ['bookings:read'] });
    expect(fromTest.body.data.createApiKey.apiKey.startsWith('svc_test_')).toBe(true);
    const refused = await h.graphql(testKey, CREATE_KEY, { name: 'Live?', scopes: ['admin'], livemode: true });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('are refused on the live tenant’s paths and see only sandbox bookings; live keys see only live ones', async () => {
    const { live, sandbox, testKey } = await liveAndSandbox();
    const liveBooking = await bookViaRest(h, { ...live, objectId: live.object.id, ...slotInDays(3) });
    const testBooking = await bookViaRest(h, { ...sandbox, objectId: sandbox.object.id, ...slotInDays(3) });

    const list = (tenantId: string, apiKey: string) =>
      h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/bookings`, apiKey });
    const testList = await list(sandbox.tenantId, testKey);
    expect(testList.status).toBe(200);
    expect(testList.body.bookings.map((b: { id: string }) => b.id)).toEqual([testBooking]);
    expect(testList.body.bookings[0].livemode).toBe(false);
    // The listing's field order is the schema's (the hand-written JSON path keeps it).
    const keys = Object.keys(testList.body.bookings[0]);
    expect(keys.slice(keys.indexOf('guestLocale'), keys.indexOf('guestLocale') + 3)).toEqual([
      'guestLocale',
      'livemode',
      'customerId',
    ]);
    const liveList = await list(live.tenantId, live.apiKey);
    expect(liveList.body.bookings.map((b: { id: string }) => b.id)).toEqual([liveBooking]);
    expect(liveList.body.bookings[0].livemode).toBe(true);

    // Crossing modes is a tenant mismatch (403), and a booking of the other mode is not found.
    expect((await list(live.tenantId, testKey)).status).toBe(403);
    expect((await list(sandbox.tenantId, live.apiKey)).status).toBe(403);
    const cross = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${sandbox.tenantId}/bookings/${liveBooking}`,
      apiKey: testKey,
    });
    expect(cross.status).toBe(404);

    const gql = await h.graphql(testKey, '{ bookings(first: 10) { id livemode object { id livemode } } }');
    expect(gql.body.data.bookings).toEqual([
      { id: testBooking, livemode: false, object: { id: sandbox.object.id, livemode: false } },
    ]);
    const liveGql = await h.graphql(live.apiKey, '{ bookings(first: 10) { id livemode object { livemode } } }');
    expect(liveGql.body.data.bookings).toEqual([{ id: liveBooking, livemode: true, object: { livemode: true } }]);
  });

  it('keep devices apart: a device registered with a test key belongs to the sandbox', async () => {
    const { live, sandbox, testKey } = await liveAndSandbox();
    const door = await buildDoor(h, sandbox.tenantId, [sandbox.object.id]);
    const registered = await h.graphql(
      testKey,
      `mutation($doorIds: [ID!]!) { registerDevice(name: "Test gate", doorIds: $doorIds) { device { id livemode } activationCode } }`,
      { doorIds: [door.id] },
    );
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data.registerDevice.device.livemode).toBe(false);
    const testDevices = await h.graphql(testKey, '{ devices { id livemode } }');
    expect(testDevices.body.data.devices).toEqual([registered.body.data.registerDevice.device]);
    expect((await h.graphql(live.apiKey, '{ devices { id } }')).body.data.devices).toEqual([]);
    const liveDoor = await buildDoor(h, live.tenantId, [live.object.id]);
    const { deviceId } = await buildActiveDevice(h, live.tenantId, [liveDoor.id]);
    expect((await h.graphql(testKey, '{ devices { id } }')).body.data.devices).not.toContainEqual({ id: deviceId });
  });

  it('can be revoked, and a revoked test key stops working at once', async () => {
    const { live, testKey } = await liveAndSandbox();
    const made = await h.graphql(live.apiKey, CREATE_KEY, {
      name: 'Short-lived',
      scopes: ['bookings:read'],
      livemode: false,
    });
    const { apiKey, apiKeyInfo } = made.body.data.createApiKey;
    expect((await h.graphql(apiKey, '{ viewer { livemode } }')).body.data.viewer.livemode).toBe(false);
    // The live key cannot reach the sandbox's keys; the sandbox's admin key can.
    const fromLive = await h.graphql(live.apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', {
      id: apiKeyInfo.id,
    });
    expect(fromLive.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const revoked = await h.graphql(testKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt livemode } }', {
      id: apiKeyInfo.id,
    });
    expect(revoked.body.data.revokeApiKey).toMatchObject({
      id: apiKeyInfo.id,
      revokedAt: expect.any(String),
      livemode: false,
    });
    const after = await h.graphql(apiKey, '{ viewer { id } }');
    expect(after.status).toBe(401);
    const keys = await h.graphql(testKey, '{ apiKeys { id livemode } }');
    expect(keys.body.data.apiKeys.every((k: { livemode: boolean }) => !k.livemode)).toBe(true);
  });

  it('refuse a live Stripe key in the sandbox, naming the field; a test key is stored', async () => {
    const { testKey } = await liveAndSandbox();
    const SET = `mutation($input: StripeCredentialsInput!) { setStripeCredentials(input: $input) { stripe { set source } } }`;
    const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    for (const secretKey of ['sk_live_51ABCDEFGHijklmnop', 'rk_live_51ABCDEFGHijklmnop']) {
      const refused = await h.graphql(testKey, SET, { input: { secretKey, webhookSecret } });
      expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(refused.body.errors[0].extensions.fields).toEqual([
        { field: 'secretKey', message: expect.stringContaining('sk_test_') },
      ]);
    }
    const stored = await h.graphql(testKey, SET, { input: { secretKey: 'sk_test_51ABCDEFGHijklmnop', webhookSecret } });
    expect(stored.body.errors).toBeUndefined();
    expect(stored.body.data.setStripeCredentials.stripe).toEqual({ set: true, source: 'DASHBOARD' });
  });
});

describe('test-mode events', () => {
  it('reach only the sandbox’s webhooks, with livemode false; live events say livemode true', async () => {
    const { live, sandbox, testKey } = await liveAndSandbox();
    const liveUrl = `https://receiver.test/live/${live.tenantId}`;
    const testUrl = `https://receiver.test/test/${sandbox.tenantId}`;
    await buildWebhook(h, live.tenantId, { url: liveUrl, events: ['booking.created'] });
    await buildWebhook(h, sandbox.tenantId, { url: testUrl, events: ['booking.created'] });
    const webhooks = await h.graphql(testKey, '{ webhooks { url livemode } }');
    expect(webhooks.body.data.webhooks).toEqual([{ url: testUrl, livemode: false }]);

    const testBooking = await bookViaRest(h, { ...sandbox, objectId: sandbox.object.id, ...slotInDays(4) });
    const liveBooking = await bookViaRest(h, { ...live, objectId: live.object.id, ...slotInDays(4) });

    const received: { url: string; headers: Record<string, string>; body: string }[] = [];
    const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: recordingSender(received) }));
    const deadline = Date.now() + 60_000;
    const at = (url: string) => received.filter((r) => r.url === url);
    while (at(liveUrl).length < 1 || at(testUrl).length < 1) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the deliveries');
      await dispatcher.runOnce();
    }
    const wh = new Webhook(WEBHOOK_SECRET);
    const open = (r: { headers: Record<string, string>; body: string }) =>
      wh.verify(r.body, r.headers) as { tenantId: string; livemode: boolean; data: { booking: { id: string } } };
    expect(at(testUrl).map(open)).toEqual([
      expect.objectContaining({
        tenantId: sandbox.tenantId,
        livemode: false,
        data: expect.objectContaining({ booking: expect.objectContaining({ id: testBooking }) }),
      }),
    ]);
    expect(at(liveUrl).map(open)).toEqual([
      expect.objectContaining({
        tenantId: live.tenantId,
        livemode: true,
        data: expect.objectContaining({ booking: expect.objectContaining({ id: liveBooking }) }),
      }),
    ]);
    // The body's keys: the ones it always had, then livemode.
    expect(Object.keys(JSON.parse(at(testUrl)[0].body))).toEqual([
      'id',
      'type',
      'timestamp',
      'tenantId',
      'apiVersion',
      'data',
      'livemode',
    ]);

    // The events feed carries livemode too, per mode. It serves an event once every earlier
    // transaction has ended (docs/events.md): other files' open transactions may hold it back a moment.
    const readFeed = () =>
      h.request({ method: 'GET', url: `/api/v1/tenants/${sandbox.tenantId}/events`, apiKey: testKey });
    let feed = await readFeed();
    while (feed.status === 200 && feed.body.events.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      feed = await readFeed();
    }
    expect(feed.status).toBe(200);
    expect(feed.body.events.length).toBeGreaterThan(0);
    expect(
      feed.body.events.every(
        (e: { livemode: boolean; tenantId: string }) => !e.livemode && e.tenantId === sandbox.tenantId,
      ),
    ).toBe(true);
    const liveFeed = await h.graphql(live.apiKey, '{ events(first: 5) { nodes { livemode tenantId } } }');
    expect(liveFeed.body.data.events.nodes.every((e: { livemode: boolean }) => e.livemode)).toBe(true);
  });
});

describe('the dashboard in test mode', () => {
  it('acts on the sandbox of the user’s tenant with X-Portier-Mode: test, made on the first such request', async () => {
    const live = await buildVenue(h);
    const user = await buildUser(h, live.tenantId);
    const session = await signIn(h.request, user.email);
    const VIEWER = '{ viewer { id livemode liveTenantId } bookableObjects { id livemode } }';
    const asLive = await sessionGraphql(h.request, session, VIEWER);
    expect(asLive.body.data.viewer).toEqual({ id: live.tenantId, livemode: true, liveTenantId: null });
    expect(asLive.body.data.bookableObjects).toEqual([{ id: live.object.id, livemode: true }]);

    const asTest = await sessionGraphql(h.request, session, VIEWER, {}, { 'x-portier-mode': 'test' });
    expect(asTest.body.errors).toBeUndefined();
    const sandbox = asTest.body.data.viewer;
    expect(sandbox).toMatchObject({ livemode: false, liveTenantId: live.tenantId });
    expect(asTest.body.data.bookableObjects).toEqual([]);
    // The same sandbox every time, and the one a test key of the tenant acts on.
    const again = await sessionGraphql(h.request, session, VIEWER, {}, { 'x-portier-mode': 'test' });
    expect(again.body.data.viewer.id).toBe(sandbox.id);
    const made = await h.graphql(live.apiKey, CREATE_KEY, { name: 'Test', scopes: ['admin'], livemode: false });
    expect((await h.graphql(made.body.data.createApiKey.apiKey, '{ viewer { id } }')).body.data.viewer.id).toBe(
      sandbox.id,
    );
  });
});
