import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { bookViaRest, buildActiveDevice, buildDoor, buildVenue, slotInDays } from './builders.js';
import { closeAll, eventually, SseSubscription, WsSubscription } from './subscription-clients.js';
import { createAccommodation, createObject } from '../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../src/modules/catalog/catalog.commands.js';
import { recordEvent } from '../src/modules/webhooks/outbox.js';
import { sweepDevicePresence } from '../src/modules/devices/presence.js';
import { EVERY_DAY_8_TO_22 } from './builders.js';

// GraphQL subscriptions in one process (docs/subscriptions.md), over SSE and graphql-ws, on both
// databases: the outbox's live tail (bookings) and the NOTIFY transport (access decisions). The
// two-process case is test/e2e/subscriptions.processes.test.ts.

const BOOKING_CHANGED = `subscription($objectId: ID, $accommodationId: ID) {
  bookingChanged(objectId: $objectId, accommodationId: $accommodationId) {
    eventId type occurredAt sequence booking { id status guestName object { id } }
  }
}`;
const ACCESS_DECIDED = `subscription($doorId: ID) {
  accessDecided(doorId: $doorId) { allowed doorId decidedAt entry { id deviceId doorId allowed reason mode } }
}`;

let h: Harness;
let app: OwnApp;
let url: string;

beforeAll(async () => {
  h = await harness();
  app = await ownApp(h, { env: { maxSubscriptionsPerKey: 3 } });
  url = await app.app.fastify.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
});

// Every test closes what it opened (a failed one here); the next starts once the server has let go of them all.
afterEach(async () => {
  await closeAll();
  await subscriptionsOpen(0);
});

let day = 1;
/** A booking through REST (a fresh day each, so none overlaps). */
const book = (venue: { tenantId: string; apiKey: string }, objectId: string) =>
  bookViaRest(h, { ...venue, objectId, ...slotInDays(day++) });

/** Waits until this process holds `n` open subscriptions (a subscription's registration has no answer of its own over graphql-ws). */
const subscriptionsOpen = (n: number) =>
  eventually(() => (app.deps.live.hub.size === n ? true : undefined), 60_000, `${n} open subscriptions`);

describe('bookingChanged', () => {
  it('over SSE: the booking created after the subscription opened, with its event type and fields', async () => {
    const venue = await buildVenue(h);
    const sub = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED);
    expect(sub.status).toBe(200);
    expect(sub.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const bookingId = await book(venue, venue.object.id);
    const { payload } = await sub.next();
    expect(payload.errors).toBeUndefined();
    expect(payload.data.bookingChanged).toMatchObject({
      type: 'booking.created',
      sequence: 1,
      booking: { id: bookingId, status: 'PENDING', guestName: 'Ada', object: { id: venue.object.id } },
    });
    sub.close();
  });

  it('over graphql-ws with connectionParams.authorization: created, then confirmed', async () => {
    const venue = await buildVenue(h);
    const before = app.deps.live.hub.size;
    const sub = WsSubscription.open(url, { authorization: `Bearer ${venue.apiKey}` }, BOOKING_CHANGED);
    await subscriptionsOpen(before + 1);
    const bookingId = await bookViaRest(h, {
      ...venue,
      objectId: venue.object.id,
      ...slotInDays(day++),
      status: 'CONFIRMED',
    });
    await sub.next((p) => p.data?.bookingChanged?.type === 'booking.confirmed');
    expect(
      sub.received.map((r) => [r.payload.data.bookingChanged.type, r.payload.data.bookingChanged.booking.id]),
    ).toEqual([
      ['booking.created', bookingId],
      ['booking.confirmed', bookingId],
    ]);
    await sub.close();
    await subscriptionsOpen(before);
  });

  it('a subscriber sees its own tenant only', async () => {
    const a = await buildVenue(h);
    const b = await buildVenue(h);
    const sub = await SseSubscription.open(url, b.apiKey, BOOKING_CHANGED);
    await book(a, a.object.id);
    const ofB = await book(b, b.object.id);
    await sub.next();
    expect(sub.received.map((r) => r.payload.data.bookingChanged.booking.id)).toEqual([ofB]);
    sub.close();
  });

  it('filters by objectId and by accommodationId', async () => {
    const venue = await buildVenue(h, { objects: 2 });
    const db = h.deps.database.db;
    const other = await createAccommodation(
      db,
      venue.tenantId,
      parseCreateAccommodation({ name: 'Other', address: 'Weg 2, 10115 Berlin', timeZone: 'Europe/Berlin' }),
    );
    const otherObject = await createObject(
      db,
      venue.tenantId,
      parseCreateObject({
        accommodationId: other.id,
        name: 'Hall',
        pricePerHour: 1000,
        openingHours: EVERY_DAY_8_TO_22,
      }),
    );
    const byObject = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED, { objectId: venue.objects[1].id });
    const byAccommodation = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED, {
      accommodationId: other.id,
    });
    await book(venue, venue.objects[0].id);
    const onSecond = await book(venue, venue.objects[1].id);
    const inOther = await book(venue, otherObject.id);
    await byObject.next();
    await byAccommodation.next();
    // The last booking's event has arrived at the other subscription, so the first would have too.
    expect(byObject.received.map((r) => r.payload.data.bookingChanged.booking.id)).toEqual([onSecond]);
    expect(byAccommodation.received.map((r) => r.payload.data.bookingChanged.booking.id)).toEqual([inOther]);
    byObject.close();
    byAccommodation.close();
  });

  it('no message for a change that rolled back', async () => {
    const venue = await buildVenue(h);
    const sub = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED);
    const rolledBack = '00000000-0000-4000-8000-000000000001';
    await expect(
      h.deps.database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, venue.tenantId, 'booking.created', { booking: { id: rolledBack }, sequence: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const committed = await book(venue, venue.object.id);
    await sub.next();
    expect(sub.received.map((r) => r.payload.data.bookingChanged.booking.id)).toEqual([committed]);
    sub.close();
  });
});

describe('deviceStatusChanged', () => {
  it('device.offline when the sweep finds it silent, device.online at its next heartbeat', async () => {
    const venue = await buildVenue(h);
    const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
    const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
    const heartbeat = () =>
      h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/heartbeat`,
        apiKey: device.deviceKey,
        body: { cpu_percent: 12, memory_percent: 40, wifi_signal_dbm: -61, door_states: {} },
      });
    expect((await heartbeat()).status).toBe(200);
    const sub = await SseSubscription.open(
      url,
      venue.apiKey,
      'subscription { deviceStatusChanged { eventId type online occurredAt device { id name online } } }',
    );
    const later = new Date(h.deps.now().getTime() + 10 * 60_000);
    await sweepDevicePresence(h.deps.database.db, later, h.deps.deviceEvents, () => Promise.resolve([venue.tenantId]));
    await sub.next();
    expect((await heartbeat()).status).toBe(200);
    await sub.next((p) => p.data.deviceStatusChanged.type === 'device.online');
    expect(sub.received.map((r) => r.payload.data.deviceStatusChanged)).toEqual([
      expect.objectContaining({
        type: 'device.offline',
        online: false,
        device: expect.objectContaining({ id: device.deviceId }),
      }),
      expect.objectContaining({
        type: 'device.online',
        online: true,
        device: expect.objectContaining({ id: device.deviceId }),
      }),
    ]);
    sub.close();
  });
});

describe('device presence for live subscribers', () => {
  it('is tracked for a tenant with a deviceStatusChanged subscriber, not for one whose subscribers only want bookings', async () => {
    const venues = [await buildVenue(h), await buildVenue(h)];
    const devices = [];
    for (const venue of venues) {
      const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
      const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
      const res = await h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/heartbeat`,
        apiKey: device.deviceKey,
        body: { cpu_percent: 12, memory_percent: 40, wifi_signal_dbm: -61, door_states: {} },
      });
      expect(res.status).toBe(200);
      devices.push(device);
    }
    const [watched, bookingsOnly] = venues;
    const statuses = await SseSubscription.open(
      url,
      watched.apiKey,
      'subscription { deviceStatusChanged { type device { id } } }',
    );
    await SseSubscription.open(url, bookingsOnly.apiKey, BOOKING_CHANGED);
    // The sweep the dispatcher runs in this app's process, both devices silent for ten minutes.
    const sweep = app.deps.dispatcherSweeps.find((s) => s.name === 'device presence');
    if (!sweep) throw new Error('the app has no device presence sweep');
    await sweep.run(new Date(h.deps.now().getTime() + 10 * 60_000));
    await statuses.next();
    expect(statuses.received.map((r) => r.payload.data.deviceStatusChanged)).toEqual([
      { type: 'device.offline', device: { id: devices[0].deviceId } },
    ]);
    const offline = await h.deps.database.db
      .selectFrom('events')
      .select('tenant_id')
      .where('type', '=', 'device.offline')
      .where('tenant_id', 'in', [watched.tenantId, bookingsOnly.tenantId])
      .execute();
    expect(offline).toEqual([{ tenant_id: watched.tenantId }]);
  });
});

describe('accessDecided', () => {
  it('each decision the tenant’s doors ask for, filtered by doorId', async () => {
    const venue = await buildVenue(h, { objects: 2 });
    const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id]);
    const otherDoor = await buildDoor(h, venue.tenantId, [venue.objects[1].id], { gpioPin: 22 });
    const device = await buildActiveDevice(h, venue.tenantId, [door.id, otherDoor.id]);
    const all = await SseSubscription.open(url, venue.apiKey, ACCESS_DECIDED);
    const atOther = await SseSubscription.open(url, venue.apiKey, ACCESS_DECIDED, { doorId: otherDoor.id });
    for (const doorId of [door.id, otherDoor.id]) {
      const res = await h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/access-check`,
        apiKey: device.deviceKey,
        body: { doorId, token: 'not-a-token' },
      });
      expect(res.status).toBe(200);
    }
    await all.next((p) => p.data.accessDecided.doorId === otherDoor.id);
    await atOther.next();
    expect(all.received.map((r) => r.payload.data.accessDecided.doorId)).toEqual([door.id, otherDoor.id]);
    expect(atOther.received.map((r) => r.payload.data.accessDecided)).toEqual([
      {
        allowed: false,
        doorId: otherDoor.id,
        decidedAt: expect.any(String),
        entry: {
          id: expect.any(String),
          deviceId: device.deviceId,
          doorId: otherDoor.id,
          allowed: false,
          reason: 'invalid_token',
          mode: 'online',
        },
      },
    ]);
    all.close();
    atOther.close();
  });
});

describe('authentication, scopes and limits', () => {
  it('SSE without a key or with a bad one: 401 with the Bearer challenge (as every GraphQL request)', async () => {
    const none = await SseSubscription.open(url, null, BOOKING_CHANGED);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="portier"');
    expect(none.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const bad = await SseSubscription.open(url, 'svc_not-a-key', BOOKING_CHANGED);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(bad.body.errors[0].message).toBe('The API key is unknown or revoked');
  });

  it('graphql-ws without connectionParams or with a bad key: closed with 4401 naming what is wrong', async () => {
    const none = WsSubscription.open(url, undefined, BOOKING_CHANGED);
    const closedNone = await eventually(() => none.closed, 30_000, 'the close');
    expect(closedNone.code).toBe(4401);
    expect(closedNone.reason).toMatch(/connectionParams/);
    const bad = WsSubscription.open(url, { authorization: 'Bearer svc_not-a-key' }, BOOKING_CHANGED);
    const closedBad = await eventually(() => bad.closed, 30_000, 'the close');
    expect(closedBad).toEqual({ code: 4401, reason: 'Unauthorized: the API key is unknown or revoked' });
    await none.close();
    await bad.close();
  });

  it('a key without the scope is refused with the reason: SSE one `next` with the error on a 200 stream, graphql-ws an `error` message; nothing internal', async () => {
    const venue = await buildVenue(h);
    const devicesOnly = await h.key(venue.tenantId, ['devices:read']);
    const refusal = {
      message: 'This API key lacks the scope bookings:read needed for bookingChanged',
      extensions: { code: 'FORBIDDEN', reason: 'missing_scope' },
    };
    // SSE: an SSE client (graphql-sse, urql's and Apollo's SSE links) takes a non-2xx answer for a
    // network failure ("403: Forbidden"), so the refusal is a 200 event stream: the error, then complete.
    const sse = await SseSubscription.open(url, devicesOnly, BOOKING_CHANGED);
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await eventually(() => (sse.completed ? true : undefined), 30_000, 'the refusal');
    expect(sse.received.map((r) => r.payload)).toEqual([
      { data: { bookingChanged: null }, errors: [expect.objectContaining(refusal)] },
    ]);
    const sseError = sse.received[0]?.payload.errors[0];
    expect(sseError.extensions).toEqual(refusal.extensions);
    expect(JSON.stringify(sse.received)).not.toMatch(/"http"|"unexpected"|status/);

    // graphql-ws: the operation's `error` message (the client's error callback), never a `next`.
    const ws = WsSubscription.open(url, { authorization: `Bearer ${devicesOnly}` }, BOOKING_CHANGED);
    await eventually(() => (ws.completed ? true : undefined), 30_000, 'the refusal');
    expect(ws.received).toEqual([]);
    expect(ws.error).toEqual([expect.objectContaining(refusal)]);
    const [wsError] = ws.error as { extensions?: unknown }[];
    expect(wsError?.extensions).toEqual(refusal.extensions);
    expect(JSON.stringify(ws.error)).not.toMatch(/"http"|"unexpected"|status/);
    await ws.close();

    const bookingsOnly = await h.key(venue.tenantId, ['bookings:read']);
    const access = await SseSubscription.open(url, bookingsOnly, ACCESS_DECIDED);
    expect(access.status).toBe(200);
    await eventually(() => (access.completed ? true : undefined), 30_000, 'the refusal');
    expect(JSON.stringify(access.received)).toContain('lacks the scope devices:read needed for accessDecided');
    const accessWs = WsSubscription.open(url, { authorization: `Bearer ${bookingsOnly}` }, ACCESS_DECIDED);
    await eventually(() => (accessWs.completed ? true : undefined), 30_000, 'the refusal');
    expect(accessWs.received).toEqual([]);
    expect(JSON.stringify(accessWs.error)).toContain('lacks the scope devices:read needed for accessDecided');
    await accessWs.close();
    // The same socket still runs what the key may do: a refusal ends one operation, not the connection.
    const allowed = WsSubscription.open(url, { authorization: `Bearer ${bookingsOnly}` }, BOOKING_CHANGED);
    await subscriptionsOpen(1);
    await allowed.close();
    await subscriptionsOpen(0);
    expect(app.deps.live.hub.size).toBe(0);
  });

  it('rate limited like other requests: an SSE request and each graphql-ws subscribe count against the key', async () => {
    const venue = await buildVenue(h);
    const limited = await h.key(venue.tenantId, ['bookings:read'], 2);
    const first = await SseSubscription.open(url, limited, BOOKING_CHANGED);
    expect(first.status).toBe(200);
    first.close();
    // Two graphql-ws subscribes on two sockets: which reaches the server first is not ours to
    // choose (the hub's count cannot tell, as `first` may still be closing), so exactly one of them
    // is refused, whichever came second.
    const both = [0, 1].map(() => WsSubscription.open(url, { authorization: `Bearer ${limited}` }, BOOKING_CHANGED));
    const refused = await eventually(() => both.find((s) => s.completed), 30_000, 'the refusal');
    expect(JSON.stringify(refused.error)).toMatch(/Rate limit of 2 requests per minute exceeded; retry in \d+ s/);
    const third = await SseSubscription.open(url, limited, BOOKING_CHANGED);
    expect(third.status).toBe(429);
    expect(both.filter((s) => s.completed)).toHaveLength(1);
    for (const s of both) await s.close();
  });

  it('at most MAX_SUBSCRIPTIONS_PER_KEY open per key; closing one frees its slot and its listener', async () => {
    const venue = await buildVenue(h);
    const before = app.deps.live.hub.size;
    const open = [];
    for (let i = 0; i < 3; i += 1) open.push(await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED));
    await subscriptionsOpen(before + 3);
    const refused = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED);
    await eventually(() => (refused.completed ? true : undefined), 30_000, 'the refusal');
    const refusal = JSON.stringify(refused.body ?? refused.received);
    expect(refusal).toContain('too_many_subscriptions');
    expect(refusal).toContain('MAX_SUBSCRIPTIONS_PER_KEY (3)');
    // Another key of the tenant has slots of its own.
    const otherKey = await h.key(venue.tenantId, ['bookings:read']);
    const other = await SseSubscription.open(url, otherKey, BOOKING_CHANGED);
    await subscriptionsOpen(before + 4);
    open[0].close();
    await subscriptionsOpen(before + 3);
    const again = await SseSubscription.open(url, venue.apiKey, BOOKING_CHANGED);
    await subscriptionsOpen(before + 4);
    const bookingId = await book(venue, venue.object.id);
    expect((await again.next()).payload.data.bookingChanged.booking.id).toBe(bookingId);
    for (const s of [...open.slice(1), other, again]) s.close();
    await subscriptionsOpen(before);
  });
});

describe('shutdown', () => {
  it('ends open subscriptions: SSE completes, graphql-ws closes with 1001', async () => {
    const own = await ownApp(h);
    const ownUrl = await own.app.fastify.listen({ port: 0, host: '127.0.0.1' });
    const venue = await buildVenue(h);
    const sse = await SseSubscription.open(ownUrl, venue.apiKey, BOOKING_CHANGED);
    const ws = WsSubscription.open(ownUrl, { authorization: `Bearer ${venue.apiKey}` }, BOOKING_CHANGED);
    await eventually(() => (own.deps.live.hub.size === 2 ? true : undefined), 60_000, 'two subscriptions');
    await own.close();
    await eventually(() => (sse.completed ? true : undefined), 30_000, 'the SSE stream to end');
    const closed = await eventually(() => ws.closed, 30_000, 'the socket to close');
    expect(closed.code).toBe(1001);
    expect(own.deps.live.hub.size).toBe(0);
    await ws.close();
  });
});
