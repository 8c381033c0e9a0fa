import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET, buildVenue, buildWebhook, bookViaRest, setBookingStatus } from './builders.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import type { Sender } from '../src/modules/webhooks/sender.js';
import { API_VERSION } from '../src/modules/webhooks/signing.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A sender that records what it is asked to send and answers 204. */
function recordingSender(into: Received[]): Sender {
  return (url, headers, body) => {
    into.push({ url, headers, body });
    return Promise.resolve({ statusCode: 204, durationMs: 1, error: null, retryAfter: null });
  };
}

async function until(done: () => boolean, what: string, run: () => Promise<unknown>) {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await run();
  }
}

describe('event payloads', () => {
  it('carry tenantId, apiVersion and a data.sequence that grows per booking, also through two dispatchers', async () => {
    const v = await buildVenue(h);
    const url = `https://receiver.test/${v.tenantId}`;
    await buildWebhook(h, v.tenantId, {
      url,
      events: ['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.cancelled'],
    });
    h.clock.set('2026-11-23T07:00:00Z');
    const bookingId = await bookViaRest(h, {
      tenantId: v.tenantId,
      apiKey: v.apiKey,
      objectId: v.object.id,
      startTime: '2026-11-23T10:00:00Z',
      endTime: '2026-11-23T11:00:00Z',
    });
    await setBookingStatus(h, v, bookingId, 'CONFIRMED');
    const moved = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${bookingId}`,
      apiKey: v.apiKey,
      body: { startTime: '2026-11-23T12:00:00Z', endTime: '2026-11-23T13:00:00Z' },
    });
    expect(moved.status).toBe(200);
    await setBookingStatus(h, v, bookingId, 'CANCELLED');
    h.clock.set(null);

    const received: Received[] = [];
    const one = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: recordingSender(received), concurrency: 2 }));
    const two = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { send: recordingSender(received), concurrency: 2 }));
    const mine = () => received.filter((r) => r.url === url);
    await until(
      () => mine().length >= 4,
      'four deliveries',
      () => Promise.all([one.runOnce(), two.runOnce()]),
    );

    const wh = new Webhook(WEBHOOK_SECRET);
    const events = mine().map(
      (r) =>
        wh.verify(r.body, r.headers) as {
          id: string;
          type: string;
          tenantId: string;
          apiVersion: string;
          data: { sequence: number; booking: { id: string } };
        },
    );
    expect(events).toHaveLength(4);
    for (const e of events) {
      expect(e.tenantId).toBe(v.tenantId);
      expect(e.apiVersion).toBe(API_VERSION);
      expect(e.apiVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.data.booking.id).toBe(bookingId);
    }
    const bySequence = [...events].sort((a, b) => a.data.sequence - b.data.sequence);
    expect(bySequence.map((e) => [e.data.sequence, e.type])).toEqual([
      [1, 'booking.created'],
      [2, 'booking.confirmed'],
      [3, 'booking.rescheduled'],
      [4, 'booking.cancelled'],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(4);
  });

  it('keeps sequences apart per booking', async () => {
    const v = await buildVenue(h);
    h.clock.set('2026-11-23T07:00:00Z');
    const a = await bookViaRest(h, {
      tenantId: v.tenantId,
      apiKey: v.apiKey,
      objectId: v.object.id,
      startTime: '2026-11-23T10:00:00Z',
      endTime: '2026-11-23T11:00:00Z',
    });
    await bookViaRest(h, {
      tenantId: v.tenantId,
      apiKey: v.apiKey,
      objectId: v.object.id,
      startTime: '2026-11-23T12:00:00Z',
      endTime: '2026-11-23T13:00:00Z',
    });
    await setBookingStatus(h, v, a, 'CONFIRMED');
    const rows = await h.deps.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('tenant_id', '=', v.tenantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const seq = rows.map((r) => [
      (r.data as { booking: { id: string } }).booking.id === a ? 'a' : 'b',
      r.type,
      (r.data as { sequence: number }).sequence,
    ]);
    expect(seq).toEqual(
      expect.arrayContaining([
        ['a', 'booking.created', 1],
        ['b', 'booking.created', 1],
        ['a', 'booking.confirmed', 2],
      ]),
    );
  });
});
