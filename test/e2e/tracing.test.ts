import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/kernel/env.js';
import { closeRuntime, startRuntime } from '../../src/app/runtime.js';
import { createTenant } from '../../src/modules/tenants/tenants.service.js';
import { createAccommodation, createObject } from '../../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../../src/modules/catalog/catalog.commands.js';
import { createBooking, parseCreateBooking, updateBookingStatus } from '../../src/modules/bookings/index.js';
import { createWebhook, recordEvent } from '../../src/modules/webhooks/index.js';
import { ROOT, childEnv, databaseSettings } from '../processes.js';
import { onPostgres, workerRedisUrl } from '../worker-services.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { EVERY_DAY_8_TO_22, WEBHOOK_SECRET } from '../builders.js';
import { Receiver } from '../receiver.js';
import { startSmtpPeer, type SmtpPeer } from '../peers/mail-peers.js';

// OpenTelemetry traces (docs/operations.md#traces) from a real server process (dist/, on the
// database this run uses) exporting over OTLP/HTTP to a receiver in this test process, which
// decodes the JSON the exporter sends. The batch processor is told to wait a minute: every span
// asserted here arrives because the graceful stop exports what is buffered.

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  serviceName: string;
}

const SERVER = 2;
const CLIENT = 3;

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
type KeyValue = { key: string; value: AnyValue };

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

/** The spans of OTLP/HTTP JSON export requests (ExportTraceServiceRequest). */
function decode(bodies: string[]): Span[] {
  return bodies.flatMap((body) => {
    const request = JSON.parse(body) as {
      resourceSpans: {
        resource: { attributes: KeyValue[] };
        scopeSpans: { spans: (Omit<Span, 'attributes' | 'serviceName'> & { attributes?: KeyValue[] })[] }[];
      }[];
    };
    return request.resourceSpans.flatMap((rs) => {
      const serviceName = String(attributesOf(rs.resource.attributes)['service.name']);
      return rs.scopeSpans.flatMap((ss) =>
        ss.spans.map((s) => ({
          ...s,
          parentSpanId: s.parentSpanId || undefined,
          attributes: attributesOf(s.attributes),
          status: s.status ?? {},
          serviceName,
        })),
      );
    });
  });
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** An OTLP/HTTP receiver: POST /v1/traces answered 200, the rest 404. */
function otlpReceiver(): Receiver {
  const receiver = new Receiver();
  receiver.reply = (request) =>
    request.method === 'POST' && request.path === '/v1/traces'
      ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
      : { status: 404 };
  return receiver;
}

const exported = (receiver: Receiver) => receiver.requests.filter((r) => r.path === '/v1/traces');

async function until(what: string, check: () => boolean, limitMs = 120_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pgliteDirs: string[] = [];
const servers: ServerProcess[] = [];
const collector = otlpReceiver();
const hooks = new Receiver();
let smtp: SmtpPeer;
let spans: Span[] = [];
let exitCode: number | null;

const caller = { traceId: hex(16), spanId: hex(8) };
const graphqlCaller = { traceId: hex(16), spanId: hex(8) };
let tenantId: string;
let apiKey: string;
/** The traced server's settings (its database; Redis when the run has one), reused by the worker. */
let env: Record<string, string>;
let notificationBookingId: string;
let hookPath: string;
const hostile: Record<string, string> = {
  malformed: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-zz`,
  'zero trace id': `00-${'0'.repeat(32)}-${'c'.repeat(16)}-01`,
  'zero span id': `00-${'d'.repeat(32)}-${'0'.repeat(16)}-01`,
  'version ff': `ff-${'e'.repeat(32)}-${'f'.repeat(16)}-01`,
  'upper case': `00-${'A1'.repeat(16)}-${'B2'.repeat(8)}-01`,
  huge: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01${'-x'.repeat(4000)}`,
};
const hostileAnswers: Record<string, number> = {};

afterAll(async () => {
  for (const server of servers)
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await Promise.all([collector.stop(), hooks.stop(), smtp?.close()]);
  for (const dir of pgliteDirs) rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  await Promise.all([collector.start(), hooks.start()]);
  smtp = await startSmtpPeer();
  const settings = await databaseSettings();
  if (settings.pgliteDir) pgliteDirs.push(settings.pgliteDir);
  const redisUrl = workerRedisUrl();
  env = {
    ...settings.env,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'bookings@venue.example',
  };

  // Data made in this process first (then closed: PGlite lets one process open the directory): a
  // tenant, a webhook to the local receiver, a confirmed booking whose guest mail is queued.
  const deps = await startRuntime(readEnv({ ...env, LOG_LEVEL: 'silent' }), {
    logLevel: 'silent',
    sharedLimits: false,
  });
  try {
    const db = deps.database.db;
    const created = await db.transaction().execute((trx) => createTenant(trx, 'Tracing test'));
    tenantId = created.tenant.id;
    apiKey = created.apiKey;
    hookPath = `/traced-${hex(4)}`;
    await createWebhook(db, deps, tenantId, {
      url: hooks.url(hookPath),
      events: ['booking.created'],
      secret: WEBHOOK_SECRET,
    });
    const accommodation = await createAccommodation(
      db,
      tenantId,
      parseCreateAccommodation({ name: 'Sportpark Trace', address: 'Teststrasse 1', timeZone: 'Europe/Berlin' }),
    );
    const object = await createObject(
      db,
      tenantId,
      parseCreateObject({
        accommodationId: accommodation.id,
        name: 'Court 1',
        pricePerHour: 2000,
        openingHours: EVERY_DAY_8_TO_22,
      }),
    );
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(9, 0, 0, 0);
    notificationBookingId = await db.transaction().execute(async (trx) => {
      const booking = await createBooking(
        trx,
        deps,
        tenantId,
        parseCreateBooking({
          objectId: object.id,
          guestName: 'Traced Guest',
          guestEmail: 'traced-guest@example.com',
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        }),
      );
      await updateBookingStatus(trx, deps, tenantId, booking.id, { status: 'CONFIRMED' });
      return booking.id;
    });
  } finally {
    await closeRuntime(deps);
  }

  const server = await startServerProcess({
    ...env,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}/`,
    OTEL_SERVICE_NAME: 'portier-under-test',
    // Nothing is exported before the stop: the stop's flush is what the assertions see.
    OTEL_BSP_SCHEDULE_DELAY: '600000',
    OTEL_BSP_MAX_QUEUE_SIZE: '100000',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100000',
  });
  servers.push(server);
  const auth = { authorization: `Bearer ${apiKey}` };

  const rest = await fetch(`${server.url}/api/v1/tenants/${tenantId}/webhooks`, {
    headers: { ...auth, traceparent: `00-${caller.traceId}-${caller.spanId}-01` },
  });
  expect(rest.status).toBe(200);
  const graphql = await fetch(`${server.url}/api/v1/graphql`, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': 'application/json',
      traceparent: `00-${graphqlCaller.traceId}-${graphqlCaller.spanId}-01`,
      tracestate: 'vendor=value',
    },
    body: JSON.stringify({ query: 'query TracedWebhooks { webhooks { id url } }' }),
  });
  expect(graphql.status).toBe(200);
  expect(((await graphql.json()) as { errors?: unknown }).errors).toBeUndefined();
  for (const [name, traceparent] of Object.entries(hostile)) {
    const res = await fetch(`${server.url}/api/v1/tenants/${tenantId}/webhooks`, { headers: { ...auth, traceparent } });
    hostileAnswers[name] = res.status;
  }
  const repeated = await fetch(`${server.url}/api/v1/tenants/${tenantId}/webhooks`, {
    headers: [
      ['authorization', auth.authorization],
      ['traceparent', `00-${hex(16)}-${hex(8)}-01`],
      ['traceparent', `00-${hex(16)}-${hex(8)}-01`],
    ],
  });
  hostileAnswers.repeated = repeated.status;

  // The booking's webhook and the guest's mail go out from the server's own dispatcher and sender.
  await until('the webhook delivery', () => hooks.requests.some((r) => r.path === hookPath));
  await until('the guest mail', () =>
    smtp.mails.some((m) => m.parsed.messageId?.startsWith('<notification-') && m.raw.includes('traced-guest')),
  );
  // The stop waits for the attempts in flight (their outcomes are recorded), then exports.
  expect(exported(collector)).toEqual([]);
  exitCode = await server.stop();
  spans = decode(exported(collector).map((r) => r.body));
}, 600_000);

const inTrace = (traceId: string) => spans.filter((s) => s.traceId === traceId);
const childrenOf = (parent: Span) => spans.filter((s) => s.parentSpanId === parent.spanId);

describe('traces exported over OTLP/HTTP', () => {
  it('stops cleanly and exports the buffered spans on the stop, under OTEL_SERVICE_NAME', () => {
    expect(exitCode).toBe(0);
    expect(spans.length).toBeGreaterThan(0);
    expect(new Set(spans.map((s) => s.serviceName))).toEqual(new Set(['portier-under-test']));
    for (const request of exported(collector)) expect(request.headers['content-type']).toBe('application/json');
  });

  it('makes a REST request’s server span a child of the caller’s traceparent, with its route and status', () => {
    const [server, ...others] = inTrace(caller.traceId).filter((s) => s.kind === SERVER);
    expect(others).toEqual([]);
    expect(server).toMatchObject({
      parentSpanId: caller.spanId,
      name: 'GET /api/v1/tenants/:tenantId/webhooks',
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/v1/tenants/:tenantId/webhooks',
        'http.response.status_code': 200,
        'url.path': `/api/v1/tenants/${tenantId}/webhooks`,
      },
    });
    const queries = childrenOf(server).filter((s) => s.attributes['db.system'] === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(query.kind).toBe(CLIENT);
  });

  it.skipIf(!workerRedisUrl())('traces the request’s Redis commands (the rate limit) by name only', () => {
    const server = inTrace(caller.traceId).find((s) => s.kind === SERVER)!;
    const commands = childrenOf(server).filter((s) => s.attributes['db.system'] === 'redis');
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command.kind).toBe(CLIENT);
      expect(command.name).toBe(String(command.attributes['db.operation.name']));
      expect(command.name).toMatch(/^[A-Z]+$/);
      expect(JSON.stringify(command.attributes)).not.toContain(apiKey);
    }
  });

  it('nests GraphQL: caller → server span → operation span → PostgreSQL statements, without parameter values', () => {
    const server = inTrace(graphqlCaller.traceId).find((s) => s.kind === SERVER);
    expect(server).toMatchObject({ parentSpanId: graphqlCaller.spanId, name: 'POST /api/v1/graphql' });
    const operation = childrenOf(server!).find((s) => s.name === 'query TracedWebhooks');
    expect(operation?.attributes).toMatchObject({
      'graphql.operation.type': 'query',
      'graphql.operation.name': 'TracedWebhooks',
    });
    const queries = childrenOf(operation!);
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.kind).toBe(CLIENT);
      expect(query.attributes).toMatchObject({
        'db.system': 'postgresql',
        'db.system.name': 'postgresql',
        'portier.database': onPostgres ? 'postgres' : 'pglite',
      });
      expect(query.attributes['db.query.text']).toMatch(/\$1/);
      expect(query.attributes['db.query.text']).not.toContain(tenantId);
      expect(query.name).toBe(String(query.attributes['db.operation.name']));
    }
    expect(queries.some((q) => /webhooks/.test(String(q.attributes['db.query.text'])))).toBe(true);
  });

  it('sends each webhook attempt with the traceparent of its exported delivery span', () => {
    const received = hooks.requests.find((r) => r.path === hookPath)!;
    const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(received.headers.traceparent));
    expect(match, String(received.headers.traceparent)).not.toBeNull();
    const delivery = spans.find((s) => s.spanId === match![2]);
    expect(delivery).toMatchObject({
      traceId: match![1],
      name: 'webhook delivery',
      kind: CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'http.response.status_code': 204,
        'server.address': '127.0.0.1',
        'portier.event.type': 'booking.created',
        'portier.delivery.outcome': 'success',
        'portier.tenant.id': tenantId,
      },
    });
    // Recording the outcome (one statement: the delivery's status and its attempt in the log) is
    // part of the delivery's trace.
    expect(
      childrenOf(delivery!).some((s) => /INSERT INTO webhook_attempts/.test(String(s.attributes['db.query.text']))),
    ).toBe(true);
  });

  it('traces the guest mail’s delivery with its outcome', () => {
    const delivery = spans.find(
      (s) => s.name === 'notification delivery' && s.attributes['portier.tenant.id'] === tenantId,
    );
    expect(delivery).toMatchObject({
      kind: CLIENT,
      attributes: { 'portier.notification.channel': 'email', 'portier.delivery.outcome': 'success' },
    });
    expect(notificationBookingId).toBeTruthy();
  });

  it('ignores hostile traceparent values: the request is answered and starts a trace of its own', () => {
    expect(hostileAnswers).toEqual(Object.fromEntries(Object.keys({ ...hostile, repeated: 1 }).map((k) => [k, 200])));
    const hostileIds = Object.values(hostile).flatMap((value) => value.split('-').slice(1, 3));
    const servers = spans.filter((s) => s.kind === SERVER);
    for (const span of servers) {
      expect(hostileIds).not.toContain(span.traceId);
      expect(hostileIds).not.toContain(span.parentSpanId);
    }
    // The six hostile requests and the repeated one: seven root server spans on that route.
    const roots = servers.filter(
      (s) => s.name === 'GET /api/v1/tenants/:tenantId/webhooks' && s.parentSpanId === undefined,
    );
    expect(roots.length).toBeGreaterThanOrEqual(7);
  });
});

describe('npm run worker', () => {
  it('traces its webhook deliveries and exports them when it stops', { timeout: 600_000 }, async () => {
    const workerCollector = otlpReceiver();
    await workerCollector.start();
    try {
      // The traced server has stopped: its database (a PGlite directory too) is free for the worker.
      const path = `/worker-${hex(4)}`;
      const deps = await startRuntime(readEnv({ ...env, LOG_LEVEL: 'silent' }), {
        logLevel: 'silent',
        sharedLimits: false,
      });
      try {
        const db = deps.database.db;
        await createWebhook(db, deps, tenantId, {
          url: hooks.url(path),
          events: ['booking.created'],
          secret: WEBHOOK_SECRET,
        });
        await recordEvent(db, tenantId, 'booking.created', { booking: { id: 'b-traced-worker' } });
      } finally {
        await closeRuntime(deps);
      }
      const worker = spawn(process.execPath, ['--enable-source-maps', 'dist/src/worker.js'], {
        cwd: ROOT,
        env: childEnv({
          ...env,
          LOG_LEVEL: 'info',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${workerCollector.port}`,
          OTEL_SERVICE_NAME: 'portier-worker-under-test',
          OTEL_BSP_SCHEDULE_DELAY: '600000',
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      worker.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      worker.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)));
      try {
        await until('the worker’s delivery', () => {
          if (worker.exitCode !== null) throw new Error(`the worker exited: ${log}`);
          return hooks.requests.some((r) => r.path === path);
        });
      } finally {
        worker.kill('SIGTERM');
      }
      expect(await exited, log).toBe(0);
      const received = hooks.requests.find((r) => r.path === path)!;
      const [, traceId, spanId] = String(received.headers.traceparent).split('-');
      const workerSpans = decode(exported(workerCollector).map((r) => r.body));
      expect(workerSpans.find((s) => s.spanId === spanId)).toMatchObject({
        traceId,
        name: 'webhook delivery',
        serviceName: 'portier-worker-under-test',
        attributes: { 'portier.delivery.outcome': 'success', 'portier.tenant.id': tenantId },
      });
    } finally {
      await workerCollector.stop();
    }
  });
});

describe('OTEL_EXPORTER_OTLP_ENDPOINT unset', () => {
  it('exports nothing, even with the other OTLP variables pointing at a collector', { timeout: 600_000 }, async () => {
    const quiet = otlpReceiver();
    await quiet.start();
    try {
      const settings = await databaseSettings();
      if (settings.pgliteDir) pgliteDirs.push(settings.pgliteDir);
      const server = await startServerProcess({
        ...settings.env,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${quiet.port}/v1/traces`,
        OTEL_SERVICE_NAME: 'portier-untraced',
        OTEL_BSP_SCHEDULE_DELAY: '10',
      });
      servers.push(server);
      const res = await fetch(`${server.url}/api/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${hex(16)}-${hex(8)}-01` },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status).toBe(401);
      expect(await server.stop()).toBe(0);
      expect(quiet.requests).toEqual([]);
    } finally {
      await quiet.stop();
    }
  });
});
