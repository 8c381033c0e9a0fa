import net, { type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildDevice, buildDoor, buildVenue } from './builders.js';
import { DoorClient, memoryStore } from '../examples/door-client/door-client.js';
import { doorTransport } from '../examples/door-client/transport.js';
import { HEARTBEAT_INTERVAL_SECONDS } from '../src/modules/devices/devices.rules.js';
import { MIN_KEEP_ALIVE_TIMEOUT_SECONDS, readEnv } from '../src/kernel/env.js';

// Issue #42 item 6: a door keeps one connection to Portier. A door that connects per request meets
// the accept queue when a busy host has stalled the server, and a connection dropped there is
// retried by TCP after 1 s, 3 s and 7 s (p99 7.2 s at 300 checks/s). The server keeps an idle
// connection past the heartbeat interval; the reference door client reuses it, and a connect that
// is not accepted is abandoned after a second and made again.

let h: Harness;
let baseUrl: string;
const serverConnections: Socket[] = [];

beforeAll(async () => {
  h = await harness();
  h.app.fastify.server.on('connection', (socket: Socket) => void serverConnections.push(socket));
  baseUrl = await h.app.fastify.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await new Promise<void>((resolve) => h.app.fastify.server.close(() => resolve()));
});

async function activatedDoor(fetchFn?: typeof fetch) {
  const venue = await buildVenue(h, { objects: 1 });
  const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id], { gpioPin: 17 });
  const { activationCode } = await buildDevice(h, venue.tenantId, [door.id]);
  const client = new DoorClient({ baseUrl, store: memoryStore(), ...(fetchFn ? { fetch: fetchFn } : {}) });
  await client.activate(activationCode);
  return { client, door };
}

describe('a door keeps its connection', () => {
  it('the server keeps an idle door connection open past the heartbeat interval, and the reference client sends every heartbeat and scan on it', async () => {
    const transport = doorTransport();
    const { client, door } = await activatedDoor(transport.fetch);
    const before = serverConnections.length;
    expect(await client.heartbeat()).toBe(true);
    expect((await client.scan('not-a-token', door.id)).mode).toBe('online');
    // Idle for longer than a door waits between heartbeats: the next one still finds the connection.
    await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT_INTERVAL_SECONDS + 1) * 1000));
    expect(await client.heartbeat()).toBe(true);
    expect(await client.heartbeat()).toBe(true);
    // activate + config, two heartbeats, a scan, two more heartbeats: one connection for all of them.
    expect(transport.connectionsOpened()).toBe(1);
    expect(serverConnections.length).toBe(before);
    transport.close();
  }, 60_000);

  it('the default DoorClient (no fetch given) reuses one connection, and stop() closes it', async () => {
    const before = serverConnections.length;
    const { client } = await activatedDoor();
    expect(await client.heartbeat()).toBe(true);
    expect(await client.heartbeat()).toBe(true);
    expect(serverConnections.length - before).toBe(1);
    const socket = serverConnections[serverConnections.length - 1];
    expect(socket.destroyed).toBe(false);
    client.stop();
    await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
    expect(socket.destroyed).toBe(true);
  });

  it('answers say how long the server keeps the connection (Keep-Alive: timeout=72), at least the minimum', async () => {
    const keepAlive: (string | null)[] = [];
    const { client } = await activatedDoor(async (input, init) => {
      const res = await fetch(input, init);
      keepAlive.push(res.headers.get('keep-alive'));
      return res;
    });
    expect(await client.heartbeat()).toBe(true);
    expect(keepAlive.at(-1)).toBe('timeout=72');
    expect(72).toBeGreaterThanOrEqual(MIN_KEEP_ALIVE_TIMEOUT_SECONDS);
    expect(MIN_KEEP_ALIVE_TIMEOUT_SECONDS).toBeGreaterThan(HEARTBEAT_INTERVAL_SECONDS);
  });
});

describe('KEEP_ALIVE_TIMEOUT_SECONDS', () => {
  it.each([
    ['', 72],
    ['20', 20],
    ['300', 300],
  ])('"%s" → %i s', (raw, seconds) => {
    expect(readEnv({ KEEP_ALIVE_TIMEOUT_SECONDS: raw }).keepAliveTimeoutSeconds).toBe(seconds);
  });

  it.each(['15', '5', '0', '-1', '1.5', 'forever', '20s'])('refuses "%s", naming the setting', (raw) => {
    expect(() => readEnv({ KEEP_ALIVE_TIMEOUT_SECONDS: raw })).toThrow(/KEEP_ALIVE_TIMEOUT_SECONDS/);
  });
});

describe('the door transport', () => {
  /** A socket that never connects: a SYN the server's full accept queue dropped. */
  const neverConnects = (): Socket => {
    const socket = new net.Socket();
    (socket as unknown as { connecting: boolean }).connecting = true;
    return socket;
  };

  it('abandons a connect that is not accepted and connects again, within the same request', async () => {
    const made: string[] = [];
    const transport = doorTransport({
      connectTimeoutMs: 200,
      createConnection: (options) => {
        if (made.push(made.length === 0 ? 'dropped' : 'real') === 1) return neverConnects();
        return net.connect(options as net.NetConnectOpts);
      },
    });
    const res = await transport.fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(200);
    expect(made).toEqual(['dropped', 'real']);
    transport.close();
  });

  it('gives up after its attempts with an error (DoorClient then decides offline) instead of waiting out TCP’s back-off', async () => {
    let attempts = 0;
    const transport = doorTransport({
      connectTimeoutMs: 100,
      connectAttempts: 3,
      createConnection: () => {
        attempts += 1;
        return neverConnects();
      },
    });
    await expect(transport.fetch(new URL('/healthz', baseUrl))).rejects.toThrow(/connect timed out/);
    expect(attempts).toBe(3);
    transport.close();
  });

  it('does not send a request again once it was sent (a slow answer is the caller deadline’s)', async () => {
    let connects = 0;
    const silent = net.createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as net.AddressInfo).port;
    const transport = doorTransport({
      connectTimeoutMs: 100,
      createConnection: (options) => {
        connects += 1;
        return net.connect(options as net.NetConnectOpts);
      },
    });
    await expect(
      transport.fetch(`http://127.0.0.1:${port}/api/devices/x/access-check`, {
        method: 'POST',
        body: '{}',
        signal: AbortSignal.timeout(500),
      }),
    ).rejects.toThrow();
    expect(connects).toBe(1);
    transport.close();
    silent.close();
  });
});
