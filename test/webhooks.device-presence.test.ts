import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET, buildActiveDevice, buildDevice, buildDoor, buildVenue, buildWebhook } from './builders.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import type { Sender } from '../src/modules/webhooks/sender.js';
import { API_VERSION } from '../src/modules/webhooks/signing.js';
import { sweepDevicePresence } from '../src/modules/devices/index.js';

// device.offline / device.online (docs/webhooks.md#device-presence), with a clock the test controls.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
/** Tenants whose subscriptions a test made: removed after it, with their deliveries, so no later test's dispatcher (in this worker's database) attempts them. */
const tenants: string[] = [];
afterEach(async () => {
  h.clock.set(null);
  vi.restoreAllMocks();
  if (tenants.length)
    await h.deps.database.db.deleteFrom('webhooks').where('tenant_id', 'in', tenants.splice(0)).execute();
});

interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface PresenceEvent {
  id: string;
  type: string;
  timestamp: string;
  tenantId: string;
  apiVersion: string;
  data: {
    device: { id: string; name: string; doorIds: string[] };
    lastSeenAt: string;
    sequence: number;
    offlineAfterSeconds?: number;
    offlineSince?: string;
  };
}

function sender(into: Received[]): Sender {
  return (url, headers, body) => {
    into.push({ url, headers, body });
    return Promise.resolve({ statusCode: 204, durationMs: 1, error: null, retryAfter: null });
  };
}

/** Verifies with the standardwebhooks library at the test clock's time (it checks webhook-timestamp against Date.now()). */
function verified(r: Received): PresenceEvent {
  vi.spyOn(Date, 'now').mockReturnValue(h.clock.now().getTime());
  try {
    return new Webhook(WEBHOOK_SECRET).verify(r.body, r.headers) as PresenceEvent;
  } finally {
    vi.restoreAllMocks();
  }
}

const TELEMETRY = { cpu_percent: 12, memory_percent: 40, wifi_signal_dbm: -61, door_states: {} };

async function heartbeat(device: { deviceId: string; deviceKey: string }): Promise<void> {
  const res = await h.request({
    method: 'POST',
    url: `/api/devices/${device.deviceId}/heartbeat`,
    apiKey: device.deviceKey,
    body: TELEMETRY,
  });
  expect(res.status).toBe(200);
}

/** A tenant with a door, an activated device on it and a subscription to the presence events. */
async function site(label: string) {
  const v = await buildVenue(h);
  const door = await buildDoor(h, v.tenantId, [v.object.id]);
  const device = await buildActiveDevice(h, v.tenantId, [door.id]);
  const url = `https://presence.example/${label}/${v.tenantId}`;
  await buildWebhook(h, v.tenantId, { url, events: ['device.offline', 'device.online'] });
  tenants.push(v.tenantId);
  return { ...v, door, device, url };
}

const eventsOf = (tenantId: string) =>
  h.deps.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('device presence events', () => {
  it('one device.offline after three missed heartbeats, even with two dispatchers sweeping at once; one device.online when it is back', async () => {
    const t0 = new Date('2027-03-01T10:00:00Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    h.clock.set(t0);
    const mine = await site('mine');
    const other = await site('other');
    // Registered but never activated, and activated but never heard from: neither ever fires.
    await buildDevice(h, mine.tenantId, [mine.door.id], 'Spare controller');
    const silent = await buildActiveDevice(h, mine.tenantId, [mine.door.id]);
    await heartbeat(mine.device);
    await heartbeat(other.device);

    const received: Received[] = [];
    const one = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: sender(received) }));
    const two = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: sender(received) }));
    const pass = () => Promise.all([one.runOnce(), two.runOnce()]);
    const to = (url: string) => received.filter((r) => r.url === url);

    // Exactly three intervals (45 s) of silence is not yet offline.
    h.clock.set(at(45));
    await pass();
    expect(to(mine.url)).toHaveLength(0);
    expect((await eventsOf(mine.tenantId)).map((e) => e.type)).not.toContain('device.offline');

    // Past it: two dispatchers sweep at once, then more passes; one event, delivered once.
    h.clock.set(at(46));
    await pass();
    await pass();
    await Promise.all([
      sweepDevicePresence(h.deps.database.db, at(47), h.deps.deviceEvents),
      sweepDevicePresence(h.deps.database.db, at(47), h.deps.deviceEvents),
    ]);
    await pass();
    expect((await eventsOf(mine.tenantId)).map((e) => e.type)).toEqual(['device.offline']);
    expect(to(mine.url)).toHaveLength(1);
    const offline = verified(to(mine.url)[0]);
    expect(offline).toEqual({
      id: expect.any(String),
      type: 'device.offline',
      timestamp: expect.any(String),
      tenantId: mine.tenantId,
      apiVersion: API_VERSION,
      data: {
        device: { id: mine.device.deviceId, name: 'Gate controller', doorIds: [mine.door.id] },
        lastSeenAt: t0.toISOString(),
        offlineAfterSeconds: 45,
        sequence: 1,
      },
      livemode: true,
    });
    expect(to(mine.url)[0]?.headers['webhook-id']).toBe(offline.id);

    // The other tenant's device went offline too: its event went to its own subscription only.
    expect(to(other.url).map((r) => verified(r).data.device.id)).toEqual([other.device.deviceId]);
    expect(to(mine.url).map((r) => verified(r).data.device.id)).not.toContain(other.device.deviceId);

    // Back: two heartbeats at once, one device.online.
    h.clock.set(at(60));
    await Promise.all([heartbeat(mine.device), heartbeat(mine.device)]);
    await pass();
    await pass();
    expect((await eventsOf(mine.tenantId)).map((e) => e.type)).toEqual(['device.offline', 'device.online']);
    expect(to(mine.url)).toHaveLength(2);
    const online = verified(to(mine.url)[1]);
    expect(online).toMatchObject({
      type: 'device.online',
      tenantId: mine.tenantId,
      apiVersion: API_VERSION,
      data: {
        device: { id: mine.device.deviceId, doorIds: [mine.door.id] },
        lastSeenAt: at(60).toISOString(),
        offlineSince: t0.toISOString(),
        sequence: 2,
      },
    });
    expect(online.id).not.toBe(offline.id);

    // Online again and heartbeating: nothing more; silent again: a second device.offline (sequence 3).
    h.clock.set(at(90));
    await heartbeat(mine.device);
    await pass();
    expect(to(mine.url)).toHaveLength(2);
    h.clock.set(at(136));
    await pass();
    const again = to(mine.url).map(verified);
    expect(again.map((e) => [e.type, e.data.sequence])).toEqual([
      ['device.offline', 1],
      ['device.online', 2],
      ['device.offline', 3],
    ]);
    expect(again[2]?.data.lastSeenAt).toBe(at(90).toISOString());

    // Neither the never-activated nor the never-heard-from device fired.
    const ids = (await eventsOf(mine.tenantId)).map((e) => (e.data as PresenceEvent['data']).device.id);
    expect(ids.every((id) => id === mine.device.deviceId)).toBe(true);
    expect(ids).not.toContain(silent.deviceId);
  });

  it('a heartbeat racing the sweeps leaves every device online, each with as many online as offline events', async () => {
    const t0 = new Date('2027-05-01T10:00:00Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    h.clock.set(t0);
    const v = await buildVenue(h);
    const door = await buildDoor(h, v.tenantId, [v.object.id]);
    const devices = [];
    for (let i = 0; i < 8; i += 1) devices.push(await buildActiveDevice(h, v.tenantId, [door.id]));
    await Promise.all(devices.map(heartbeat));

    // Three devices heartbeat just before the sweeps: no event. The others heartbeat while three
    // sweeps run: either the heartbeat came first (no event) or a sweep did (offline, then online
    // from the heartbeat) — never offline alone.
    h.clock.set(at(46));
    const early = devices.slice(0, 3);
    await Promise.all(early.map(heartbeat));
    const sweep = () => sweepDevicePresence(h.deps.database.db, at(46), h.deps.deviceEvents);
    await Promise.all([sweep(), ...devices.slice(3).map(heartbeat), sweep(), sweep()]);

    const rows = await h.deps.database.db
      .selectFrom('devices')
      .select(['id', 'offline_since'])
      .where('tenant_id', '=', v.tenantId)
      .execute();
    expect(rows.every((r) => r.offline_since === null)).toBe(true);
    const events = await eventsOf(v.tenantId);
    for (const d of devices) {
      const mine = events.filter((e) => (e.data as PresenceEvent['data']).device.id === d.deviceId);
      expect(mine.filter((e) => e.type === 'device.offline').length).toBe(
        mine.filter((e) => e.type === 'device.online').length,
      );
      expect(mine.length).toBeLessThanOrEqual(2);
    }
    const ids = events.map((e) => (e.data as PresenceEvent['data']).device.id);
    for (const d of early) expect(ids).not.toContain(d.deviceId);
  });

  it('a heartbeat that waits for a sweep’s row lock sees the device offline and writes device.online', async () => {
    const t0 = new Date('2027-06-01T10:00:00Z');
    h.clock.set(t0);
    const v = await buildVenue(h);
    const door = await buildDoor(h, v.tenantId, [v.object.id]);
    const device = await buildActiveDevice(h, v.tenantId, [door.id]);
    await heartbeat(device);
    const late = new Date(t0.getTime() + 46_000);
    h.clock.set(late);

    // The sweep marks the device and then holds its transaction open (and the row lock with it).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let marked = () => {};
    const markedOffline = new Promise<void>((resolve) => (marked = resolve));
    const sweeping = sweepDevicePresence(h.deps.database.db, late, async (trx, tenantId, type, data) => {
      await h.deps.deviceEvents(trx, tenantId, type, data);
      if (tenantId === v.tenantId) {
        marked();
        await held;
      }
    });
    await markedOffline;
    const beating = heartbeat(device);
    if (h.deps.database.kind === 'postgres') {
      // Wait until the heartbeat's UPDATE is blocked on the row the sweep holds.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(
          h.deps.database.db,
        );
        if ((rows[0]?.n ?? 0) > 0) break;
        if (Date.now() > deadline) throw new Error('the heartbeat never waited for the sweep');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    release();
    await sweeping;
    await beating;
    expect((await eventsOf(v.tenantId)).map((e) => [e.type, (e.data as PresenceEvent['data']).sequence])).toEqual([
      ['device.offline', 1],
      ['device.online', 2],
    ]);
    const row = await h.deps.database.db
      .selectFrom('devices')
      .select('offline_since')
      .where('id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(row.offline_since).toBeNull();
  });

  it('a revoked device does not go offline', async () => {
    const t0 = new Date('2027-04-01T10:00:00Z');
    h.clock.set(t0);
    const s = await site('revoked');
    await heartbeat(s.device);
    const revoked = await h.graphql(s.apiKey, 'mutation($id: ID!) { revokeDevice(id: $id) { status } }', {
      id: s.device.deviceId,
    });
    expect(revoked.body.data.revokeDevice.status).toBe('REVOKED');
    h.clock.set(new Date(t0.getTime() + 120_000));
    await sweepDevicePresence(h.deps.database.db, h.clock.now(), h.deps.deviceEvents);
    expect(await eventsOf(s.tenantId)).toEqual([]);
  });

  it('tracks only tenants that listen: a fleet without a presence subscription is not swept (its heartbeats stay one statement)', async () => {
    const t0 = new Date('2027-05-01T10:00:00Z');
    h.clock.set(t0);
    const quiet = await buildVenue(h);
    const door = await buildDoor(h, quiet.tenantId, [quiet.object.id]);
    const device = await buildActiveDevice(h, quiet.tenantId, [door.id]);
    await buildWebhook(h, quiet.tenantId, {
      url: `https://presence.example/quiet/${quiet.tenantId}`,
      events: ['booking.created'],
    });
    tenants.push(quiet.tenantId);
    await heartbeat(device);
    const listening = await site('listening');
    await heartbeat(listening.device);
    h.clock.set(new Date(t0.getTime() + 120_000));
    // The sweep as the dispatchers run it (src/kernel/deps.ts): only tenants subscribed to a presence event.
    for (const sweep of h.deps.dispatcherSweeps) await sweep.run(h.clock.now());
    expect(await eventsOf(quiet.tenantId)).toEqual([]);
    const offlineSince = await h.deps.database.db
      .selectFrom('devices')
      .select('offline_since')
      .where('id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(offlineSince.offline_since).toBeNull();
    expect((await eventsOf(listening.tenantId)).map((e) => e.type)).toEqual(['device.offline']);
    // Its first heartbeat after the silence costs what any heartbeat costs (no online transition).
    const statements = async () => {
      const before = h.deps.database.queries.count;
      await heartbeat(device);
      return h.deps.database.queries.count - before;
    };
    const afterSilence = await statements();
    expect(afterSilence).toBe(await statements());
    expect(await eventsOf(quiet.tenantId)).toEqual([]);
  });

  it('subscriptions may list the presence events (REST and GraphQL); unknown types are refused', async () => {
    const { tenantId, apiKey } = await h.tenant();
    tenants.push(tenantId);
    const rest = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/webhooks`,
      apiKey,
      body: {
        url: 'https://presence.example/rest',
        events: ['device.offline', 'device.online'],
        secret: WEBHOOK_SECRET,
      },
    });
    expect(rest.status).toBe(201);
    expect(rest.body.webhook.events).toEqual(['device.offline', 'device.online']);
    const gql = await h.graphql(
      apiKey,
      'mutation($url: String!, $events: [String!]!, $secret: String!) { createWebhook(url: $url, events: $events, secret: $secret) { webhook { events } } }',
      {
        url: 'https://presence.example/graphql',
        events: ['device.online'],
        secret: WEBHOOK_SECRET,
      },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.createWebhook.webhook.events).toEqual(['device.online']);
    const bad = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/webhooks`,
      apiKey,
      body: { url: 'https://presence.example/bad', events: ['device.exploded'], secret: WEBHOOK_SECRET },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toContain('device.offline');
  });
});
