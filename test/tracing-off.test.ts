import { context, propagation, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { readEnv } from '../src/kernel/env.js';
import { startTracing } from '../src/app/tracing.js';
import { harness } from './harness.js';

// Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces): then no
// provider is built or registered and the request path is fastify's own. test/e2e/tracing.test.ts
// shows a real server with the variable unset exporting nothing.

describe('OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it.each([
    [{}, null],
    [{ OTEL_SERVICE_NAME: 'billing' }, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, null],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' },
      { endpoint: 'http://collector:4318', serviceName: 'portier' },
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/base', OTEL_SERVICE_NAME: 'portier-eu' },
      { endpoint: 'https://otel.example/base', serviceName: 'portier-eu' },
    ],
  ])('%j → %j', (source, expected) => {
    expect(readEnv(source).tracing).toEqual(expected);
  });

  it.each(['collector:4318', 'ftp://collector', 'not a url'])('refuses %j, naming the variable', (value) => {
    expect(() => readEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: value })).toThrow(
      /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL such as http:\/\/localhost:4318/,
    );
  });
});

describe('tracing off', () => {
  it('builds and registers nothing: the global tracer, context and propagator stay the no-op ones', () => {
    expect(startTracing(readEnv({}).tracing)).toBeUndefined();
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('0'.repeat(32));
    expect(context.with(trace.setSpan(context.active(), span), () => trace.getActiveSpan())).toBeUndefined();
    expect(propagation.fields()).toEqual([]);
  });

  it('leaves the server’s request handler fastify’s own', async () => {
    const h = await harness();
    expect(h.deps.tracing).toBeUndefined();
    const names = h.app.fastify.server.listeners('request').map((listener) => listener.name);
    expect(names).not.toContain('tracedRequest');
    const res = await h.request({
      method: 'GET',
      url: '/healthz',
      headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` },
    });
    expect(res.status).toBe(200);
  });
});
