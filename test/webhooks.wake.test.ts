import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET, bookViaRest, buildVenue, buildWebhook, setBookingStatus, slotInDays } from './builders.js';
import { createWebhook } from '../src/modules/webhooks/webhooks.service.js';
import { ServerSecret } from '../src/kernel/crypto.js';
import { Receiver, type ReceivedRequest } from './receiver.js';
import { WebhookDispatcher, dispatcherOptionsOf, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.js';
import { onPostgres, runDatabaseUrl } from './worker-services.js';
import { ROOT, childEnv } from './processes.js';

// Webhooks go out when their event commits, not at the next poll (docs/webhooks.md#delivery-guarantees):
// the commit NOTIFYs every dispatcher LISTENing, in this process or another. The fallback poll is
// set to a minute here, so a delivery that arrives within the bound was woken, not polled. The
// bounds are generous waits, not timings (speed is the bench's: webhook throughput).

const NO_POLL_MS = 60_000;
/** Long enough for any wake-up on a busy machine, far shorter than the fallback poll. */
const WAKE_BOUND_MS = 5_000;

let h: Harness;
const receiver = new Receiver();
const dispatchers: WebhookDispatcher[] = [];

beforeAll(async () => {
  h = await harness();
  await receiver.start();
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  receiver.reply = () => ({ status: 204 });
});
afterAll(async () => {
  await receiver.stop();
});

/** A background dispatcher that only a notification (or an ending attempt) wakes. */
async function started(overrides: Partial<DispatcherOptions> = {}): Promise<WebhookDispatcher> {
  const d = new WebhookDispatcher(
    dispatcherOptionsOf(h.deps, { sweeps: [], pollIntervalMs: NO_POLL_MS, ...overrides }),
  );
  dispatchers.push(d);
  d.start();
  await d.listeningReady();
  return d;
}

/** The requests to `path` so far. */
const at = (path: string) => receiver.requests.filter((r) => r.path === path);

/** Waits until `count` requests reached `path`, at most `ms`; returns whether they did. */
async function arrived(path: string, count: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (at(path).length < count) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('wake on commit', () => {
  it('a booking committed through the API is delivered without waiting for the poll', async () => {
    const v = await buildVenue(h);
    const path = `/wake/${v.tenantId}`;
    await buildWebhook(h, v.tenantId, { url: receiver.url(path), events: ['booking.created'] });
    await started();
    const book = (days: number) =>
      bookViaRest(h, { tenantId: v.tenantId, apiKey: v.apiKey, objectId: v.object.id, ...slotInDays(days) });

    const first = await book(3);
    expect(await arrived(path, 1, WAKE_BOUND_MS)).toBe(true);
    // The dispatcher is idle now (its first pass and the one its ended attempt asked for are
    // done); the next poll is a minute away.
    await pause(300);
    const second = await book(4);
    expect(await arrived(path, 2, WAKE_BOUND_MS)).toBe(true);
    expect(at(path).map((r) => (JSON.parse(r.body) as { data: { booking: { id: string } } }).data.booking.id)).toEqual([
      first,
      second,
    ]);
  });

  it('a redelivery asked for through the API goes out at once too', async () => {
    const v = await buildVenue(h);
    const path = `/redeliver/${v.tenantId}`;
    const webhook = await buildWebhook(h, v.tenantId, { url: receiver.url(path), events: ['booking.created'] });
    await started();
    await bookViaRest(h, { tenantId: v.tenantId, apiKey: v.apiKey, objectId: v.object.id, ...slotInDays(5) });
    expect(await arrived(path, 1, WAKE_BOUND_MS)).toBe(true);
    await pause(300);
    const eventId = String(at(path)[0].headers['webhook-id']);
    const redelivered = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/webhooks/${webhook.id}/events/${eventId}/redeliver`,
      apiKey: v.apiKey,
    });
    expect(redelivered.status).toBe(202);
    expect(await arrived(path, 2, WAKE_BOUND_MS)).toBe(true);
    expect(at(path).map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
  });
});

describe('order per booking', () => {
  it('each booking’s events arrive in data.sequence order while bookings go in parallel, through a retry, with two dispatchers', async () => {
    const v = await buildVenue(h);
    const path = `/order/${v.tenantId}`;
    await buildWebhook(h, v.tenantId, {
      url: receiver.url(path),
      events: ['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.cancelled'],
    });
    const sequenceOf = (r: ReceivedRequest) =>
      JSON.parse(r.body) as { type: string; data: { booking: { id: string }; sequence: number } };
    // Answers take 0–4 ms, so attempts in flight finish in any order; the first attempt of the
    // first booking's second event fails (a retry 5 s later, its later events must wait for it).
    let failedOnce = '';
    let firstBooking = '';
    receiver.reply = (r) => {
      const event = sequenceOf(r);
      if (r.path === path && event.data.booking.id === firstBooking && event.data.sequence === 2 && !failedOnce) {
        failedOnce = event.data.booking.id;
        return { status: 503 };
      }
      return { status: 204, hold: pause(Math.floor(Math.random() * 5)) };
    };
    // Small fan-out batches: a batch takes the rest of its bookings' waiting events with it.
    await started({ perWebhook: 8, fanOutBatch: 2 });
    await started({ perWebhook: 8, fanOutBatch: 2 });

    const BOOKINGS = 12;
    const slots = Array.from({ length: BOOKINGS }, (_, i) => slotInDays(10 + i));
    const ids = await Promise.all(
      slots.map(async (slot, i) => {
        const id = await bookViaRest(h, { tenantId: v.tenantId, apiKey: v.apiKey, objectId: v.object.id, ...slot });
        if (i === 0) firstBooking = id;
        await setBookingStatus(h, v, id, 'CONFIRMED');
        const start = new Date(new Date(slot.startTime).getTime() + 2 * 3600_000);
        const moved = await h.request({
          method: 'PATCH',
          url: `/api/v1/tenants/${v.tenantId}/bookings/${id}`,
          apiKey: v.apiKey,
          body: { startTime: start.toISOString(), endTime: new Date(start.getTime() + 3600_000).toISOString() },
        });
        if (moved.status !== 200) throw new Error(`reschedule failed: ${moved.text}`);
        await setBookingStatus(h, v, id, 'CANCELLED');
        return id;
      }),
    );

    // Four events per booking, and the one failed attempt (retried 5 s later, a timer, not the poll).
    expect(await arrived(path, BOOKINGS * 4 + 1, 60_000)).toBe(true);
    const arrivals = at(path).map(sequenceOf);
    for (const id of ids) {
      const sequences = arrivals.filter((e) => e.data.booking.id === id).map((e) => e.data.sequence);
      expect({ id, sequences }).toEqual({ id, sequences: id === firstBooking ? [1, 2, 2, 3, 4] : [1, 2, 3, 4] });
    }
    // Bookings went in parallel: some booking's events arrived between two of another's.
    const order = arrivals.map((e) => e.data.booking.id);
    const interleaved = ids.some((id) => {
      const first = order.indexOf(id);
      const last = order.lastIndexOf(id);
      return order.slice(first, last).some((other) => other !== id);
    });
    expect(interleaved).toBe(true);
  });
});

const WORKER_SECRET = 'wake-worker-secret-0123456789abcdef';
const runnable = onPostgres;
const title = runnable
  ? 'wake across processes (PostgreSQL)'
  : 'wake across processes — SKIPPED: needs DATABASE_URL (PostgreSQL); PGlite allows one process per directory';

describe.skipIf(!runnable)(title, () => {
  it('a listening connection that breaks is reopened, and what committed meanwhile still goes out without the poll', async () => {
    const v = await buildVenue(h);
    const path = `/relisten/${v.tenantId}`;
    await buildWebhook(h, v.tenantId, { url: receiver.url(path), events: ['booking.created'] });
    await started();
    const book = (days: number) =>
      bookViaRest(h, { tenantId: v.tenantId, apiKey: v.apiKey, objectId: v.object.id, ...slotInDays(days) });
    await book(3);
    expect(await arrived(path, 1, WAKE_BOUND_MS)).toBe(true);
    // An administrator (or a failover) ends the listening session.
    const ended = await sql<{ n: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN portier_webhook_events%'`.execute(h.deps.database.db);
    expect(ended.rows[0].n).toBe(1);
    await book(4); // may commit before the dispatcher listens again: it runs a pass once it does
    expect(await arrived(path, 2, WAKE_BOUND_MS)).toBe(true);
    await pause(300);
    await book(5);
    expect(await arrived(path, 3, WAKE_BOUND_MS)).toBe(true);
  });

  it(
    'a booking committed by this process wakes the dispatcher of a `npm run worker` process',
    { timeout: 300_000 },
    async () => {
      const databaseUrl = (await runDatabaseUrl()) ?? '';
      const v = await buildVenue(h);
      const path = `/other-process/${v.tenantId}`;
      // The worker unseals the subscription's secret with its PORTIER_SECRET: sealed with the same here.
      await createWebhook(h.deps.database.db, { ...h.deps, secret: new ServerSecret(WORKER_SECRET) }, v.tenantId, {
        url: receiver.url(path),
        events: ['booking.created'],
        secret: WEBHOOK_SECRET,
      });
      const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
        cwd: ROOT,
        env: childEnv({
          DATABASE_URL: databaseUrl,
          PORTIER_SECRET: WORKER_SECRET,
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          WEBHOOK_POLL_INTERVAL_MS: String(NO_POLL_MS),
          LOG_LEVEL: 'info',
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      worker.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      worker.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)));
      try {
        const deadline = Date.now() + 240_000;
        while (!log.includes('webhook worker started')) {
          if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`worker did not start: ${log}`);
          await pause(100);
        }
        // No dispatcher runs in this process: whatever arrives, the worker sent.
        const book = (days: number) =>
          bookViaRest(h, { tenantId: v.tenantId, apiKey: v.apiKey, objectId: v.object.id, ...slotInDays(days) });
        await book(3);
        expect(await arrived(path, 1, 60_000)).toBe(true); // its first pass, or the wake-up once it listens
        await pause(500);
        await book(4);
        expect(await arrived(path, 2, WAKE_BOUND_MS)).toBe(true);
      } finally {
        if (worker.exitCode === null) worker.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
    },
  );
});
