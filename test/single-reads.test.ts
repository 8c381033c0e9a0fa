import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildActiveDevice, buildDoor, buildVenue } from './builders.js';
import { recordEvent } from '../src/modules/webhooks/index.js';

// Single reads over REST (issue #44): one bookable object, one event of the events feed, one
// device command. Each answers what the listing (or the creation) shows of it, and 404
// problem+json for an unknown id, another tenant's, or (commands) another device's.

let h: Harness;
let venue: Awaited<ReturnType<typeof buildVenue>>;
let other: Awaited<ReturnType<typeof buildVenue>>;

beforeAll(async () => {
  h = await harness();
  venue = await buildVenue(h, { objects: 2 });
  other = await buildVenue(h);
});

/** Events written as the services write them (one transaction); resolves with the feed's items of them once it serves them. */
async function recorded(v: typeof venue, types: ('booking.created' | 'booking.cancelled')[]) {
  const ids = await h.deps.database.db
    .transaction()
    .execute(async (trx) => Promise.all(types.map((type, i) => recordEvent(trx, v.tenantId, type, { n: i }))));
  // The feed serves an event once every older transaction has ended (docs/events.md, "Short delay").
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const feed = await get('/events?limit=100', v.apiKey, v.tenantId);
    const items = (feed.body.events as { id: string }[]).filter((e) => ids.includes(e.id));
    if (items.length === ids.length) return items;
  }
  throw new Error('the events did not reach the feed within 3 minutes');
}

const get = (url: string, apiKey = venue.apiKey, tenantId = venue.tenantId) =>
  h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}${url}`, apiKey });

function expectNotFound(res: TestResponse, label: string) {
  expect(res.status, `${label}: ${res.text}`).toBe(404);
  expect(res.headers['content-type'], label).toContain('application/problem+json');
  expect(res.body, label).toMatchObject({ status: 404, code: 'not_found' });
}

describe('GET /tenants/{tenantId}/objects/{objectId}', () => {
  it('answers {object}: the object exactly as GET /objects lists it', async () => {
    const list = await get('/objects');
    expect(list.status).toBe(200);
    for (const listed of list.body.objects) {
      const res = await get(`/objects/${listed.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ object: listed });
      expect(res.body.object.timeZone).toBe('Europe/Berlin');
    }
  });

  it("is 404 problem+json for an unknown, malformed or another tenant's id; 403 for another tenant's path", async () => {
    for (const id of [crypto.randomUUID(), other.object.id, 'court-1']) expectNotFound(await get(`/objects/${id}`), id);
    const foreignPath = await get(`/objects/${other.object.id}`, venue.apiKey, other.tenantId);
    expect(foreignPath.status).toBe(403);
    // The static routes beside it keep their meaning.
    expect((await get('/objects/availability?date=2026-12-04')).body.objects).toHaveLength(2);
  });

  it('needs catalog:read', async () => {
    const key = await h.key(venue.tenantId, ['bookings:read']);
    expect((await get(`/objects/${venue.object.id}`, key)).status).toBe(403);
    const reader = await h.key(venue.tenantId, ['catalog:read']);
    expect((await get(`/objects/${venue.object.id}`, reader)).status).toBe(200);
  });
});

describe('GET /tenants/{tenantId}/events/{eventId}', () => {
  it("answers {event}: the same envelope as the feed's item; GraphQL event(id) the same", async () => {
    const items = await recorded(venue, ['booking.created', 'booking.cancelled']);
    for (const item of items) {
      const res = await get(`/events/${item.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ event: item });
    }
    const [first] = items;
    const gql = await h.graphql(
      venue.apiKey,
      'query($id: ID!) { event(id: $id) { id type timestamp tenantId apiVersion data livemode } }',
      { id: first.id },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.event).toEqual(first);
  });

  it("is 404 for an unknown, malformed or another tenant's event (GraphQL: NOT_FOUND)", async () => {
    const [foreign] = await recorded(other, ['booking.created']);
    const foreignId = foreign.id;
    for (const id of [crypto.randomUUID(), foreignId, 'evt_1']) expectNotFound(await get(`/events/${id}`), id);
    const gql = await h.graphql(venue.apiKey, 'query($id: ID!) { event(id: $id) { id } }', { id: foreignId });
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(gql.body.data.event).toBeNull();
  });

  it('needs webhooks:read', async () => {
    const key = await h.key(venue.tenantId, ['bookings:read']);
    expect((await get(`/events/${crypto.randomUUID()}`, key)).status).toBe(403);
  });
});

describe('GET /tenants/{tenantId}/devices/{deviceId}/commands/{commandId}', () => {
  async function deviceWithCommand(v: typeof venue) {
    const door = await buildDoor(h, v.tenantId, [v.object.id], { gpioPin: 17, unlockDurationSeconds: 5 });
    const device = await buildActiveDevice(h, v.tenantId, [door.id]);
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/devices/${device.deviceId}/commands`,
      apiKey: v.apiKey,
      body: { type: 'unlock', doorId: door.id },
    });
    expect(created.status, created.text).toBe(201);
    return { door, device, command: created.body.command };
  }

  it('answers the command as created, with its device, door, delivery and result; then as the device reported it', async () => {
    const { door, device, command } = await deviceWithCommand(venue);
    const url = `/devices/${device.deviceId}/commands/${command.id}`;
    const res = await get(url);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      command,
      deviceId: device.deviceId,
      doorId: door.id,
      deliveredAt: null,
      completedAt: null,
      result: null,
      error: null,
    });
    const polled = await h.request({
      method: 'GET',
      url: `/api/devices/${device.deviceId}/commands`,
      apiKey: device.deviceKey,
    });
    expect(polled.status).toBe(200);
    const reported = await h.request({
      method: 'PATCH',
      url: `/api/devices/${device.deviceId}/commands/${command.id}`,
      apiKey: device.deviceKey,
      body: { status: 'executed', result: { unlocked: true } },
    });
    expect(reported.status, reported.text).toBe(200);
    const after = await get(url);
    expect(after.body.command.status).toBe('executed');
    expect(after.body.deliveredAt).toEqual(expect.any(String));
    expect(after.body.completedAt).toEqual(expect.any(String));
    expect(after.body.result).toEqual({ unlocked: true });
    const gql = await h.graphql(
      venue.apiKey,
      'query($d: ID!, $c: ID!) { deviceCommand(deviceId: $d, commandId: $c) { command { id status } deviceId result } }',
      { d: device.deviceId, c: command.id },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.deviceCommand).toEqual({
      command: { id: command.id, status: 'executed' },
      deviceId: device.deviceId,
      result: { unlocked: true },
    });
  });

  it("is 404 for an unknown command, another device's, another tenant's, or malformed ids", async () => {
    const mine = await deviceWithCommand(venue);
    const second = await deviceWithCommand(venue);
    const theirs = await deviceWithCommand(other);
    for (const [deviceId, commandId] of [
      [mine.device.deviceId, crypto.randomUUID()],
      [mine.device.deviceId, second.command.id],
      [crypto.randomUUID(), mine.command.id],
      [theirs.device.deviceId, theirs.command.id],
      [mine.device.deviceId, 'cmd-1'],
      ['dev-1', mine.command.id],
    ] as const) {
      expectNotFound(await get(`/devices/${deviceId}/commands/${commandId}`), `${deviceId}/${commandId}`);
    }
    const gql = await h.graphql(
      venue.apiKey,
      'query($d: ID!, $c: ID!) { deviceCommand(deviceId: $d, commandId: $c) { deviceId } }',
      { d: theirs.device.deviceId, c: theirs.command.id },
    );
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('needs devices:read', async () => {
    const { device, command } = await deviceWithCommand(venue);
    const url = `/devices/${device.deviceId}/commands/${command.id}`;
    expect((await get(url, await h.key(venue.tenantId, ['bookings:read']))).status).toBe(403);
    expect((await get(url, await h.key(venue.tenantId, ['devices:read']))).status).toBe(200);
  });
});
