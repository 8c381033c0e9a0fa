import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { ONLINE_WINDOW_SECONDS } from '../modules/devices/index.js';

// Portier's Prometheus metrics (docs/operations.md). One registry per process, built by the
// composition root and handed to the app through deps; nothing here is module-level state.
//
// Request, latency and access-check numbers are this process's own (counters). Queue depth,
// delivery outcomes and devices online are read from the database at scrape time, so every API
// process reports the same service-wide values (aggregate them with max, not sum).

export type AccessOutcome = 'allowed' | 'denied' | 'throttled' | 'refused';

export interface Metrics {
  registry: Registry;
  /** One finished HTTP request: its route pattern (never the raw URL), method, status and duration. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** One device access check: allowed, denied (with the decision's reason), throttled (429) or refused (4xx). */
  observeAccessCheck(outcome: AccessOutcome, reason: string): void;
}

/** Request latency buckets, in seconds: the access check's 50 ms target sits between two of them. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How far back "delivery outcomes" look; a fixed window keeps the scrape's query bounded. */
export const DELIVERY_OUTCOME_WINDOW_MINUTES = 60;

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface MetricSources {
  database: Database;
  /** The database pool's counters (pg.Pool has them); absent, the pool gauges are not reported. */
  pool?: PoolStats & { options: { max?: number } };
  now: () => Date;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'portier_' });
  const db = sources.database.db;

  const requests = new Counter({
    name: 'portier_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'portier_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const accessChecks = new Counter({
    name: 'portier_access_checks_total',
    help: 'Device access checks by outcome (allowed, denied, throttled, refused) and reason (the denial reason; "ok" when allowed).',
    labelNames: ['outcome', 'reason'] as const,
    registers: [registry],
  });

  const pool = sources.pool;
  if (pool) {
    new Gauge({
      name: 'portier_db_pool_connections',
      help: 'Database pool connections by state: open (total), idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'open' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'portier_db_pool_max_connections',
      help: 'The most connections the pool opens.',
      registers: [registry],
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
  }

  new Gauge({
    name: 'portier_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be attempted (pending), and those of them already due.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<string>().as('pending'), sql<string>`count(*) filter (where next_attempt_at <= ${sources.now()})`.as('due')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      this.set({ state: 'pending' }, Number(row.pending));
      this.set({ state: 'due' }, Number(row.due));
    },
  });

  new Gauge({
    name: 'portier_webhook_deliveries_completed',
    help: `Webhook deliveries that reached a final status (succeeded, failed) in the last ${DELIVERY_OUTCOME_WINDOW_MINUTES} minutes.`,
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const since = new Date(sources.now().getTime() - DELIVERY_OUTCOME_WINDOW_MINUTES * 60_000);
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
        .where('status', '!=', 'pending')
        .where('completed_at', '>=', since)
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['succeeded', 'failed']) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });

  new Gauge({
    name: 'portier_devices_online',
    help: `Activated, unrevoked devices that sent a heartbeat in the last ${ONLINE_WINDOW_SECONDS} s.`,
    registers: [registry],
    async collect() {
      const since = new Date(sources.now().getTime() - ONLINE_WINDOW_SECONDS * 1000);
      const row = await db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('revoked_at', 'is', null)
        .where('last_heartbeat_at', '>=', since)
        .executeTakeFirstOrThrow();
      this.set(Number(row.n));
    },
  });

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    observeAccessCheck(outcome, reason) {
      accessChecks.inc({ outcome, reason });
    },
  };
}
