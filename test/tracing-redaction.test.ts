import { ROOT_CONTEXT } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Tracing } from '../src/kernel/tracing.js';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildVenue, slotInDays } from './builders.js';
import { manageToken } from '../src/modules/bookings/manage-link.js';

// Issue #42: a payment page's path carries its token, a secret (whoever holds it can open the
// guest's payment page). The request's server span must not export it (docs/operations.md#traces),
// nor may a log line carry it. The spans are exported to memory from an app listening on a port:
// the span is made around node's request handler, which fastify.inject does not pass through.

let h: Harness;
let o: OwnApp;
let base: string;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracing: Tracing = {
  tracer: provider.getTracer('portier-test'),
  extract: () => ROOT_CONTEXT,
  inject: () => undefined,
  shutdown: () => provider.shutdown(),
};

beforeAll(async () => {
  h = await harness();
  o = await ownApp(h, { tracing });
  await o.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(o.app.fastify.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await o?.close();
  await provider.shutdown();
});

describe('trace spans of a payment page', () => {
  it('export /pay/[redacted], never the token, in every attribute and in the logs', { timeout: 120_000 }, async () => {
    const v = await buildVenue(h, { pricePerHour: 2050 });
    const slot = slotInDays(4);
    const booked = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        startTime: slot.startTime,
        endTime: slot.endTime,
      },
    });
    expect(booked.status).toBe(201);
    const path = new URL((booked.body.booking as { paymentUrl: string }).paymentUrl).pathname;
    const token = path.slice('/pay/'.length);
    expect(token.length).toBeGreaterThan(10);

    for (const url of [path, `${path}/done?session=x`, `${path}/cancelled`]) await fetch(`${base}${url}`);
    await expect.poll(() => exporter.getFinishedSpans().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);

    const servers = exporter.getFinishedSpans().filter((s) => String(s.attributes['url.path']).startsWith('/pay/'));
    expect(servers.map((s) => s.attributes['url.path']).sort()).toEqual([
      '/pay/[redacted]',
      '/pay/[redacted]/cancelled',
      '/pay/[redacted]/done',
    ]);
    expect(servers.map((s) => s.attributes['http.route']).sort()).toEqual([
      '/pay/:token',
      '/pay/:token/cancelled',
      '/pay/:token/done',
    ]);
    for (const span of exporter.getFinishedSpans()) {
      expect(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events })).not.toContain(
        token,
      );
    }
    expect(o.logs.join('\n')).not.toContain(token);
  });
});

describe('trace spans of a guest’s manage page (issue #41)', () => {
  it('export /b/[redacted], never the token, in every attribute and in the logs', { timeout: 120_000 }, async () => {
    const v = await buildVenue(h, { pricePerHour: 2050 });
    const slot = slotInDays(4);
    const booked = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: { objectId: v.object.id, guestName: 'Ada', guestEmail: 'ada@example.com', ...slot },
    });
    expect(booked.status).toBe(201);
    const token = manageToken(h.deps.secret, booked.body.booking.id as string, 1);
    const path = `/b/${token}`;
    exporter.reset();
    for (const url of [path, `${path}/receipt?lang=de`, `${path}/calendar.ics`]) {
      expect((await fetch(`${base}${url}`)).status).toBe(200);
    }
    await fetch(`${base}${path}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=wrong',
    });
    await expect.poll(() => exporter.getFinishedSpans().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const servers = exporter.getFinishedSpans().filter((s) => String(s.attributes['url.path']).startsWith('/b/'));
    expect(servers.map((s) => s.attributes['url.path']).sort()).toEqual([
      '/b/[redacted]',
      '/b/[redacted]/calendar.ics',
      '/b/[redacted]/cancel',
      '/b/[redacted]/receipt',
    ]);
    for (const span of exporter.getFinishedSpans()) {
      expect(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events })).not.toContain(
        token,
      );
    }
    expect(o.logs.join('\n')).not.toContain(token);
    expect(o.logs.join('\n')).toContain('/b/[redacted]');
  });
});
