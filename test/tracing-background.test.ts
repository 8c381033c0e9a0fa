import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tracing } from '../src/kernel/tracing.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildVenue, buildWebhook, slotInDays } from './builders.js';
import { Receiver } from './receiver.js';

// Issue #42: background webhook work woken by a request (its commit's NOTIFY) was traced as that
// request's child: one 74 ms request became a 709-span trace over 235 s. A delivery starts a trace
// of its own (docs/operations.md#traces). The context manager is the one the server registers, so
// that a request's context reaches what it awaits, as in production.

let h: Harness;
let o: OwnApp;
let base: string;
let dispatcher: WebhookDispatcher;
const receiver = new Receiver();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const tracing: Tracing = {
  tracer: provider.getTracer('portier-test'),
  extract: () => context.active(),
  inject: () => undefined,
  shutdown: () => provider.shutdown(),
};

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  h = await harness();
  await receiver.start();
  o = await ownApp(h, { tracing });
  await o.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(o.app.fastify.server.address() as AddressInfo).port}`;
  dispatcher = new WebhookDispatcher(dispatcherOptionsOf(o.deps, { sweeps: [], pollIntervalMs: 60_000 }));
  dispatcher.start();
  await dispatcher.listeningReady();
}, 120_000);
afterAll(async () => {
  await dispatcher?.stop();
  await o?.close();
  await receiver.stop();
  await provider.shutdown();
  context.disable();
});

describe('background work woken by a request', () => {
  it('a webhook delivery is a root span of its own trace, not the request’s child', { timeout: 120_000 }, async () => {
    const v = await buildVenue(h);
    const path = `/traced/${v.tenantId}`;
    await buildWebhook(h, v.tenantId, { url: receiver.url(path), events: ['booking.created'] });
    exporter.reset();
    const res = await fetch(`${base}/api/v1/tenants/${v.tenantId}/bookings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${v.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        objectId: v.object.id,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        ...slotInDays(5),
      }),
    });
    expect(res.status).toBe(201);
    const deliverySpans = () => exporter.getFinishedSpans().filter((s) => s.name === 'webhook delivery');
    await expect.poll(() => deliverySpans().length, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    const request = exporter.getFinishedSpans().find((s) => s.name === 'POST /api/v1/tenants/:tenantId/bookings');
    expect(request).toBeDefined();
    const requestTrace = request!.spanContext().traceId;
    for (const delivery of deliverySpans()) {
      expect(delivery.spanContext().traceId).not.toBe(requestTrace);
      expect(delivery.parentSpanContext).toBeUndefined();
    }
    // Nothing after the request's own end lands in its trace.
    const requestEnd = request!.endTime[0] * 1e9 + request!.endTime[1];
    const late = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === requestTrace && s.startTime[0] * 1e9 + s.startTime[1] > requestEnd);
    expect(late.map((s) => s.name)).toEqual([]);
  });
});
