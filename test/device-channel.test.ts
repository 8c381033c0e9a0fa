import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import {
  buildActiveDevice,
  buildDevice,
  buildDoor,
  buildVenue,
  buildWebhook,
  slotInDays,
  bookViaRest,
} from './builders.js';
import { eventually } from './subscription-clients.js';
import { deviceChannelsOf } from '../src/modules/devices/index.js';
import { DoorClient, memoryStore } from '../examples/door-client/door-client.js';
import { reconnectDelay } from '../examples/door-client/channel.js';

// The device command channel (docs/devices.md, "The command channel"), both databases. Commands are
// queued on the harness's app ("A", never listening on a port); channels are held on B, an app of
// its own on the same database with its own live hub: what A queues reaches B only through the
// live transport (NOTIFY on PGlite and PostgreSQL, Redis pub/sub with REDIS_URL), as between two
// processes. test/e2e/device-channel.processes.test.ts runs two real server processes and holds
// the one second; here, on a shared test machine, "instant" is asserted as well under the
// 15 s heartbeat interval (no heartbeat is sent meanwhile, so only the channel can bring it).

let h: Harness;
let b: OwnApp;
let bUrl: string;

beforeAll(async () => {
  h = await harness();
  b = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  bUrl = await b.app.fastify.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await b?.close();
});

const open: Frames[] = [];
afterEach(() => {
  for (const f of open.splice(0)) f.close();
});

/** Far below the heartbeat's 15 s: only the channel can have brought it. */
const INSTANT_MS = 5_000;

const TELEMETRY = { cpu_percent: 5, memory_percent: 20, wifi_signal_dbm: -50, door_states: {} };

interface Frame {
  event: string;
  data: Record<string, unknown>;
  at: number;
}

/** A raw SSE reader of one channel: every frame with the time it arrived. */
class Frames {
  readonly frames: Frame[] = [];
  raw = '';
  ended = false;
  status = 0;
  private req: http.ClientRequest | undefined;

  static open(deviceId: string, key: string | null, url = bUrl): Promise<Frames> {
    const f = new Frames();
    open.push(f);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (key) headers.authorization = `Bearer ${key}`;
      f.req = http.get(`${url}/api/devices/${deviceId}/channel`, { headers, agent: false }, (res) => {
        f.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        let buffered = '';
        res.on('data', (chunk: string) => {
          f.raw += chunk;
          buffered += chunk;
          let end;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) f.frames.push({ event, data: JSON.parse(data), at: Date.now() });
          }
        });
        res.on('end', () => (f.ended = true));
        res.on('error', () => (f.ended = true));
        resolve(f);
      });
      f.req.on('error', reject);
    });
  }

  of(event: string): Frame[] {
    return this.frames.filter((f) => f.event === event);
  }

  private readonly taken = new Map<string, number>();

  /** The first frame of `event` not taken yet (waiting for it). */
  async next(event: string, timeoutMs = 10_000): Promise<Frame> {
    const index = this.taken.get(event) ?? 0;
    const frame = await eventually(() => this.of(event)[index], timeoutMs, `a ${event} frame`);
    this.taken.set(event, index + 1);
    return frame;
  }

  close(): void {
    this.req?.destroy();
  }
}

async function site() {
  const v = await buildVenue(h);
  const door = await buildDoor(h, v.tenantId, [v.object.id], { gpioPin: 17, unlockDurationSeconds: 5 });
  const device = await buildActiveDevice(h, v.tenantId, [door.id]);
  return { ...v, door, device };
}

/** Queues an unlock on A as the dashboard does (GraphQL createDeviceCommand). */
async function unlock(s: { apiKey: string; door: { id: string } }, deviceId: string) {
  const res = await h.graphql(
    s.apiKey,
    'mutation($d: ID!, $door: ID!) { createDeviceCommand(deviceId: $d, type: "unlock", doorId: $door, durationSeconds: 4) { command { id status } } }',
    { d: deviceId, door: s.door.id },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createDeviceCommand.command.id as string;
}

const heartbeat = (deviceId: string, key: string) =>
  h.request({ method: 'POST', url: `/api/devices/${deviceId}/heartbeat`, apiKey: key, body: TELEMETRY });

const openChannels = () => deviceChannelsOf(b.deps)?.size ?? 0;

describe('the command channel', () => {
  it('hands a command queued on another app to the open channel within a second, once: the heartbeat does not repeat it', async () => {
    const s = await site();
    const channel = await Frames.open(s.device.deviceId, s.device.deviceKey);
    expect(channel.status).toBe(200);
    const ready = await channel.next('ready');
    expect(ready.data).toEqual({
      channel_id: expect.any(String),
      device_id: s.device.deviceId,
      ping_interval_seconds: 25,
    });
    const queuedAt = Date.now();
    const id = await unlock(s, s.device.deviceId);
    const got = await channel.next('command', 5_000);
    expect(got.at - queuedAt).toBeLessThan(INSTANT_MS);
    expect(got.data).toMatchObject({
      id,
      type: 'unlock',
      status: 'delivered',
      payload: { gpio_pin: 17, duration_seconds: 4 },
    });
    const beat = await heartbeat(s.device.deviceId, s.device.deviceKey);
    expect(beat.status).toBe(200);
    expect(beat.body.pending_commands).toEqual([]);
    const poll = await h.request({
      method: 'GET',
      url: `/api/devices/${s.device.deviceId}/commands`,
      apiKey: s.device.deviceKey,
    });
    expect(poll.body.commands).toEqual([]);
    expect(channel.of('command')).toHaveLength(1);
  });

  it('brings commands queued while the door was away as soon as it connects, and a door without a channel still gets them by heartbeat', async () => {
    const s = await site();
    const id = await unlock(s, s.device.deviceId);
    const channel = await Frames.open(s.device.deviceId, s.device.deviceKey);
    expect((await channel.next('command')).data.id).toBe(id);

    const polling = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    const other = await unlock(s, polling.deviceId);
    const beat = await heartbeat(polling.deviceId, polling.deviceKey);
    expect(beat.body.pending_commands.map((c: { id: string }) => c.id)).toEqual([other]);
    expect(channel.of('command').map((f) => f.data.id)).toEqual([id]);
  });

  it('keeps one channel per device: a second one replaces the first, which is told why and ended', async () => {
    const s = await site();
    const first = await Frames.open(s.device.deviceId, s.device.deviceKey);
    await first.next('ready');
    const second = await Frames.open(s.device.deviceId, s.device.deviceKey);
    await second.next('ready');
    expect((await first.next('closed')).data).toEqual({ reason: 'replaced' });
    await eventually(() => (first.ended ? true : undefined), 5_000, 'the first channel to end');
    const id = await unlock(s, s.device.deviceId);
    expect((await second.next('command')).data.id).toBe(id);
    expect(first.of('command')).toHaveLength(0);
    expect(second.ended).toBe(false);
  });

  it('closes the channel of a device revoked on another app within a second; the key then opens none', async () => {
    const s = await site();
    const channel = await Frames.open(s.device.deviceId, s.device.deviceKey);
    await channel.next('ready');
    const before = openChannels();
    const revokedAt = Date.now();
    const res = await h.graphql(s.apiKey, 'mutation($id: ID!) { revokeDevice(id: $id) { status } }', {
      id: s.device.deviceId,
    });
    expect(res.body.data.revokeDevice.status).toBe('REVOKED');
    const closed = await channel.next('closed', 5_000);
    expect(closed.data).toEqual({ reason: 'revoked' });
    expect(closed.at - revokedAt).toBeLessThan(INSTANT_MS);
    await eventually(() => (channel.ended ? true : undefined), 5_000, 'the channel to end');
    expect(openChannels()).toBe(before - 1);
    const again = await Frames.open(s.device.deviceId, s.device.deviceKey);
    expect(again.status).toBe(401);
  });

  it('refuses a missing key (401), another device’s key (403) and an API key (401), as the other device routes do', async () => {
    const s = await site();
    const other = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    expect((await Frames.open(s.device.deviceId, null)).status).toBe(401);
    const wrong = await Frames.open(s.device.deviceId, other.deviceKey);
    expect(wrong.status).toBe(403);
    expect(wrong.raw).toContain('device_mismatch');
    expect((await Frames.open(s.device.deviceId, s.apiKey)).status).toBe(401);
    expect((await Frames.open(s.device.deviceId, 'svc_dk_not-a-key')).status).toBe(401);
  });
});

describe('the reference door client on the channel', () => {
  it('unlocks within a second of the command being queued and reports it executed', async () => {
    const s = await site();
    const unlocks: { pin: number; seconds: number; at: number }[] = [];
    const client = new DoorClient({
      baseUrl: bUrl,
      store: memoryStore(),
      channel: { initialDelayMs: 50, maxDelayMs: 200 },
      actuator: {
        unlock: async (pin, seconds) => void unlocks.push({ pin, seconds, at: Date.now() }),
        doorStates: () => ({}),
      },
    });
    const { activationCode } = await buildDevice(h, s.tenantId, [s.door.id], 'Reference door');
    await client.activate(activationCode);
    try {
      client.start();
      await eventually(() => (client.channelStatus === 'open' ? true : undefined), 10_000, 'the channel to open');
      const queuedAt = Date.now();
      const id = await unlock(s, client.deviceId!);
      const done = await eventually(() => unlocks[0], 5_000, 'the unlock');
      expect(done.at - queuedAt).toBeLessThan(INSTANT_MS);
      expect(done).toMatchObject({ pin: 17, seconds: 4 });
      const status = async () =>
        (
          await h.deps.database.db
            .selectFrom('device_commands')
            .select(['status', 'delivered_at'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      for (let i = 0; i < 100 && (await status()) !== 'executed'; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect(await status()).toBe('executed');
    } finally {
      client.stop();
    }
  });

  it('falls back to heartbeats while the channel cannot connect, and keeps trying it', async () => {
    const s = await site();
    const { activationCode } = await buildDevice(h, s.tenantId, [s.door.id], 'Cut-off door');
    const unlocks: number[] = [];
    const logs: string[] = [];
    // Requests reach Portier (inject into A); the channel's own connection goes to a closed port.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const client = new DoorClient({
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        const res = await h.app.fastify.inject({
          method: (init?.method ?? 'GET') as 'GET',
          url: url.pathname,
          headers: init?.headers as Record<string, string>,
          payload: init?.body as string | undefined,
        });
        return new Response(res.body.length ? res.body : null, { status: res.statusCode });
      },
      channel: { initialDelayMs: 20, maxDelayMs: 40 },
      store: memoryStore(),
      log: (m) => void logs.push(m),
      actuator: { unlock: async (pin) => void unlocks.push(pin), doorStates: () => ({}) },
    });
    await client.activate(activationCode);
    try {
      client.openChannel();
      await eventually(
        () => (logs.filter((m) => m.includes('unreachable')).length >= 2 ? true : undefined),
        10_000,
        'retries',
      );
      expect(client.channelStatus).not.toBe('open');
      await unlock(s, client.deviceId!);
      expect(await client.heartbeat()).toBe(true);
      expect(unlocks).toEqual([17]);
      expect(logs.some((m) => /next attempt in \d+ ms \(heartbeats go on\)/.test(m))).toBe(true);
    } finally {
      client.stop();
    }
  });

  it('computes the reconnect back-off: doubling, capped, with jitter', () => {
    expect(reconnectDelay(0, 1000, 60_000, () => 1)).toBe(1000);
    expect(reconnectDelay(0, 1000, 60_000, () => 0)).toBe(500);
    expect(reconnectDelay(3, 1000, 60_000, () => 1)).toBe(8000);
    expect(reconnectDelay(10, 1000, 60_000, () => 1)).toBe(60_000);
    expect(reconnectDelay(500, 1000, 60_000, () => 0.5)).toBe(45_000);
  });
});

describe('command and access webhooks', () => {
  const eventsOf = (tenantId: string, type: string) =>
    h.deps.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('tenant_id', '=', tenantId)
      .where('type', '=', type)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  const report = (s: Awaited<ReturnType<typeof site>>, id: string, body: unknown) =>
    h.request({
      method: 'PATCH',
      url: `/api/devices/${s.device.deviceId}/commands/${id}`,
      apiKey: s.device.deviceKey,
      body,
    });

  it('writes device.command.executed and device.command.failed once, when the device first reports', async () => {
    const s = await site();
    const ok = await unlock(s, s.device.deviceId);
    const bad = await unlock(s, s.device.deviceId);
    await heartbeat(s.device.deviceId, s.device.deviceKey);
    expect((await report(s, ok, { status: 'executed', result: { unlocked: true } })).status).toBe(200);
    expect((await report(s, ok, { status: 'executed', result: { unlocked: true } })).status).toBe(200);
    expect((await report(s, bad, { status: 'failed', error: 'relay stuck' })).status).toBe(200);
    expect((await report(s, bad, { status: 'executed' })).status).toBe(409);
    const executed = await eventsOf(s.tenantId, 'device.command.executed');
    expect(executed).toHaveLength(1);
    expect(executed[0].data).toEqual({
      device: { id: s.device.deviceId },
      command: {
        id: ok,
        type: 'unlock',
        doorId: s.door.id,
        payload: { gpio_pin: 17, duration_seconds: 4 },
        status: 'executed',
        result: { unlocked: true },
        error: null,
        createdAt: expect.any(String),
        deliveredAt: expect.any(String),
        completedAt: expect.any(String),
      },
    });
    const failed = await eventsOf(s.tenantId, 'device.command.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].data).toMatchObject({ command: { id: bad, status: 'failed', error: 'relay stuck' } });
  });

  it('writes access.decided only for a tenant whose webhook subscribed to it', async () => {
    const quiet = await site();
    const loud = await site();
    await buildWebhook(h, loud.tenantId, {
      url: `https://access.example/${loud.tenantId}`,
      events: ['access.decided'],
    });
    // Another tenant's subscription to everything else does not opt it in.
    await buildWebhook(h, quiet.tenantId, {
      url: `https://access.example/${quiet.tenantId}`,
      events: ['booking.created', 'device.command.executed'],
    });
    const slot = slotInDays(2);
    const bookingId = await bookViaRest(h, {
      tenantId: loud.tenantId,
      apiKey: loud.apiKey,
      objectId: loud.object.id,
      ...slot,
      status: 'CONFIRMED',
    });
    for (const s of [quiet, loud]) {
      const res = await h.request({
        method: 'POST',
        url: `/api/devices/${s.device.deviceId}/access-check`,
        apiKey: s.device.deviceKey,
        body: { token: 'QR-not-a-real-token', doorId: s.door.id },
      });
      expect(res.body).toMatchObject({ allowed: false, reason: 'invalid_token' });
    }
    await h.deps.accessLog.flush();
    expect(await eventsOf(quiet.tenantId, 'access.decided')).toEqual([]);
    const decided = await eventsOf(loud.tenantId, 'access.decided');
    expect(decided).toHaveLength(1);
    expect(decided[0].data).toEqual({
      id: expect.any(String),
      deviceId: loud.device.deviceId,
      doorId: loud.door.id,
      bookingId: null,
      credentialType: expect.toBeOneOf([null, 'qr', 'sms']),
      allowed: false,
      reason: 'invalid_token',
      checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      mode: 'online',
      tokenId: null,
    });
    // The id is the access-log entry's, as in the accessDecided subscription.
    const entry = await h.deps.database.db
      .selectFrom('access_log')
      .select('id')
      .where('id', '=', decided[0].data.id as string)
      .executeTakeFirst();
    expect(entry).toBeDefined();
    expect(bookingId).toBeTruthy();
  });
});
