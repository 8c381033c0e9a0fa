import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, TestClock, type Harness } from './harness.js';
import { buildWebhook } from './builders.js';
import { gate, Receiver } from './receiver.js';
import { WebhookDispatcher, dispatcherOptionsOf, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.js';
import { createSender } from '../src/modules/webhooks/sender.js';
import { recordEvent } from '../src/modules/webhooks/outbox.js';

// How the dispatcher behaves as a process: a crash between sending and recording, shutdown,
// several dispatchers at once, slow receivers, timeouts.

let h: Harness;
const fast = new Receiver();
const slow = new Receiver();
const tenants: string[] = [];

beforeAll(async () => {
  h = await harness();
  await fast.start();
  await slow.start();
});
// A pass takes every due delivery of this worker's database, and these tests count a pass's work
// and move the clock hours ahead: deliveries other test files left pending go first (those files
// have finished; a worker runs one file at a time).
beforeEach(async () => {
  await h.deps.database.db.deleteFrom('webhook_deliveries').where('status', '=', 'pending').execute();
});
afterAll(async () => {
  await fast.stop();
  await slow.stop();
});
afterEach(async () => {
  fast.reply = () => ({ status: 204 });
  slow.reply = () => ({ status: 204 });
  if (tenants.length)
    await h.deps.database.db.deleteFrom('webhooks').where('tenant_id', 'in', tenants.splice(0)).execute();
});

async function tenant() {
  const t = await h.tenant();
  tenants.push(t.tenantId);
  return t;
}

// No sweeps: these tests count a pass's deliveries (test/webhooks.device-presence.test.ts covers the sweep).
const dispatcher = (overrides: Partial<DispatcherOptions> = {}) =>
  new WebhookDispatcher(dispatcherOptionsOf(h.deps, { sweeps: [], ...overrides }));

const event = (tenantId: string, n = 1) =>
  recordEvent(h.deps.database.db, tenantId, 'booking.created', { booking: { id: `b-${n}` } });

async function deliveries(tenantId: string) {
  return h.deps.database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .execute();
}

/** Lets pending I/O callbacks and timers of 0 ms run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('at-least-once', () => {
  it('a crash between sending and recording sends the event again, with the same id, after the lease', async () => {
    const { tenantId } = await tenant();
    await buildWebhook(h, tenantId, { url: fast.url('/crash') });
    const eventId = await event(tenantId);
    const clock = new TestClock();
    const t0 = new Date();
    clock.set(t0);

    // The process "dies" right after the receiver got the request: the outcome is never recorded.
    const send = createSender({ allowPrivateNetworks: true });
    const crashing = dispatcher({
      now: clock.now,
      send: async (...args) => {
        await send(...args);
        throw new Error('process died');
      },
    });
    await crashing.runOnce();
    expect(fast.requests.filter((r) => r.path === '/crash')).toHaveLength(1);
    const [leased] = await deliveries(tenantId);
    expect(leased).toMatchObject({ status: 'pending', attempt_count: 0 });

    // What this test's delivery did, not the pass's totals: a pass also takes other test files'
    // deliveries due by the test clock (one database per worker).
    const survivor = dispatcher({ now: clock.now });
    await survivor.runOnce();
    expect(fast.requests.filter((r) => r.path === '/crash')).toHaveLength(1); // still leased
    expect((await deliveries(tenantId))[0]).toMatchObject({ status: 'pending', attempt_count: 0 });
    clock.set(new Date(leased.next_attempt_at!.getTime()));
    expect((await survivor.runOnce()).succeeded).toBeGreaterThanOrEqual(1);
    const ids = fast.requests.filter((r) => r.path === '/crash').map((r) => r.headers['webhook-id']);
    expect(ids).toEqual([eventId, eventId]);
    expect((await deliveries(tenantId))[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });

  it('several dispatchers at once deliver each event once (SKIP LOCKED)', async () => {
    const { tenantId } = await tenant();
    await buildWebhook(h, tenantId, { url: fast.url('/shared') });
    for (let n = 1; n <= 6; n += 1) await event(tenantId, n);
    const workers = [dispatcher({ perWebhook: 2 }), dispatcher({ perWebhook: 2 }), dispatcher({ perWebhook: 2 })];
    for (let round = 0; round < 4; round += 1) await Promise.all(workers.map((w) => w.runOnce()));
    const ids = fast.requests.filter((r) => r.path === '/shared').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect((await deliveries(tenantId)).map((d) => d.status)).toEqual(Array(6).fill('succeeded'));
  });
});

describe('slow and dead receivers', () => {
  it('a receiver that does not answer holds neither the API nor other subscriptions', async () => {
    const { tenantId, apiKey } = await tenant();
    const hold = gate();
    slow.reply = () => ({ status: 200, hold: hold.promise });
    const stuck = await buildWebhook(h, tenantId, { url: slow.url('/stuck') });
    const quick = await buildWebhook(h, tenantId, { url: fast.url('/quick') });
    const fastBefore = fast.requests.length;
    const slowBefore = slow.requests.length;
    await event(tenantId);

    const d = dispatcher({ pollIntervalMs: 10 });
    d.start();
    try {
      await slow.received(slowBefore + 1);
      await fast.received(fastBefore + 1);
      // The slow receiver is still holding its request, and the API answers meanwhile.
      const list = await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/webhooks/${stuck.id}/deliveries`,
        apiKey,
      });
      expect(list.status).toBe(200);
      expect(list.body.deliveries[0]).toMatchObject({ status: 'PENDING', attemptCount: 0 });
      for (;;) {
        const [done] = (await deliveries(tenantId)).filter((x) => x.webhook_id === quick.id);
        if (done.status === 'succeeded') break;
        await settle();
      }
    } finally {
      hold.open();
      await d.stop();
    }
    expect((await deliveries(tenantId)).map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('an attempt that exceeds the timeout fails and is retried later', async () => {
    const { tenantId } = await tenant();
    const hold = gate();
    slow.reply = () => ({ status: 200, hold: hold.promise });
    await buildWebhook(h, tenantId, { url: slow.url('/timeout') });
    await event(tenantId);
    try {
      const pass = await dispatcher({ timeoutMs: 100 }).runOnce();
      expect(pass.failed).toBeGreaterThanOrEqual(1);
    } finally {
      hold.open();
    }
    const [delivery] = await deliveries(tenantId);
    expect(delivery).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: 'timed out after 0.1 s',
      retry_step: 1,
    });
  });
});

describe('shutdown', () => {
  it('stop() waits for the attempts in flight and records them', async () => {
    const { tenantId } = await tenant();
    const hold = gate();
    slow.reply = () => ({ status: 200, hold: hold.promise });
    await buildWebhook(h, tenantId, { url: slow.url('/shutdown') });
    const before = slow.requests.length;
    await event(tenantId);
    const d = dispatcher({ pollIntervalMs: 10 });
    d.start();
    await slow.received(before + 1);
    let stopped = false;
    const stopping = d.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    hold.open();
    await stopping;
    expect((await deliveries(tenantId))[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    // Stopped means stopped: a new event waits for the next dispatcher.
    await event(tenantId, 2);
    await settle();
    expect(slow.requests.length).toBe(before + 1);
  });
});

describe('recording successes', () => {
  it('records successes that end together, each with its attempt; a delivery deleted meanwhile is skipped', async () => {
    const { tenantId } = await tenant();
    const hold = gate();
    slow.reply = () => ({ status: 200, body: `ok \u0000 nul`, hold: hold.promise });
    await buildWebhook(h, tenantId, { url: slow.url('/together') });
    const before = slow.requests.length;
    const events = [];
    for (let n = 1; n <= 12; n += 1) events.push(await event(tenantId, n));
    const d = dispatcher();
    const pass = d.runOnce();
    await slow.received(before + 12);
    // The subscription's delivery of one event is gone while its attempt is in flight.
    await h.deps.database.db.deleteFrom('webhook_deliveries').where('event_id', '=', events[0]).execute();
    hold.open();
    expect(await pass).toMatchObject({ attempted: 12, succeeded: 12, failed: 0 });
    const rows = await deliveries(tenantId);
    expect(rows).toHaveLength(11);
    for (const row of rows)
      expect(row).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200, last_error: null });
    const attempts = await h.deps.database.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'status_code', 'error', 'response_body', 'request_body'])
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(attempts.map((a) => a.delivery_id).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const a of attempts) {
      // A NUL in the receiver's answer (PostgreSQL's text cannot hold one) shows as U+FFFD.
      expect(a).toMatchObject({ status_code: 200, error: null, response_body: 'ok \uFFFD nul' });
      expect(JSON.parse(a.request_body!)).toMatchObject({ type: 'booking.created' });
    }
  });
});
