import { ONLINE_WINDOW_SECONDS } from '../src/modules/devices/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, requester, type Harness } from './harness.js';
import { buildActiveDevice, buildDevice, buildDoor, buildVenue } from './builders.js';
import { onPostgres } from './worker-services.js';
import type pg from 'pg';
import { buildApp, type App } from '../src/transport/http/app.js';
import { createMetrics, devicePoolOf } from '../src/kernel/metrics.js';
import type { AppDeps } from '../src/kernel/deps.js';

// GET /metrics (issue 12, "Also"): Prometheus text, off unless METRICS_TOKEN is set, then only
// with that bearer token.

const TOKEN = 'metrics-token-0123456789';

let h: Harness;
let app: App;
let request: ReturnType<typeof requester>;

async function appWith(env: Partial<AppDeps['env']>): Promise<App> {
  const deps: AppDeps = {
    ...h.deps,
    env: { ...h.deps.env, ...env },
    metrics: createMetrics({
      database: h.deps.database,
      pool: h.deps.database.pool,
      devicePool: devicePoolOf(h.deps.database),
      now: h.deps.now,
      onlineWindowSeconds: ONLINE_WINDOW_SECONDS,
    }),
  };
  // Load shedding is not under test here (0 turns its event-loop check off): on a busy machine
  // @fastify/under-pressure reads an interval without samples as an infinite delay and sheds.
  const built = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await built.fastify.ready();
  return built;
}

beforeAll(async () => {
  h = await harness();
  app = await appWith({ metricsToken: TOKEN });
  request = requester(app.fastify);
});
afterAll(async () => {
  await app?.fastify.close();
});

/** The value of one sample line, e.g. sample(text, 'portier_devices_online'). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('is off (404) without METRICS_TOKEN, also when the process measures', async () => {
    expect((await h.request({ method: 'GET', url: '/metrics' })).status).toBe(404);
    const off = await appWith({ metricsToken: undefined });
    try {
      const res = await requester(off.fastify)({ method: 'GET', url: '/metrics', apiKey: TOKEN });
      expect(res.status).toBe(404);
    } finally {
      await off.fastify.close();
    }
  });

  it('needs the token as a bearer token (401 otherwise, also for an API key)', async () => {
    const { apiKey } = await h.tenant();
    for (const key of [null, 'wrong-token-0123456789', apiKey]) {
      const res = await request({ method: 'GET', url: '/metrics', apiKey: key });
      expect(res.status, res.text).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('serves requests by route and status, latency, the pool, the webhook queue, access checks by reason and devices online', async () => {
    const venue = await buildVenue(h);
    const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
    const { activationCode } = await buildDevice(h, venue.tenantId, [door.id]);
    const activated = await request({
      method: 'POST',
      url: '/api/devices/activate',
      body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' },
    });
    expect(activated.status, activated.text).toBe(200);
    const device = { deviceId: activated.body.device_id as string, deviceKey: activated.body.device_key as string };
    const url = `/api/v1/tenants/${venue.tenantId}/objects/${venue.object.id}/booking-rules`;
    expect((await request({ method: 'GET', url, apiKey: venue.apiKey })).status).toBe(200);
    expect((await request({ method: 'GET', url, apiKey: 'svc_wrong00000000000000000000' })).status).toBe(401);
    const heartbeat = await request({
      method: 'POST',
      url: `/api/devices/${device.deviceId}/heartbeat`,
      apiKey: device.deviceKey,
      body: { cpu_percent: 1, memory_percent: 1, wifi_signal_dbm: -40, door_states: {} },
    });
    expect(heartbeat.status).toBe(200);
    const check = await request({
      method: 'POST',
      url: `/api/devices/${device.deviceId}/access-check`,
      apiKey: device.deviceKey,
      body: { token: 'xx', doorId: door.id },
    });
    expect(check.status).toBe(200);
    expect(check.body.allowed).toBe(false);

    const res = await request({ method: 'GET', url: '/metrics', apiKey: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const route = '/api/v1/tenants/:tenantId/objects/:objectId/booking-rules';
    expect(sample(text, 'portier_http_requests_total', { route, method: 'GET', status: '200' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'portier_http_requests_total', { route, method: 'GET', status: '401' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      sample(text, 'portier_http_request_duration_seconds_count', { route, status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'portier_http_request_duration_seconds_bucket', { route, status: '200', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(venue.tenantId); // route patterns, never raw URLs
    expect(sample(text, 'portier_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'portier_db_pool_max_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portier_webhook_queue_depth', { state: 'pending' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'portier_webhook_deliveries_completed', { status: 'succeeded' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'portier_access_checks_total', { outcome: 'denied', reason: 'invalid_token' })).toBe(1);
    expect(sample(text, 'portier_devices_online')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portier_process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

// Issue #42 item 6: the device routes' own pool (PostgreSQL) in the scrape, so a door's wait for a
// connection is seen apart from the main pool's.
describe('GET /metrics, the device pool', () => {
  const scrape = async () => (await request({ method: 'GET', url: '/metrics', apiKey: TOKEN })).text;

  it.runIf(!onPostgres)('PGlite: not reported (the device routes share the one connection)', async () => {
    expect(await scrape()).not.toContain('portier_db_device_pool');
  });

  it.runIf(onPostgres)(
    'PostgreSQL: open, idle and waiting, and its size; a check waiting for a connection of its own pool shows as waiting',
    async () => {
      const venue = await buildVenue(h);
      const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
      const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
      const check = () =>
        request({
          method: 'POST',
          url: `/api/devices/${device.deviceId}/access-check`,
          apiKey: device.deviceKey,
          body: { token: 'xx', doorId: door.id },
        });
      expect((await check()).status).toBe(200);
      const max = h.deps.env.databaseDevicePoolSize;
      let text = await scrape();
      expect(sample(text, 'portier_db_device_pool_max_connections')).toBe(max);
      expect(sample(text, 'portier_db_device_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'portier_db_device_pool_connections', { state: 'waiting' })).toBe(0);

      // Every connection of the device pool held: the next check waits for one (the main pool is free).
      const pool = h.deps.database.device.pool as pg.Pool;
      const held = await Promise.all(Array.from({ length: max }, () => pool.connect()));
      const waiting = check();
      try {
        for (let i = 0; i < 200; i += 1) {
          text = await scrape();
          if (sample(text, 'portier_db_device_pool_connections', { state: 'waiting' }) === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(sample(text, 'portier_db_device_pool_connections', { state: 'waiting' })).toBe(1);
        expect(sample(text, 'portier_db_device_pool_connections', { state: 'open' })).toBe(max);
        expect(sample(text, 'portier_db_device_pool_connections', { state: 'idle' })).toBe(0);
      } finally {
        for (const client of held) client.release();
      }
      // Answered once a connection is free, or 503 after the pool's connect timeout on a very slow machine.
      expect([200, 503]).toContain((await waiting).status);
      text = await scrape();
      expect(sample(text, 'portier_db_device_pool_connections', { state: 'waiting' })).toBe(0);
    },
  );
});
