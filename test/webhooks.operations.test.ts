import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET, buildWebhook } from './builders.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import type { Sender } from '../src/modules/webhooks/sender.js';
import { recordEvent } from '../src/modules/webhooks/outbox.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => {
  h.clock.set(null);
  vi.restoreAllMocks();
});

interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Records every request; answers with `statusOf(url)` (default 204). */
function sender(into: Received[], statusOf: (url: string) => number = () => 204): Sender {
  return (url, headers, body) => {
    into.push({ url, headers, body });
    const statusCode = statusOf(url);
    return Promise.resolve({
      statusCode,
      durationMs: 1,
      error: statusCode < 300 ? null : `receiver answered ${statusCode}`,
      retryAfter: null,
    });
  };
}

const base = (tenantId: string, webhookId: string) => `/api/v1/tenants/${tenantId}/webhooks/${webhookId}`;
const event = (tenantId: string, n: number) =>
  recordEvent(h.deps.database.db, tenantId, 'booking.created', { booking: { id: `b-${n}` } });

/** Verifies as standardwebhooks would at the test clock's time (it checks webhook-timestamp against Date.now()). */
function verifyAt(secret: string, r: Received): unknown {
  vi.spyOn(Date, 'now').mockReturnValue(h.clock.now().getTime());
  try {
    return new Webhook(secret).verify(r.body, r.headers);
  } finally {
    vi.restoreAllMocks();
  }
}

describe('PATCH /webhooks/{webhookId}', () => {
  it('changes url, events and active; fields left out keep their values; bad input is a 400 naming the field', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const wh = await buildWebhook(h, tenantId, { url: 'https://a.example/hook' });
    const res = await h.request({
      method: 'PATCH',
      url: base(tenantId, wh.id),
      apiKey,
      body: { url: 'https://b.example/hook', events: ['booking.rescheduled'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({
      id: wh.id,
      url: 'https://b.example/hook',
      events: ['booking.rescheduled'],
      active: true,
    });
    const off = await h.request({ method: 'PATCH', url: base(tenantId, wh.id), apiKey, body: { active: false } });
    expect(off.body.webhook).toMatchObject({ url: 'https://b.example/hook', active: false });
    const on = await h.request({ method: 'PATCH', url: base(tenantId, wh.id), apiKey, body: { active: true } });
    expect(on.body.webhook.active).toBe(true);
    const bad = await h.request({
      method: 'PATCH',
      url: base(tenantId, wh.id),
      apiKey,
      body: { events: ['booking.exploded'], url: 'ftp://x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['events', 'url']);
    const other = await h.tenant();
    expect(
      (
        await h.request({
          method: 'PATCH',
          url: base(other.tenantId, wh.id),
          apiKey: other.apiKey,
          body: { active: false },
        })
      ).status,
    ).toBe(404);
  });

  it('GraphQL updateWebhook mirrors it', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const wh = await buildWebhook(h, tenantId, { url: 'https://a.example/hook' });
    const res = await h.graphql(
      apiKey,
      'mutation($id: ID!) { updateWebhook(webhookId: $id, active: false) { webhook { id active } } }',
      { id: wh.id },
    );
    expect(res.body.data.updateWebhook.webhook).toEqual({ id: wh.id, active: false });
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then only with the new one', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const url = `https://rotation.example/${tenantId}`;
    const wh = await buildWebhook(h, tenantId, { url });
    h.clock.set('2026-11-24T10:00:00Z');
    const rotated = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/rotate-secret`,
      apiKey,
      body: {},
    });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated.body.previousSecretExpiresAt).toBe('2026-11-25T10:00:00.000Z');
    expect(rotated.body.webhook.id).toBe(wh.id);

    const received: Received[] = [];
    const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: sender(received) }));
    const mine = () => received.filter((r) => r.url === url);

    h.clock.set('2026-11-25T09:59:00Z');
    await event(tenantId, 1);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
    const during = mine()[0];
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => verifyAt(WEBHOOK_SECRET, during)).not.toThrow();
    expect(() => verifyAt(secret, during)).not.toThrow();

    h.clock.set('2026-11-25T10:00:01Z');
    await event(tenantId, 2);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(2);
    const after = mine()[1];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => verifyAt(secret, after)).not.toThrow();
    expect(() => verifyAt(WEBHOOK_SECRET, after)).toThrow(/No matching signature/);
  });

  it('takes a chosen secret (not shown back) and refuses a bad one', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const wh = await buildWebhook(h, tenantId, { url: 'https://a.example/hook' });
    const chosen = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/rotate-secret`,
      apiKey,
      body: { secret: 'a new secret of enough length' },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.secret).toBeNull();
    const bad = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/rotate-secret`,
      apiKey,
      body: { secret: 'short' },
    });
    expect(bad).toMatchObject({ status: 400, body: { errors: [{ field: 'secret' }] } });
  });
});

describe('auto-disable and replay', () => {
  it('disables a subscription whose deliveries all failed for 5 days, tells the other subscriptions, and replays after re-enabling', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const failing = `https://failing.example/${tenantId}`;
    const watcher = `https://watcher.example/${tenantId}`;
    const wh = await buildWebhook(h, tenantId, { url: failing });
    await buildWebhook(h, tenantId, { url: watcher, events: ['webhook.disabled'] });
    let failingStatus = 500;
    const received: Received[] = [];
    const dispatcher = new WebhookDispatcher(
      dispatcherOptionsOf(h.deps, { send: sender(received, (u) => (u === failing ? failingStatus : 204)) }),
    );

    h.clock.set('2026-11-24T10:00:00Z');
    await event(tenantId, 1);
    await dispatcher.runOnce();
    h.clock.set('2026-11-28T10:00:00Z'); // 4 days: still active
    await event(tenantId, 2);
    await dispatcher.runOnce();
    let row = await h.deps.database.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', wh.id)
      .executeTakeFirstOrThrow();
    expect(row.active).toBe(true);

    h.clock.set('2026-11-29T10:00:01Z'); // 5 days after the first failure
    await event(tenantId, 3);
    await dispatcher.runOnce();
    row = await h.deps.database.db.selectFrom('webhooks').selectAll().where('id', '=', wh.id).executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
    expect(row.deactivated_reason).toMatch(/5 days/);

    // The other subscription gets webhook.disabled; the disabled one's log shows why its deliveries ended.
    await dispatcher.runOnce();
    const told = received
      .filter((r) => r.url === watcher)
      .map((r) => JSON.parse(r.body) as { type: string; data: { webhook: { id: string } } });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'webhook.disabled', data: { webhook: { id: wh.id } } });
    expect(received.filter((r) => r.url === failing && r.body.includes('webhook.disabled'))).toHaveLength(0);
    const log = await h.request({ method: 'GET', url: `${base(tenantId, wh.id)}/deliveries`, apiKey });
    expect(log.body.deliveries.every((d: { status: string }) => d.status === 'FAILED')).toBe(true);
    expect(log.body.deliveries.some((d: { lastError: string }) => /subscription disabled/.test(d.lastError))).toBe(
      true,
    );

    // Replay needs an active subscription; PATCH re-enables it.
    const refused = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/replay`,
      apiKey,
      body: { since: '2026-11-24T00:00:00Z' },
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'webhook_inactive' } });
    expect(
      (await h.request({ method: 'PATCH', url: base(tenantId, wh.id), apiKey, body: { active: true } })).body.webhook
        .active,
    ).toBe(true);
    const badSince = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/replay`,
      apiKey,
      body: { since: 'yesterday' },
    });
    expect(badSince.status).toBe(400);
    expect(badSince.body.errors).toEqual([expect.objectContaining({ field: 'since' })]);

    const replay = await h.request({
      method: 'POST',
      url: `${base(tenantId, wh.id)}/replay`,
      apiKey,
      body: { since: '2026-11-28T00:00:00Z' },
    });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ webhookId: wh.id, queued: 2 });
    failingStatus = 204;
    const before = received.filter((r) => r.url === failing).length;
    await dispatcher.runOnce();
    expect(received.filter((r) => r.url === failing).length - before).toBe(2);
    const after = await h.request({ method: 'GET', url: `${base(tenantId, wh.id)}/deliveries`, apiKey });
    expect(after.body.deliveries.map((d: { status: string }) => d.status).sort()).toEqual([
      'FAILED',
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
  });
});
