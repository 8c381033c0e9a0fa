import pino from 'pino';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { readEnv } from '../src/kernel/env.js';
import { ServerSecret, randomToken } from '../src/kernel/crypto.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { createApiKey, createTenant } from '../src/modules/tenants/tenants.service.js';
import { parseCreateApiKey } from '../src/modules/tenants/tenants.commands.js';
import { memoryLimiterStore } from '../src/kernel/limits/index.js';
import { buildGuessLimits } from '../src/app/guess-limits.js';
import { runDatabaseUrl } from './worker-services.js';

/** A clock tests can move; `null` means real time. */
export class TestClock {
  private fixed: Date | null = null;
  now = (): Date => (this.fixed ? new Date(this.fixed) : new Date());
  set(date: Date | string | null): void {
    this.fixed = date === null ? null : new Date(date);
  }
}

export interface Harness {
  deps: AppDeps;
  app: App;
  clock: TestClock;
  /** A new tenant with an admin key. */
  tenant(name?: string): Promise<{ tenantId: string; apiKey: string }>;
  /** A new key of the tenant with exactly these scopes. */
  key(tenantId: string, scopes: string[], rateLimitPerMinute?: number): Promise<string>;
  request: (options: RequestOptions) => Promise<TestResponse>;
  graphql: (apiKey: string | null, query: string, variables?: Record<string, unknown>) => Promise<TestResponse>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';
  url: string;
  apiKey?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client address fastify sees (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface TestResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** `request` over fastify's inject, for the harness's app or one a test builds itself. */
export function requester(fastify: FastifyInstance) {
  return async function request(options: RequestOptions): Promise<TestResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let payload: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const res = await fastify.inject({
      method: options.method,
      url: options.url,
      headers,
      payload,
      remoteAddress: options.remoteAddress,
    });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  };
}

let instance: Promise<Harness> | undefined;

async function create(): Promise<Harness> {
  // This worker's own database: a copy of the run's migrated template on PostgreSQL, a fresh
  // in-memory PGlite (migrated here) otherwise.
  const databaseUrl = await runDatabaseUrl();
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: 'memory://' });
  if (!databaseUrl) await migrateToLatest(database.db);
  const clock = new TestClock();
  const env = {
    // Tests make many requests with one key; rate-limit tests build their own app with a low limit.
    // Load shedding is off: the in-process PGlite blocks the event loop on a busy machine, and only
    // the load-shedding tests (test/operability.test.ts, their own apps) are about shedding.
    ...readEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://portier.test',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0',
    }),
    databaseUrl,
    pgliteDir: 'memory://',
    webhookAllowPrivateNetworks: true,
  };
  const deps: AppDeps = composeDeps({
    database,
    env,
    secret: new ServerSecret(randomToken(32)),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    now: clock.now,
    // In memory: counters in a shared Redis would outlive the run (test/limits.test.ts covers Redis).
    limits: buildGuessLimits(memoryLimiterStore()),
  });
  // No load shedding on the shared app: on a busy machine the suite's own event-loop delay would
  // answer tests 503 (the operability tests build apps with their own thresholds).
  const app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await app.fastify.ready();

  const request = requester(app.fastify);

  return {
    deps,
    app,
    clock,
    async tenant(name = 'Test tenant') {
      const { tenant, apiKey } = await database.db.transaction().execute((trx) => createTenant(trx, name));
      return { tenantId: tenant.id, apiKey };
    },
    async key(tenantId, scopes, rateLimitPerMinute) {
      return (
        await createApiKey(database.db, {
          tenantId,
          ...parseCreateApiKey({ name: `test ${scopes.join(',')}`, scopes, rateLimitPerMinute }),
        })
      ).apiKey;
    },
    request,
    graphql(apiKey, query, variables) {
      return request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: { query, variables } });
    },
  };
}

/**
 * The worker's one app and database (created on first use, shared by every test file the worker
 * runs: the integration project does not isolate files, so they share this module).
 */
export function harness(): Promise<Harness> {
  instance ??= create();
  return instance;
}
