import { composeDeps } from '../src/app/deps.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { BODY_LIMIT_BYTES } from '../src/transport/http/app.js';
import { startServer } from '../src/app/server.js';
import type { DB } from '../src/kernel/db/types.js';
import { redactUrl } from '../src/kernel/logger.js';

let h: Harness;
const opened: OwnApp[] = [];
beforeAll(async () => {
  h = await harness();
});
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(settings: Parameters<typeof ownApp>[1]) {
  const app = await ownApp(h, settings);
  opened.push(app);
  return app;
}

const logLines = (app: OwnApp) => app.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request ids', () => {
  it('answers every request with X-Request-Id: the one sent when it is plain, else a new one', async () => {
    const fresh = await h.request({ method: 'GET', url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await h.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    for (const unfit of ['has spaces', 'x'.repeat(129), 'quote"s']) {
      const replaced = await h.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': unfit } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const failed = await h.request({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'trace-404' } });
    expect(failed.status).toBe(404);
    expect(failed.headers['x-request-id']).toBe('trace-404');
  });

  it('is on every log line written while the request is served, also by code that logs through deps.log', async () => {
    const app = await open({
      setup(fastify, deps) {
        fastify.post('/test/logging', { config: { openapi: false } }, async () => {
          deps.log.info('service line before waiting');
          await sleep(1);
          deps.log.info('service line after waiting');
          return { ok: true };
        });
      },
    });
    app.deps.log.info('outside any request');
    const res = await app.request({
      method: 'POST',
      url: '/test/logging',
      body: { any: 'body' },
      headers: { 'x-request-id': 'req-abc' },
    });
    expect(res.status).toBe(200);
    const lines = logLines(app);
    const ofRequest = lines.filter((l) => l.msg !== 'outside any request');
    expect(ofRequest.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'incoming request',
        'service line before waiting',
        'service line after waiting',
        'request completed',
      ]),
    );
    for (const line of ofRequest) expect(line.reqId, JSON.stringify(line)).toBe('req-abc');
    // One reqId key per line, not two (fastify binds it, the async context adds it only where missing).
    for (const raw of app.logs.filter((l) => l.includes('req-abc'))) expect(raw.match(/"reqId"/g)).toHaveLength(1);
    expect(lines.find((l) => l.msg === 'outside any request')?.reqId).toBeUndefined();
  });

  it('keeps credentials and one-time tokens out of logged URLs', () => {
    expect(redactUrl('/api/v1/x?guestEmail=a%40b.c&page=2&token=abc')).toBe(
      '/api/v1/x?guestEmail=[redacted]&page=2&token=[redacted]',
    );
    expect(redactUrl('/pay/opaqueToken123')).toBe('/pay/[redacted]');
    expect(redactUrl('/api/v1/tenants/t/bookings')).toBe('/api/v1/tenants/t/bookings');
  });
});

describe('health', () => {
  it('GET /healthz says the process is alive', async () => {
    const res = await h.request({ method: 'GET', url: '/healthz' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz is ready when the database answers and every migration is applied', async () => {
    const res = await h.request({ method: 'GET', url: '/readyz' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: h.deps.database.kind });
  });

  it('GET /readyz is 503 problem+json when the database does not answer', async () => {
    const unreachable = new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 2_000 }),
      }),
    });
    try {
      const app = await ownApp(h, {});
      opened.push(app);
      // Swap the handle only for the readiness probe's deps: the app reads deps.database.db per call.
      const original = app.deps.database;
      (app.deps as { database: typeof original }).database = { ...original, db: unreachable };
      const res = await app.request({ method: 'GET', url: '/readyz' });
      (app.deps as { database: typeof original }).database = original;
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, code: 'database_unreachable' });
      expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|nobody/);
    } finally {
      await unreachable.destroy();
    }
  });
});

describe('request bodies', () => {
  const oversized = () => JSON.stringify({ query: '{ viewer { id } }', padding: 'x'.repeat(BODY_LIMIT_BYTES) });

  it('over 1 MiB are refused with 413 problem+json', async () => {
    const app = await open({
      setup(fastify) {
        fastify.post('/test/body', { config: { openapi: false } }, async () => ({ ok: true }));
      },
    });
    const res = await app.request({ method: 'POST', url: '/test/body', body: oversized() });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 413, code: 'payload_too_large', title: 'Payload Too Large' });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect((await app.request({ method: 'POST', url: '/test/body', body: { small: true } })).status).toBe(200);
  });

  it('over 1 MiB are refused with 413 on the GraphQL endpoint too, as a GraphQL error', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: oversized() });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('that are not JSON are 400 problem+json', async () => {
    const app = await open({
      setup(fastify) {
        fastify.post('/test/body', { config: { openapi: false } }, async () => ({ ok: true }));
      },
    });
    const res = await app.request({ method: 'POST', url: '/test/body', body: '{"broken": ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'malformed_json' });
  });
});

describe('load shedding', () => {
  async function until503(app: OwnApp, url: string, strain: () => void = () => {}): Promise<TestResponse> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      strain();
      const res = await app.request({ method: 'GET', url });
      if (res.status === 503) return res;
      await sleep(5);
    }
    throw new Error('never shed');
  }

  it('answers 503 problem+json with Retry-After while saturated, but keeps answering /healthz', async () => {
    // A heap limit of 1 byte: saturated from the first sample on, whatever the machine does.
    const app = await open({ options: { loadShedding: { maxHeapUsedBytes: 1, sampleInterval: 10 } } });
    const res = await until503(app, '/readyz');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, code: 'overloaded' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-request-id']).toBeDefined();
    const graphql = await app.graphql(null, '{ viewer { id } }');
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors[0].extensions.code).toBe('UNAVAILABLE');
    expect((await app.request({ method: 'GET', url: '/healthz' })).status).toBe(200);
  });

  it('sheds when the event loop is blocked', async () => {
    // Event-loop utilisation, measured over each sample interval: a loop kept busy on every turn
    // reads close to 1 in every sample, whatever the order in which its timers fire (a delay sample
    // can be missing from an interval of a blocked loop: docs/operations.md, "Load shedding").
    const app = await open({ options: { loadShedding: { maxEventLoopUtilization: 0.8, sampleInterval: 20 } } });
    const saturate = setInterval(() => {
      const end = Date.now() + 40;
      while (Date.now() < end) {
        // work the event loop cannot get out of
      }
    }, 1);
    try {
      const res = await until503(app, '/readyz');
      expect(res.body.code).toBe('overloaded');
    } finally {
      clearInterval(saturate);
    }
  });

  it('does not shed for one stretch of blocking (start-up, a seed, a busy neighbour): only lasting saturation', async () => {
    const app = await open({ options: { loadShedding: { maxEventLoopDelay: 50, sampleInterval: 1_000 } } });
    const end = Date.now() + 1_500;
    while (Date.now() < end) {
      // one long synchronous stretch, like a start-up or the demo seed on a busy machine
    }
    // Let the sampler record it (its next sample is late by the block, then reports it).
    await sleep(50);
    for (let i = 0; i < 5; i += 1) expect((await app.request({ method: 'GET', url: '/readyz' })).status).toBe(200);
  });
});

describe('server shutdown', () => {
  it('stops the HTTP host and the background workers, then closes the database, once', async () => {
    const events: string[] = [];
    const starter = () => ({ name: 'test worker', stop: async () => void events.push('worker stopped') });
    {
      // The shared database stays open: the server gets a handle whose close is only recorded.
      let listening: () => boolean = () => true;
      const database = {
        ...h.deps.database,
        close: async () => void events.push(listening() ? 'database closed while listening' : 'database closed'),
      };
      const server = await startServer(
        composeDeps({ ...h.deps, database }),
        { port: 0, host: '127.0.0.1' },
        { workers: [starter] },
      );
      listening = () => server.app.fastify.server.listening;
      server.onStop('extra', () => void events.push('extra stopped'));
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
      await Promise.all([server.close(), server.close()]);
      await server.close();
      expect(events.filter((e) => e === 'database closed')).toHaveLength(1);
      expect(events.at(-1)).toBe('database closed');
      expect(events).toEqual(expect.arrayContaining(['worker stopped', 'extra stopped']));
      // Stopped in reverse order of registration.
      expect(events.indexOf('extra stopped')).toBeLessThan(events.indexOf('worker stopped'));
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    }
  });
});
