import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { microsecondKey, olderThan } from '../../kernel/db/keyset.js';
import { PLANNED_EACH_TIME } from '../../kernel/db/prepared.js';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookDeliveryStatus } from '../../kernel/db/types.js';
import { notifyDispatchers } from './outbox.js';

// The delivery queue and its log. Times come from the caller's clock, never the database's, so
// tests can run the retry schedule on an injected clock.

// An event's place in its booking's (device's) order: data.sequence, counted per booking (device)
// under its row lock (docs/webhooks.md). Events without a sequence are unordered (key null).
const ORDER_SEQUENCE = sql<number | null>`CASE WHEN jsonb_typeof(e.data -> 'sequence') = 'number'
  AND e.data ->> 'sequence' ~ '^[0-9]{1,9}$' THEN (e.data ->> 'sequence')::int END`;
const ORDER_KEY = sql<string | null>`CASE WHEN ${ORDER_SEQUENCE} IS NOT NULL
  THEN coalesce(e.data -> 'booking' ->> 'id', e.data -> 'device' ->> 'id') END`;

/** The transaction-level advisory lock that makes fan-out one at a time across processes. */
const FAN_OUT_LOCK = 2_811_280_001;

/**
 * Moves up to `limit` outbox events into deliveries, one per matching active subscription, and
 * marks them fanned out; a delivery is created at most once per (subscription, event). Returns the
 * number of events taken.
 *
 * One fan-out runs at a time (an advisory lock held to commit: the others wait a moment, then find
 * what is left), and it takes every waiting event of each booking (device) in its batch, so a
 * booking's events become deliveries together and in one commit: a dispatcher never sees a later
 * event's delivery while an earlier one of the same booking is still waiting to be fanned out.
 * The batch's keys are collected once (ARRAY(…)), so each waiting event's key is computed once
 * whatever plan the statistics lead to; before, a nested loop computed it per pair. An event of
 * another tenant with one of those keys (ids are UUIDs) would be taken early, which is harmless.
 */
export async function fanOut(trx: Executor, now: Date, limit: number): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(${FAN_OUT_LOCK})`.execute(trx);
  const taken = await sql<{ id: string }>`
    WITH batch AS (
      SELECT e.id, e.tenant_id, ${ORDER_KEY} AS order_key FROM events e
      WHERE e.fanned_out_at IS NULL
      ORDER BY e.created_at
      LIMIT ${limit}
    )
    SELECT id FROM batch
    UNION
    SELECT e.id FROM events e
    WHERE e.fanned_out_at IS NULL
      AND e.tenant_id = ANY (ARRAY(SELECT tenant_id FROM batch))
      AND ${ORDER_KEY} = ANY (ARRAY(SELECT order_key FROM batch WHERE order_key IS NOT NULL))
    ${sql.raw(PLANNED_EACH_TIME)}`.execute(trx);
  const events = taken.rows;
  if (events.length === 0) return 0;
  const ids = events.map((e) => e.id);
  await sql`
    INSERT INTO webhook_deliveries
      (tenant_id, webhook_id, event_id, status, next_attempt_at, created_at, order_key, order_sequence)
    SELECT e.tenant_id, w.id, e.id, 'pending', ${now}, ${now}, ${ORDER_KEY}, ${ORDER_SEQUENCE}
    FROM events e JOIN webhooks w ON w.tenant_id = e.tenant_id AND w.active AND e.type = ANY (w.events)
    WHERE e.id = ANY (${ids}::uuid[])
    ON CONFLICT DO NOTHING`.execute(trx);
  await trx.updateTable('events').set({ fanned_out_at: now }).where('id', 'in', ids).execute();
  return events.length;
}

/**
 * Claims due deliveries: at most `limit`, at most `perWebhook` of one subscription, none of the
 * subscriptions in `busyWebhookIds`. A claim moves next_attempt_at to `leaseUntil`, so if the
 * claimer dies mid-attempt the delivery becomes due again and is sent again (same webhook-id).
 *
 * Order per booking (device): a delivery with an order key waits while an earlier one of the same
 * key to the same subscription is pending (in flight, or waiting for a retry). Fan-out makes a
 * booking's waiting events deliveries in one commit (fanOut), so an earlier event not fanned out
 * yet cannot be overtaken either. The next event of a booking goes only after the previous one
 * succeeded or failed for good, whichever process sends it; different bookings go in parallel.
 */
export async function claimJobs(
  db: Executor,
  now: Date,
  leaseUntil: Date,
  limit: number,
  perWebhook: number,
  busyWebhookIds: string[],
): Promise<DeliveryJob[]> {
  if (limit <= 0) return [];
  // One statement (atomic on its own): the claim, and what sending each claimed delivery needs.
  const rows = await sql<JobRow>`
    WITH claimed AS (
      UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries
        WHERE id IN (
          SELECT id FROM (
            SELECT c.id, row_number() OVER (PARTITION BY c.webhook_id ORDER BY c.next_attempt_at, c.id) AS n
            FROM webhook_deliveries c
            WHERE c.status = 'pending' AND c.next_attempt_at <= ${now}
              AND NOT (c.webhook_id = ANY (${busyWebhookIds}::uuid[]))
              AND (c.order_key IS NULL OR NOT EXISTS (
                SELECT 1 FROM webhook_deliveries p
                WHERE p.webhook_id = c.webhook_id AND p.order_key = c.order_key AND p.status = 'pending'
                  AND p.order_sequence < c.order_sequence))
          ) ranked WHERE n <= ${perWebhook}
        )
        AND status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING d.*
    )
    SELECT d.*, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_expires_at, w.active,
      e.type AS event_type, e.data AS event_data, e.created_at AS event_created_at,
      (SELECT t.livemode FROM tenants t WHERE t.id = d.tenant_id) AS livemode
    FROM claimed d
    JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id
    JOIN events e ON e.tenant_id = d.tenant_id AND e.id = d.event_id
    ${sql.raw(PLANNED_EACH_TIME)}`.execute(db);
  return rows.rows.map(toJob);
}

/** A claimed delivery with what sending it needs. */
export interface DeliveryJob {
  delivery: WebhookDeliveryRow;
  url: string;
  secretSealed: string;
  /** The secret a rotation replaced, while it still signs (sealed), else null. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  active: boolean;
  eventType: string;
  eventData: Record<string, unknown>;
  eventCreatedAt: Date;
  /** The tenant's mode: false for a sandbox (test mode, docs/test-mode.md). */
  livemode: boolean;
}

/** A delivery row with its subscription's and its event's columns, as loadJobs and claimJobs read it. */
type JobRow = WebhookDeliveryRow & {
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  active: boolean;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
  livemode: boolean | null;
};

function toJob({
  url,
  secret_sealed,
  previous_secret_sealed,
  previous_secret_expires_at,
  active,
  event_type,
  event_data,
  event_created_at,
  livemode,
  ...delivery
}: JobRow): DeliveryJob {
  return {
    delivery,
    url,
    secretSealed: secret_sealed,
    previousSecretSealed: previous_secret_sealed,
    previousSecretExpiresAt: previous_secret_expires_at,
    active,
    eventType: event_type,
    eventData: event_data,
    eventCreatedAt: event_created_at,
    livemode: livemode ?? true,
  };
}

export async function loadJobs(db: Executor, ids: string[]): Promise<DeliveryJob[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', (j) => j.onRef('w.tenant_id', '=', 'd.tenant_id').onRef('w.id', '=', 'd.webhook_id'))
    .innerJoin('events as e', (j) => j.onRef('e.tenant_id', '=', 'd.tenant_id').onRef('e.id', '=', 'd.event_id'))
    .selectAll('d')
    .select([
      'w.url',
      'w.secret_sealed',
      'w.previous_secret_sealed',
      'w.previous_secret_expires_at',
      'w.active',
      'e.type as event_type',
      'e.data as event_data',
      'e.created_at as event_created_at',
      (eb) => eb.selectFrom('tenants as t').select('t.livemode').whereRef('t.id', '=', 'd.tenant_id').as('livemode'),
    ])
    .where('d.id', 'in', ids)
    .execute();
  return rows.map(toJob);
}

export interface AttemptRecord {
  tenantId: string;
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** What was sent and what came back (docs/webhooks.md#delivery-log); never the signing secret. */
  requestHeaders?: Record<string, string> | null;
  requestBody?: string | null;
  responseHeaders?: Record<string, string> | null;
  responseBody?: string | null;
  responseBodyTruncated?: boolean;
}

export async function insertAttempt(db: Executor, a: AttemptRecord): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({
      tenant_id: a.tenantId,
      delivery_id: a.deliveryId,
      attempted_at: a.attemptedAt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      request_headers: a.requestHeaders ? JSON.stringify(a.requestHeaders) : null,
      request_body: a.requestBody ?? null,
      response_headers: a.responseHeaders ? JSON.stringify(a.responseHeaders) : null,
      response_body: a.responseBody ?? null,
      response_body_truncated: a.responseBodyTruncated ?? false,
    })
    .execute();
}

/** Records an attempt's outcome on the delivery: the next attempt's time, or the final status. */
export async function settleDelivery(
  db: Executor,
  a: AttemptRecord,
  outcome: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null; retryStep: number },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: outcome.status,
      attempt_count: eb('attempt_count', '+', 1),
      retry_step: outcome.retryStep,
      next_attempt_at: outcome.nextAttemptAt,
      last_attempt_at: a.attemptedAt,
      last_status_code: a.statusCode,
      last_error: a.error,
      completed_at: outcome.status === 'pending' ? null : a.attemptedAt,
    }))
    .where('tenant_id', '=', a.tenantId)
    .where('id', '=', a.deliveryId)
    .execute();
}

/**
 * Records successful attempts in one statement: each delivery becomes `succeeded` and its attempt
 * joins the log. A delivery deleted meanwhile (its subscription was) is skipped, attempt and all.
 * Returns the ids of the deliveries recorded.
 */
export async function recordSuccesses(db: Executor, attempts: AttemptRecord[]): Promise<string[]> {
  if (attempts.length === 0) return [];
  const column = <T>(of: (a: AttemptRecord) => T) => attempts.map(of);
  const json = (value: Record<string, string> | null | undefined) => (value ? JSON.stringify(value) : null);
  const rows = await sql<{ delivery_id: string }>`
    WITH v AS (
      SELECT * FROM unnest(
        ${column((a) => a.tenantId)}::uuid[], ${column((a) => a.deliveryId)}::uuid[],
        ${column((a) => a.attemptedAt)}::timestamptz[], ${column((a) => a.statusCode)}::int[],
        ${column((a) => a.durationMs)}::int[], ${column((a) => json(a.requestHeaders))}::text[],
        ${column((a) => a.requestBody ?? null)}::text[], ${column((a) => json(a.responseHeaders))}::text[],
        ${column((a) => a.responseBody ?? null)}::text[], ${column((a) => a.responseBodyTruncated ?? false)}::boolean[]
      ) AS v (tenant_id, delivery_id, attempted_at, status_code, duration_ms, request_headers, request_body,
              response_headers, response_body, response_body_truncated)
    ), settled AS (
      UPDATE webhook_deliveries d SET
        status = 'succeeded', attempt_count = d.attempt_count + 1, next_attempt_at = NULL,
        last_attempt_at = v.attempted_at, last_status_code = v.status_code, last_error = NULL,
        completed_at = v.attempted_at
      FROM v WHERE d.tenant_id = v.tenant_id AND d.id = v.delivery_id
      RETURNING d.tenant_id, d.id
    )
    INSERT INTO webhook_attempts (tenant_id, delivery_id, attempted_at, status_code, duration_ms, error,
      request_headers, request_body, response_headers, response_body, response_body_truncated)
    SELECT v.tenant_id, v.delivery_id, v.attempted_at, v.status_code, v.duration_ms, NULL,
      v.request_headers::jsonb, v.request_body, v.response_headers::jsonb, v.response_body, v.response_body_truncated
    FROM v JOIN settled s ON s.tenant_id = v.tenant_id AND s.id = v.delivery_id
    RETURNING delivery_id
    ${sql.raw(PLANNED_EACH_TIME)}`.execute(db);
  return rows.rows.map((r) => r.delivery_id);
}

/** Ends pending deliveries without another attempt (subscription deactivated). */
export async function failPending(
  db: Executor,
  tenantId: string,
  where: { webhookId?: string; deliveryId?: string },
  reason: string,
  at: Date,
): Promise<void> {
  let query = db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: reason, completed_at: at })
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'pending');
  if (where.webhookId) query = query.where('webhook_id', '=', where.webhookId);
  if (where.deliveryId) query = query.where('id', '=', where.deliveryId);
  await query.execute();
}

export interface DeliveryFilters {
  status?: WebhookDeliveryStatus;
  eventId?: string;
  /** Deliveries of this booking's events (the event's data.booking.id). */
  bookingId?: string;
}

/** The delivery log, newest first: of one subscription, or (webhookId null) of all the tenant's. */
export async function listDeliveries(
  db: Executor,
  tenantId: string,
  webhookId: string | null,
  filters: DeliveryFilters,
  limit: number,
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (j) => j.onRef('e.tenant_id', '=', 'd.tenant_id').onRef('e.id', '=', 'd.event_id'))
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.tenant_id', '=', tenantId);
  if (webhookId !== null) query = query.where('d.webhook_id', '=', webhookId);
  if (filters.bookingId) query = query.where(sql<string>`e.data -> 'booking' ->> 'id'`, '=', filters.bookingId);
  if (filters.status) query = query.where('d.status', '=', filters.status);
  if (filters.eventId) query = query.where('d.event_id', '=', filters.eventId);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
}

export type DeliveryLogRow = Awaited<ReturnType<typeof listDeliveries>>[number];

export async function findDeliveryOfEvent(
  db: Executor,
  tenantId: string,
  webhookId: string,
  eventId: string,
): Promise<DeliveryLogRow | undefined> {
  return (await listDeliveries(db, tenantId, webhookId, { eventId }, 1))[0];
}

/** Queues a delivery again from the start of the retry schedule, due at once. */
export async function requeue(db: Executor, tenantId: string, deliveryId: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', retry_step: 0, next_attempt_at: now, completed_at: null })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deliveryId)
    .execute();
  await notifyDispatchers(db);
}

export async function attemptsOf(db: Executor, deliveryIds: readonly string[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/** A webhook.test event that is never fanned out, and its one delivery, already claimed until `leaseUntil`. */
export async function insertTestDelivery(
  trx: Executor,
  tenantId: string,
  webhookId: string,
  data: Record<string, unknown>,
  now: Date,
  leaseUntil: Date,
): Promise<string> {
  const event = await trx
    .insertInto('events')
    .values({
      tenant_id: tenantId,
      type: 'webhook.test',
      data: JSON.stringify(data),
      created_at: now,
      fanned_out_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await trx
    .insertInto('webhook_deliveries')
    .values({
      tenant_id: tenantId,
      webhook_id: webhookId,
      event_id: event.id,
      status: 'pending',
      next_attempt_at: leaseUntil,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return delivery.id;
}

/** Queues the subscription's FAILED deliveries created at or after `since` again; returns how many. */
export async function requeueFailedSince(
  db: Executor,
  tenantId: string,
  webhookId: string,
  since: Date,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', retry_step: 0, next_attempt_at: now, completed_at: null })
    .where('tenant_id', '=', tenantId)
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  const queued = Number(result.numUpdatedRows);
  if (queued > 0) await notifyDispatchers(db);
  return queued;
}

/**
 * When the subscription's current run of failed attempts began: its first failed attempt after its
 * last successful one; null when its latest attempt succeeded or it has none.
 */
export async function failingSince(db: Executor, tenantId: string, webhookId: string): Promise<Date | null> {
  const row = await sql<{ since: Date | null }>`
    WITH attempts AS (
      SELECT a.attempted_at, a.status_code BETWEEN 200 AND 299 AS ok
      FROM webhook_attempts a JOIN webhook_deliveries d ON d.tenant_id = a.tenant_id AND d.id = a.delivery_id
      WHERE d.tenant_id = ${tenantId} AND d.webhook_id = ${webhookId}
    )
    SELECT min(attempted_at) AS since FROM attempts
    WHERE NOT coalesce(ok, false)
      AND attempted_at > coalesce((SELECT max(attempted_at) FROM attempts WHERE ok), '-infinity'::timestamptz)`.execute(
    db,
  );
  const since = row.rows[0]?.since;
  return since ? new Date(since) : null;
}

/** A delivery's place in the log's order (newest first, then id): what a cursor carries. */
export interface DeliveryKey {
  /** created_at to the microsecond (src/kernel/db/keyset.ts). */
  at: string;
  id: string;
}

/** The deliveries matching a connection's filters (of one subscription when webhookId is given). */
function deliveriesMatching(db: Executor, tenantId: string, webhookId: string | null, filters: DeliveryFilters) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (j) => j.onRef('e.tenant_id', '=', 'd.tenant_id').onRef('e.id', '=', 'd.event_id'))
    .where('d.tenant_id', '=', tenantId);
  if (webhookId !== null) query = query.where('d.webhook_id', '=', webhookId);
  if (filters.bookingId) query = query.where(sql<string>`e.data -> 'booking' ->> 'id'`, '=', filters.bookingId);
  if (filters.status) query = query.where('d.status', '=', filters.status);
  return query;
}

/** A keyset page of the delivery log (newest first, then id) after `after`. */
export async function deliveriesPage(
  db: Executor,
  tenantId: string,
  webhookId: string | null,
  filters: DeliveryFilters,
  after: DeliveryKey | null,
  limit: number,
) {
  return deliveriesMatching(db, tenantId, webhookId, filters)
    .selectAll('d')
    .select('e.type as event_type')
    .select(microsecondKey('d.created_at').as('sort_at'))
    .$if(after !== null, (q) => q.where(olderThan('d.created_at', 'd.id', after ?? { at: '', id: '' }, 'uuid')))
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

/** How many deliveries match the filters (every page's totalCount). */
export async function countDeliveries(
  db: Executor,
  tenantId: string,
  webhookId: string | null,
  filters: DeliveryFilters,
): Promise<number> {
  return (
    await deliveriesMatching(db, tenantId, webhookId, filters)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}
