import { API_VERSION } from '../src/modules/webhooks/signing.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { harness, TestClock, type Harness } from './harness.js';
import { buildVenue, buildWebhook, slotInDays, WEBHOOK_SECRET } from './builders.js';
import { Receiver, type Reply } from './receiver.js';
import { WebhookDispatcher, dispatcherOptionsOf, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.js';
import { RETRY_DELAYS_MS } from '../src/modules/webhooks/retry.js';

// Real deliveries to a local receiver, driven by dispatcher.runOnce() on an injected clock.

let h: Harness;
const receiver = new Receiver();
const tenants: string[] = [];

beforeAll(async () => {
  h = await harness();
  await receiver.start();
});
// A pass takes every due delivery of this worker's database, and these tests count a pass's work
// and move the clock hours ahead: deliveries other test files left pending go first (those files
// have finished; a worker runs one file at a time).
beforeEach(async () => {
  await h.deps.database.db.deleteFrom('webhook_deliveries').where('status', '=', 'pending').execute();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  receiver.reply = () => ({ status: 204 });
  // Subscriptions go with their deliveries, so no later test's dispatcher sees them.
  if (tenants.length)
    await h.deps.database.db.deleteFrom('webhooks').where('tenant_id', 'in', tenants.splice(0)).execute();
});

async function venue() {
  const v = await buildVenue(h);
  tenants.push(v.tenantId);
  return v;
}

// No sweeps: these tests count every delivery a pass makes, and the device-presence sweep would
// add events of other test files' devices (on this worker's database) once the clock jumps ahead.
const dispatcher = (clock: TestClock = new TestClock(), overrides: Partial<DispatcherOptions> = {}) =>
  new WebhookDispatcher(dispatcherOptionsOf(h.deps, { now: clock.now, sweeps: [], ...overrides }));

/** Passes until nothing is due (one pass sends at most `perWebhook` deliveries per subscription). */
async function drain(d: WebhookDispatcher) {
  const total = { attempted: 0, succeeded: 0 };
  for (;;) {
    const pass = await d.runOnce();
    if (pass.attempted === 0) return total;
    total.attempted += pass.attempted;
    total.succeeded += pass.succeeded;
  }
}

type Venue = Awaited<ReturnType<typeof venue>>;

async function createBooking(v: Venue, days: number): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: { objectId: v.object.id, guestName: 'Ada Lovelace', guestEmail: 'ada@example.com', ...slotInDays(days) },
  });
  expect(res.status).toBe(201);
  return res.body.booking.id;
}

async function setStatus(v: Venue, bookingId: string, status: string) {
  const res = await h.request({
    method: 'PATCH',
    url: `/api/v1/tenants/${v.tenantId}/bookings/${bookingId}`,
    apiKey: v.apiKey,
    body: { status },
  });
  expect(res.status).toBe(200);
}

const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

async function deliveriesOf(v: Venue, webhookId: string) {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhookId}/deliveries?first=100`,
    apiKey: v.apiKey,
  });
  expect(res.status).toBe(200);
  return res.body.deliveries as {
    eventId: string;
    status: string;
    attemptCount: number;
    nextAttemptAt: string | null;
    lastStatusCode: number | null;
    lastError: string | null;
    attempts: unknown[];
  }[];
}

describe('signed deliveries', () => {
  it('verify with standardwebhooks for a whsec_ secret and a plain-string secret; a tampered body does not', async () => {
    const v = await venue();
    const plain = 'plain secret — with UTF-8 ✓';
    await buildWebhook(h, v.tenantId, {
      url: receiver.url('/whsec'),
      events: ['booking.created'],
      secret: WEBHOOK_SECRET,
    });
    await buildWebhook(h, v.tenantId, { url: receiver.url('/plain'), events: ['booking.created'], secret: plain });
    const bookingId = await createBooking(v, 3);
    await dispatcher().runOnce();

    const [whsec] = requestsTo('/whsec');
    const [plainRequest] = requestsTo('/plain');
    expect(whsec.headers['content-type']).toBe('application/json');
    const headersOf = (r: typeof whsec) => ({
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
    expect(headersOf(whsec)['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);

    const payload = new Webhook(WEBHOOK_SECRET).verify(whsec.body, headersOf(whsec)) as {
      id: string;
      type: string;
      timestamp: string;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload's data is asserted by the expect()s below
      data: any;
    };
    expect(payload).toEqual({
      id: whsec.headers['webhook-id'],
      type: 'booking.created',
      timestamp: expect.any(String),
      tenantId: expect.any(String),
      apiVersion: API_VERSION,
      data: { booking: expect.objectContaining({ id: bookingId, status: 'PENDING' }), sequence: 1 },
      livemode: true,
    });
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);

    // A plain secret's key is its UTF-8 bytes: standardwebhooks takes them base64-encoded (or raw bytes).
    const plainKey = Buffer.from(plain, 'utf8').toString('base64');
    expect(() => new Webhook(plainKey).verify(plainRequest.body, headersOf(plainRequest))).not.toThrow();
    expect(() =>
      new Webhook(new Uint8Array(Buffer.from(plain, 'utf8')), { format: 'raw' }).verify(
        plainRequest.body,
        headersOf(plainRequest),
      ),
    ).not.toThrow();

    const tampered = whsec.body.replace('Ada Lovelace', 'Eve Lovelace');
    expect(tampered).not.toBe(whsec.body);
    expect(() => new Webhook(WEBHOOK_SECRET).verify(tampered, headersOf(whsec))).toThrow(/No matching signature/);
    expect(() => new Webhook(plainKey).verify(whsec.body, headersOf(whsec))).toThrow(/No matching signature/);
  });
});

describe('booking events', () => {
  it('creating, confirming, cancelling and completing deliver exactly the subscribed types with the booking in data', async () => {
    const v = await venue();
    await buildWebhook(h, v.tenantId, { url: receiver.url('/all') });
    await buildWebhook(h, v.tenantId, { url: receiver.url('/confirmed'), events: ['booking.confirmed'] });
    await buildWebhook(h, v.tenantId, {
      url: receiver.url('/created-cancelled'),
      events: ['booking.cancelled', 'booking.created'],
    });

    const first = await createBooking(v, 5); // REST
    await setStatus(v, first, 'CONFIRMED');
    const cancelled = await h.graphql(
      v.apiKey,
      `mutation($id: ID!) { updateBookingStatus(bookingId: $id, status: CANCELLED) { booking { status } } }`,
      { id: first },
    );
    expect(cancelled.body.errors).toBeUndefined();
    const created = await h.graphql(
      v.apiKey,
      `mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Grace", guestEmail: "grace@example.com", startTime: $s, endTime: $e) { booking { id } } }`,
      { o: v.object.id, s: slotInDays(6).startTime, e: slotInDays(6).endTime },
    );
    const second = created.body.data.createBooking.booking.id;
    await setStatus(v, second, 'CONFIRMED');
    await setStatus(v, second, 'COMPLETED');

    expect(await drain(dispatcher())).toEqual({ attempted: 11, succeeded: 11 });
    const seen = (path: string) =>
      requestsTo(path)
        .map((r) => JSON.parse(r.body))
        .map((b) => `${b.type} ${b.data.booking.id === first ? 'first' : 'second'} ${b.data.booking.status}`)
        .sort();
    expect(seen('/all')).toEqual([
      'booking.cancelled first CANCELLED',
      'booking.completed second COMPLETED',
      'booking.confirmed first CONFIRMED',
      'booking.confirmed second CONFIRMED',
      'booking.created first PENDING',
      'booking.created second PENDING',
    ]);
    expect(seen('/confirmed')).toEqual(['booking.confirmed first CONFIRMED', 'booking.confirmed second CONFIRMED']);
    expect(seen('/created-cancelled')).toEqual([
      'booking.cancelled first CANCELLED',
      'booking.created first PENDING',
      'booking.created second PENDING',
    ]);

    const booking = JSON.parse(requestsTo('/confirmed')[0].body).data.booking;
    expect(booking).toMatchObject({
      objectId: v.object.id,
      objectName: 'Court 1',
      guestEmail: expect.any(String),
      totalPrice: 2000,
      currency: 'EUR',
    });
    // Each event is its own message: distinct ids, the same id to every subscription.
    const ids = new Set(requestsTo('/all').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(6);
    for (const r of requestsTo('/confirmed')) expect(ids.has(r.headers['webhook-id'])).toBe(true);
  });

  it('an event is fanned out once: a second pass sends nothing again', async () => {
    const v = await venue();
    await buildWebhook(h, v.tenantId, { url: receiver.url('/once') });
    await createBooking(v, 7);
    const d = dispatcher();
    expect((await d.runOnce()).attempted).toBeGreaterThanOrEqual(1);
    await d.runOnce();
    expect(requestsTo('/once')).toHaveLength(1);
  });
});

describe('retries', () => {
  it('a receiver that is down, then up, gets every event; ids are distinct per event and identical across retries', async () => {
    const v = await venue();
    const down = new Receiver();
    await down.start();
    await down.stop(); // connection refused from here on
    const webhook = await buildWebhook(h, v.tenantId, { url: down.url('/flaky') });
    for (const day of [10, 11, 12]) await createBooking(v, day);

    const clock = new TestClock();
    const t0 = new Date();
    clock.set(t0);
    const d = dispatcher(clock);
    expect(await d.runOnce()).toMatchObject({ attempted: 3, succeeded: 0 });
    let log = await deliveriesOf(v, webhook.id);
    expect(log.map((x) => [x.status, x.attemptCount, x.lastError, x.nextAttemptAt])).toEqual(
      Array(3).fill(['PENDING', 1, 'connection refused', new Date(t0.getTime() + 5_000).toISOString()]),
    );

    clock.set(new Date(t0.getTime() + 4_000));
    expect((await d.runOnce()).attempted).toBe(0); // not due yet

    clock.set(new Date(t0.getTime() + 5_000));
    expect(await d.runOnce()).toMatchObject({ attempted: 3, succeeded: 0 });

    // Up again, but overloaded for one round.
    await down.start();
    down.reply = () => ({ status: 503, body: 'busy' });
    clock.set(new Date(t0.getTime() + 5_000 + 300_000));
    expect(await d.runOnce()).toMatchObject({ attempted: 3, succeeded: 0 });
    log = await deliveriesOf(v, webhook.id);
    expect(log.map((x) => [x.attemptCount, x.lastStatusCode, x.nextAttemptAt])).toEqual(
      Array(3).fill([3, 503, new Date(t0.getTime() + 5_000 + 300_000 + 1_800_000).toISOString()]),
    );

    down.reply = () => ({ status: 200 });
    clock.set(new Date(t0.getTime() + 5_000 + 300_000 + 1_800_000));
    expect(await d.runOnce()).toMatchObject({ attempted: 3, succeeded: 3 });
    await down.stop();

    log = await deliveriesOf(v, webhook.id);
    expect(log.map((x) => [x.status, x.attemptCount, x.nextAttemptAt, x.attempts.length])).toEqual(
      Array(3).fill(['SUCCEEDED', 4, null, 4]),
    );

    // Six requests arrived (two rounds per event): three ids, each twice, each the event's id.
    const ids = down.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    for (const id of new Set(ids)) expect(ids.filter((x) => x === id)).toHaveLength(2);
    expect(new Set(log.map((x) => x.eventId))).toEqual(new Set(ids));
    for (const r of down.requests) expect(JSON.parse(r.body).id).toBe(r.headers['webhook-id']);
  });

  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', async () => {
    const v = await venue();
    receiver.reply = () => ({ status: 500 });
    const webhook = await buildWebhook(h, v.tenantId, { url: receiver.url('/always-500') });
    await createBooking(v, 13);
    const clock = new TestClock();
    let now = new Date();
    clock.set(now);
    const d = dispatcher(clock);
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      expect((await d.runOnce()).attempted).toBe(1);
      const [delivery] = await deliveriesOf(v, webhook.id);
      expect(delivery.attemptCount).toBe(attempt);
      if (delivery.nextAttemptAt === null) break;
      gaps.push(new Date(delivery.nextAttemptAt).getTime() - now.getTime());
      now = new Date(delivery.nextAttemptAt);
      clock.set(now);
    }
    expect(gaps).toEqual([...RETRY_DELAYS_MS]);
    const [delivery] = await deliveriesOf(v, webhook.id);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 8, nextAttemptAt: null, lastStatusCode: 500 });
    clock.set(new Date(now.getTime() + 48 * 3600_000));
    expect((await d.runOnce()).attempted).toBe(0);
    expect(requestsTo('/always-500')).toHaveLength(8);
  });

  it('honours Retry-After and does not follow redirects', async () => {
    const v = await venue();
    const slow = await buildWebhook(h, v.tenantId, { url: receiver.url('/retry-after') });
    const moved = await buildWebhook(h, v.tenantId, { url: receiver.url('/moved') });
    receiver.reply = (r): Reply =>
      r.path === '/retry-after'
        ? { status: 429, headers: { 'Retry-After': '120' } }
        : { status: 302, headers: { Location: '/elsewhere' } };
    await createBooking(v, 14);
    const clock = new TestClock();
    const t0 = new Date();
    clock.set(t0);
    await dispatcher(clock).runOnce();
    const [throttled] = await deliveriesOf(v, slow.id);
    expect(throttled).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 429,
      nextAttemptAt: new Date(t0.getTime() + 120_000).toISOString(),
    });
    const [redirected] = await deliveriesOf(v, moved.id);
    expect(redirected).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 302,
      lastError: 'redirect (302) not followed',
    });
    expect(receiver.requests.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
  });

  it('a 410 Gone deactivates the subscription and ends its pending deliveries', async () => {
    const v = await venue();
    const webhook = await buildWebhook(h, v.tenantId, { url: receiver.url('/gone') });
    receiver.reply = () => ({ status: 410 });
    await createBooking(v, 15);
    await createBooking(v, 16);
    const d = dispatcher(new TestClock(), { concurrency: 1 });
    await d.runOnce();
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}`,
      apiKey: v.apiKey,
    });
    expect(res.body.webhook.active).toBe(false);
    const log = await deliveriesOf(v, webhook.id);
    expect(log.map((x) => x.status)).toEqual(['FAILED', 'FAILED']);
    expect(log.map((x) => x.attemptCount).sort()).toEqual([0, 1]);
    expect(log.find((x) => x.attemptCount === 0)?.lastError).toBe(
      'subscription deactivated: the receiver answered 410 Gone',
    );

    await createBooking(v, 17);
    await d.runOnce();
    expect(requestsTo('/gone')).toHaveLength(1);
    expect(await deliveriesOf(v, webhook.id)).toHaveLength(2);
    const redeliver = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}/events/${log[0].eventId}/redeliver`,
      apiKey: v.apiKey,
    });
    expect(redeliver.status).toBe(409);
    expect(redeliver.body.code).toBe('webhook_inactive');
  });
});

describe('redeliver', () => {
  it('queues one event again with the same webhook-id', async () => {
    const v = await venue();
    const webhook = await buildWebhook(h, v.tenantId, { url: receiver.url('/again') });
    await createBooking(v, 18);
    const d = dispatcher();
    await d.runOnce();
    const [delivered] = await deliveriesOf(v, webhook.id);
    expect(delivered.status).toBe('SUCCEEDED');

    const res = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}/events/${delivered.eventId}/redeliver`,
      apiKey: v.apiKey,
    });
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({
      eventId: delivered.eventId,
      status: 'PENDING',
      attemptCount: 1,
      nextAttemptAt: expect.any(String),
    });
    await d.runOnce();
    const requests = requestsTo('/again');
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([delivered.eventId, delivered.eventId]);
    const [after] = await deliveriesOf(v, webhook.id);
    expect(after).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2 });

    const missing = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}/events/${v.object.id}/redeliver`,
      apiKey: v.apiKey,
    });
    expect(missing.status).toBe(404);
    const reader = await h.key(v.tenantId, ['webhooks:read']);
    expect(
      (
        await h.request({
          method: 'POST',
          url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}/events/${delivered.eventId}/redeliver`,
          apiKey: reader,
        })
      ).status,
    ).toBe(403);
  });

  it('is offered through GraphQL with the delivery log', async () => {
    const v = await venue();
    const webhook = await buildWebhook(h, v.tenantId, { url: receiver.url('/gql-log'), events: ['booking.created'] });
    await createBooking(v, 19);
    await dispatcher().runOnce();
    const log = await h.graphql(
      v.apiKey,
      `query($w: ID!) { webhookDeliveries(webhookId: $w, status: SUCCEEDED) { deliveries { eventId eventType status attempts { statusCode durationMs error } } } }`,
      { w: webhook.id },
    );
    const [delivery] = log.body.data.webhookDeliveries.deliveries;
    expect(delivery).toMatchObject({
      eventType: 'booking.created',
      status: 'SUCCEEDED',
      attempts: [{ statusCode: 204, error: null }],
    });
    const again = await h.graphql(
      v.apiKey,
      `mutation($w: ID!, $e: ID!) { redeliverWebhookEvent(webhookId: $w, eventId: $e) { delivery { status } } }`,
      {
        w: webhook.id,
        e: delivery.eventId,
      },
    );
    expect(again.body.data.redeliverWebhookEvent.delivery.status).toBe('PENDING');
  });
});

describe('the deliveries of one booking', () => {
  it('lists the deliveries of that booking’s events to every subscription, and no other booking’s', async () => {
    const v = await venue();
    const first = await buildWebhook(h, v.tenantId, { url: receiver.url('/a') });
    const second = await buildWebhook(h, v.tenantId, { url: receiver.url('/b'), events: ['booking.confirmed'] });
    const booking = await createBooking(v, 3);
    const other = await createBooking(v, 4);
    await setStatus(v, booking, 'CONFIRMED');
    await drain(dispatcher());

    const query =
      'query($b: ID!) { bookingWebhookDeliveries(bookingId: $b) { deliveries { webhookId eventType status attempts { statusCode } } } }';
    const res = await h.graphql(v.apiKey, query, { b: booking });
    expect(res.body.errors).toBeUndefined();
    const deliveries = res.body.data.bookingWebhookDeliveries.deliveries as {
      webhookId: string;
      eventType: string;
      status: string;
    }[];
    expect(
      deliveries
        .map(
          (d) =>
            `${d.webhookId === first.id ? 'first' : d.webhookId === second.id ? 'second' : '?'} ${d.eventType} ${d.status}`,
        )
        .sort(),
    ).toEqual([
      'first booking.confirmed SUCCEEDED',
      'first booking.created SUCCEEDED',
      'second booking.confirmed SUCCEEDED',
    ]);
    const others = await h.graphql(v.apiKey, query, { b: other });
    expect(others.body.data.bookingWebhookDeliveries.deliveries).toHaveLength(1);

    // Another tenant sees none of them; a bookings-only key may not ask.
    const stranger = await h.tenant('Stranger club');
    expect(
      (await h.graphql(stranger.apiKey, query, { b: booking })).body.data.bookingWebhookDeliveries.deliveries,
    ).toEqual([]);
    const bookingsOnly = await h.key(v.tenantId, ['bookings:read']);
    expect((await h.graphql(bookingsOnly, query, { b: booking })).status).toBe(403);
  });
});
