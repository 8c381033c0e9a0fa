import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import type { Database } from './db/database.js';

// Portier's Prometheus metrics (docs/operations.md). One registry per process, built by the
// composition root and handed to the app through deps; nothing here is module-level state.
//
// Request, latency and access-check numbers are this process's own (counters). Queue depth,
// delivery outcomes and devices online are read from the database at scrape time, so every API
// process reports the same service-wide values (aggregate them with max, not sum).

export type AccessOutcome = 'allowed' | 'denied' | 'throttled' | 'refused';

/**
 * One delivery attempt's outcome (a webhook request, a guest mail or SMS): `success`; `failure`,
 * tried again later; `given_up`, failed and final (no retries left, not retried, or the receiver
 * answered 410 Gone).
 */
export type DeliveryOutcome = 'success' | 'failure' | 'given_up';
export const DELIVERY_OUTCOMES: readonly DeliveryOutcome[] = ['success', 'failure', 'given_up'];
/** A guest notification's outcomes: a webhook's, and unknown (sent, its outcome never recorded; not resent). */
export type NotificationOutcome = DeliveryOutcome | 'unknown';
export const NOTIFICATION_OUTCOMES: readonly NotificationOutcome[] = [...DELIVERY_OUTCOMES, 'unknown'];
export type NotificationChannel = 'email' | 'sms';

/** The operation label of GraphQL requests whose operation has no name. */
export const ANONYMOUS_OPERATION = 'anonymous';
/** The operation label once the distinct names reach the cap, and for names not admitted (docs/operations.md). */
export const OTHER_OPERATION = 'other';
/** Distinct GraphQL operation names a process labels at most; later new names count as `other`. */
export const MAX_OPERATION_NAMES = 100;
/** Longer operation names are labelled `other`: a label value stays short. */
const MAX_OPERATION_NAME_LENGTH = 100;

/**
 * prom-client's default metrics that break the naming rules (`promtool check metrics`): gauges
 * ending in `_total`. Each is the sum of the `type`-labelled gauge of the same name without the
 * suffix (portier_nodejs_active_handles and so on), so nothing is lost by leaving them out.
 */
const NON_COUNTER_TOTALS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export interface Metrics {
  registry: Registry;
  /**
   * One finished HTTP request: its route pattern (never the raw URL), method, status and duration;
   * for a GraphQL request, its operation label (operationLabel()).
   */
  observeRequest(route: string, method: string, status: number, seconds: number, operation?: string): void;
  /**
   * The label for a GraphQL operation name: the name itself while fewer than MAX_OPERATION_NAMES
   * distinct names were seen (a name is admitted only when `admit` is true, e.g. the caller was
   * authenticated and the operation ran), `anonymous` for none, `other` otherwise.
   */
  operationLabel(name: string | undefined, admit: boolean): string;
  /** One webhook delivery attempt's outcome. */
  observeWebhookDelivery(outcome: DeliveryOutcome): void;
  /** One guest notification attempt's outcome, by channel. */
  observeNotification(channel: NotificationChannel, outcome: NotificationOutcome): void;
  /** A difference between Portier's ledger and the provider's (a webhook's amount, a reconciliation finding). */
  observePaymentDiscrepancy(kind: string): void;
  /** One refund attempt of the refund outbox, or one repair by the reconciliation. */
  observeRefund(outcome: 'success' | 'failure' | 'given_up' | 'repaired'): void;
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
  /**
   * The device routes' own pool (PostgreSQL; docs/operations.md#the-doors-bulkhead); absent (PGlite,
   * where the device routes share the one connection), its gauges are not reported.
   */
  devicePool?: PoolStats & { options: { max?: number } };
  now: () => Date;
  /** A device counts as online when its last heartbeat is this recent (devices' ONLINE_WINDOW_SECONDS, passed by src/app). */
  onlineWindowSeconds: number;
  /** Distinct GraphQL operation names labelled at most (default MAX_OPERATION_NAMES). */
  maxOperationNames?: number;
}

/** The device routes' own pool, for the metrics: PostgreSQL's; none on PGlite, where they share the one connection. */
export function devicePoolOf(database: Database): MetricSources['devicePool'] {
  return database.device.pool === database.pool ? undefined : database.device.pool;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'portier_' });
  for (const name of NON_COUNTER_TOTALS) registry.removeSingleMetric(`portier_${name}`);
  const db = sources.database.db;

  const requests = new Counter({
    name: 'portier_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method, status and (GraphQL only) operation name.',
    labelNames: ['route', 'method', 'status', 'operation'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'portier_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method, status and (GraphQL only) operation name.',
    labelNames: ['route', 'method', 'status', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const accessChecks = new Counter({
    name: 'portier_access_checks_total',
    help: 'Device access checks by outcome (allowed, denied, throttled, refused) and reason (the denial reason; "ok" when allowed).',
    labelNames: ['outcome', 'reason'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'portier_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome: success, failure (tried again later), given_up (failed, final).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const notificationAttempts = new Counter({
    name: 'portier_notification_delivery_attempts_total',
    help: 'Guest notification attempts (email, SMS) made by this process, by channel and outcome: success, failure (tried again later), given_up (failed, final), unknown (handed to the peer, outcome never recorded; not resent).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  const paymentDiscrepancies = new Counter({
    name: 'portier_payment_discrepancies_total',
    help: 'Differences found between Portier and the payment provider by this process, by kind (checkout_amount_mismatch, reconciliation findings).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const refundAttempts = new Counter({
    name: 'portier_refund_attempts_total',
    help: 'Refund outbox attempts made by this process, by outcome: success, failure (tried again later), given_up (failed, final), repaired (recorded by the reconciliation).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Every outcome is reported from the start (0 until it happens), so rate() and alerts see the series.
  for (const outcome of DELIVERY_OUTCOMES) webhookAttempts.inc({ outcome }, 0);
  for (const outcome of NOTIFICATION_OUTCOMES)
    for (const channel of ['email', 'sms'] as const) notificationAttempts.inc({ channel, outcome }, 0);
  const operationNames = new Set<string>();
  const maxOperationNames = sources.maxOperationNames ?? MAX_OPERATION_NAMES;

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

  const devicePool = sources.devicePool;
  if (devicePool) {
    new Gauge({
      name: 'portier_db_device_pool_connections',
      help: "The device routes' own database pool by state: open (total), idle, and requests waiting for one.",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'open' }, devicePool.totalCount);
        this.set({ state: 'idle' }, devicePool.idleCount);
        this.set({ state: 'waiting' }, devicePool.waitingCount);
      },
    });
    new Gauge({
      name: 'portier_db_device_pool_max_connections',
      help: "The most connections the device routes' pool opens (DATABASE_DEVICE_POOL_SIZE).",
      registers: [registry],
      collect() {
        this.set(devicePool.options.max ?? 0);
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
        .select((eb) => [
          eb.fn.countAll<string>().as('pending'),
          sql<string>`count(*) filter (where next_attempt_at <= ${sources.now()})`.as('due'),
        ])
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
      for (const status of ['succeeded', 'failed'])
        this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });

  new Gauge({
    name: 'portier_devices_online',
    help: `Activated, unrevoked devices that sent a heartbeat in the last ${sources.onlineWindowSeconds} s.`,
    registers: [registry],
    async collect() {
      const since = new Date(sources.now().getTime() - sources.onlineWindowSeconds * 1000);
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
    observeRequest(route, method, status, seconds, operation) {
      const labels =
        operation === undefined
          ? { route, method, status: String(status) }
          : { route, method, status: String(status), operation };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    operationLabel(name, admit) {
      if (!name) return ANONYMOUS_OPERATION;
      if (operationNames.has(name)) return name;
      if (!admit || operationNames.size >= maxOperationNames || name.length > MAX_OPERATION_NAME_LENGTH)
        return OTHER_OPERATION;
      operationNames.add(name);
      return name;
    },
    observeAccessCheck(outcome, reason) {
      accessChecks.inc({ outcome, reason });
    },
    observeWebhookDelivery(outcome) {
      webhookAttempts.inc({ outcome });
    },
    observeNotification(channel, outcome) {
      notificationAttempts.inc({ channel, outcome });
    },
    observePaymentDiscrepancy(kind) {
      paymentDiscrepancies.inc({ kind });
    },
    observeRefund(outcome) {
      refundAttempts.inc({ outcome });
    },
  };
}
