import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { spawn } from 'node:child_process';
import { harness, type Harness } from './harness.js';
import { onPostgres, runDatabaseUrl, workerRedisUrl } from './worker-services.js';
import { buildDoor, buildVenue, buildDevice, slotInDays } from './builders.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { Receiver } from './receiver.js';
import { ROOT, childEnv } from './processes.js';

// The deployment of docs/deployment.md in small: two API processes and a `npm run worker` on one
// PostgreSQL database and one Redis behave as one service — bookings (no double booking across
// processes), request rate limits, guessing limits and webhooks (each event delivered once).
// PGlite allows one process per directory, so this runs on the PostgreSQL run with REDIS_URL.

const redisUrl = workerRedisUrl();
const runnable = Boolean(onPostgres && redisUrl);
const title = runnable
  ? 'two API processes and a worker on one PostgreSQL and Redis'
  : 'two API processes and a worker — SKIPPED: needs DATABASE_URL (PostgreSQL) and REDIS_URL; PGlite allows one process per directory';
if (!runnable) console.info(title);

describe.skipIf(!runnable)(title, () => {
  let h: Harness;
  let databaseUrl = '';
  const api: ServerProcess[] = [];
  let stopWorker: (() => Promise<number | null>) | undefined;
  const receiver = new Receiver();
  const env = () => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl ?? '',
    PORTIER_SECRET: 'scale-out-secret-shared-by-all-0123',
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    TRUST_PROXY: 'true',
    DATABASE_POOL_SIZE: '4',
  });
  /** The n-th request goes to process n % 2. */
  const at = (n: number) => api[n % 2].url;
  const json = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    h = await harness();
    databaseUrl = (await runDatabaseUrl()) ?? '';
    await receiver.start();
    api.push(...(await Promise.all([startServerProcess(env()), startServerProcess(env())])));
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: ROOT,
      env: childEnv({ ...env(), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    worker.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)));
    stopWorker = () => {
      if (worker.exitCode === null) worker.kill('SIGTERM');
      return exited;
    };
    const deadline = Date.now() + 240_000;
    while (!log.includes('webhook worker started')) {
      if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`worker did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 300_000);

  afterAll(async () => {
    const codes = await Promise.all([...api.map((s) => s.stop()), stopWorker?.()]);
    await receiver.stop();
    expect(codes).toEqual([0, 0, 0]);
  });

  it(
    'bookings: 20 concurrent requests for one slot across both processes make one booking',
    { timeout: 60_000 },
    async () => {
      const v = await buildVenue(h);
      const slot = slotInDays(3);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          json(`${at(n)}/api/v1/tenants/${v.tenantId}/bookings`, {
            method: 'POST',
            headers: { authorization: `Bearer ${v.apiKey}` },
            body: JSON.stringify({ objectId: v.object.id, guestName: 'Ada', guestEmail: 'ada@example.com', ...slot }),
          }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const rows = await h.deps.database.db
        .selectFrom('bookings')
        .select('id')
        .where('object_id', '=', v.object.id)
        .execute();
      expect(rows).toHaveLength(1);
    },
  );

  it('request rate limit: one budget per key across both processes', { timeout: 60_000 }, async () => {
    const v = await buildVenue(h);
    const key = await h.key(v.tenantId, ['admin'], 6);
    const statuses: number[] = [];
    for (let n = 0; n < 8; n += 1) {
      statuses.push(
        (
          await fetch(`${at(n)}/api/v1/tenants/${v.tenantId}/objects/${v.object.id}/opening-hours`, {
            headers: { authorization: `Bearer ${key}` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it(
    'guessing limits: wrong SMS codes at a door and wrong activation codes count across processes; a valid QR token still opens',
    { timeout: 60_000 },
    async () => {
      const v = await buildVenue(h);
      const door = await buildDoor(h, v.tenantId, [v.object.id]);
      const { activationCode } = await buildDevice(h, v.tenantId, [door.id]);
      const activated = await json(`${at(0)}/api/devices/activate`, {
        method: 'POST',
        body: JSON.stringify({ activation_code: activationCode, serial: 'SN', firmware_version: '1' }),
      });
      expect(activated.status).toBe(200);
      const device = { id: activated.body.device_id as string, key: activated.body.device_key as string };
      const booked = await json(`${at(1)}/api/v1/tenants/${v.tenantId}/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${v.apiKey}` },
        body: JSON.stringify({
          objectId: v.object.id,
          guestName: 'Ada',
          guestEmail: 'ada@example.com',
          ...slotInDays(5),
        }),
      });
      expect(booked.status).toBe(201);
      const bookingId = booked.body.booking.id as string;
      // Confirmed and moved to now whatever the venue's opening hours (the test may run at night).
      await h.deps.database.db
        .updateTable('bookings')
        .set({
          status: 'CONFIRMED',
          start_time: new Date(Date.now() - 3_600_000),
          end_time: new Date(Date.now() + 3_600_000),
        })
        .where('id', '=', bookingId)
        .execute();
      const check = (n: number, token: string) =>
        json(`${at(n)}/api/devices/${device.id}/access-check`, {
          method: 'POST',
          headers: { authorization: `Bearer ${device.key}` },
          body: JSON.stringify({ token, doorId: door.id }),
        });
      const statuses: number[] = [];
      for (let n = 0; n < 12; n += 1) statuses.push((await check(n, String(30_000_000 + n))).status);
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
      const credentials = await json(`${at(0)}/api/v1/tenants/${v.tenantId}/bookings/${bookingId}/credentials`, {
        headers: { authorization: `Bearer ${v.apiKey}` },
      });
      for (const n of [0, 1]) {
        for (const token of [credentials.body.qrCode.token as string, credentials.body.sms.code as string]) {
          const res = await check(n, token);
          expect(res.body.reason ?? res.body.allowed, `${token} on process ${n}`).toBe(true);
        }
      }

      // Activation codes per client address (TRUST_PROXY: the address from X-Forwarded-For).
      const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      const wrong = JSON.stringify({
        activation_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG',
        serial: 'SN',
        firmware_version: '1',
      });
      const activations: number[] = [];
      for (let n = 0; n < 7; n += 1)
        activations.push(
          (
            await json(`${at(n)}/api/devices/activate`, {
              method: 'POST',
              headers: { 'x-forwarded-for': address },
              body: wrong,
            })
          ).status,
        );
      expect(activations).toEqual([400, 400, 400, 400, 400, 429, 429]);
    },
  );

  it(
    'webhooks: an event of a booking made on either process is delivered once, by whichever dispatcher took it',
    { timeout: 90_000 },
    async () => {
      const v = await buildVenue(h, { objects: 2 });
      // Made through the service: its signing secret is sealed under the processes' PORTIER_SECRET.
      const subscribed = await json(`${at(1)}/api/v1/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${v.apiKey}` },
        body: JSON.stringify({
          query:
            'mutation($url: String!) { createWebhook(url: $url, events: ["booking.created"], secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") { webhook { id } } }',
          variables: { url: receiver.url('/scale-out') },
        }),
      });
      expect(subscribed.body.data?.createWebhook.webhook.id, JSON.stringify(subscribed.body)).toBeTruthy();
      const ids: string[] = [];
      for (const n of [0, 1, 2, 3]) {
        const created = await json(`${at(n)}/api/v1/tenants/${v.tenantId}/bookings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${v.apiKey}` },
          body: JSON.stringify({
            objectId: v.objects[n % 2].id,
            guestName: 'Ada',
            guestEmail: 'ada@example.com',
            ...slotInDays(4 + n),
          }),
        });
        expect(created.status).toBe(201);
        ids.push(created.body.booking.id as string);
      }
      const deadline = Date.now() + 60_000;
      const delivered = () => receiver.requests.filter((r) => r.path === '/scale-out');
      while (delivered().length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      // A little longer: a second delivery of any event would show up now.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const bodies = delivered().map((r) => JSON.parse(r.body) as { id: string; data: { booking: { id: string } } });
      expect(bodies.map((b) => b.data.booking.id).sort()).toEqual([...ids].sort());
      expect(new Set(bodies.map((b) => b.id)).size).toBe(4);
    },
  );
});
