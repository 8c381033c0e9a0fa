import {
  connectionOf,
  cursorPageRows,
  encodeCursor,
  instantCursor,
  type Connection,
  type CursorPage,
} from '../../kernel/paging.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { Executor } from '../../kernel/db/index.js';
import type { WebhookDeliveryStatus, WebhookRow } from '../../kernel/db/types.js';
import { conflict, invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { hostRefusal, systemResolver, type Resolver } from './address-guard.js';
import * as deliveries from './deliveries.repository.js';
import { attemptDelivery } from './delivery.js';
import { DELIVERY_TIMEOUT_MS, type Sender } from './sender.js';
import * as repo from './webhooks.repository.js';
import {
  DELIVERY_CURSOR,
  type CreateWebhook,
  type DeliveriesConnectionCommand,
  type ListBookingDeliveries,
  type ListDeliveries,
} from './webhooks.commands.js';

// Every function takes the tenant already resolved from the principal (tenantOf).

/**
 * Creates a subscription (`command`: the caller's parsed input, parseCreateWebhook). `db` must not be an open transaction: the receiver's host name is
 * resolved first (the SSRF check), and PGlite's one connection must not wait on DNS.
 */
export async function createWebhook(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreateWebhook,
  resolver: Resolver = systemResolver,
): Promise<WebhookRow> {
  if (!deps.env.webhookAllowPrivateNetworks) {
    const refusal = await hostRefusal(new URL(command.url).hostname, resolver);
    if (refusal)
      throw invalidField('url', `${refusal}; webhook receivers must be public internet addresses`, 'url_not_allowed');
  }
  return repo.insertWebhook(db, {
    tenant_id: tenantId,
    url: command.url,
    events: command.events,
    secret_sealed: deps.secret.seal(command.secret),
  });
}

export async function getWebhook(db: Executor, tenantId: string, id: string): Promise<WebhookRow> {
  const row = isUuid(id) ? await repo.findWebhook(db, tenantId, id) : undefined;
  if (!row) throw notFound('Webhook', id);
  return row;
}

export const listWebhooks = repo.listWebhooks;

export async function deleteWebhook(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ deleted: true; id: string }> {
  if (!isUuid(id) || !(await repo.deleteWebhook(db, tenantId, id))) throw notFound('Webhook', id);
  return { deleted: true, id };
}

export interface TestOutcome {
  webhookId: string;
  eventId: string;
  success: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Sends a webhook.test event to one subscription now and reports how it went (never the
 * receiver's body). One attempt, bounded by the delivery timeout; it is logged like any delivery
 * but not retried. `db` must be the root handle: the request goes out between two transactions.
 */
export async function testWebhook(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  webhookId: string,
  send: Sender = deps.webhookSender,
): Promise<TestOutcome> {
  const webhook = await getWebhook(db, tenantId, webhookId);
  const now = deps.now();
  const data = {
    webhookId: webhook.id,
    message: 'A test event from Portier: this subscription receives signed events.',
  };
  const deliveryId = await db
    .transaction()
    .execute((trx) =>
      deliveries.insertTestDelivery(
        trx,
        tenantId,
        webhook.id,
        data,
        now,
        new Date(now.getTime() + DELIVERY_TIMEOUT_MS + 60_000),
      ),
    );
  const [job] = await deliveries.loadJobs(db, [deliveryId]);
  if (!job) throw notFound('Webhook', webhookId); // deleted meanwhile
  const ctx = {
    db: deps.database.db,
    secret: deps.secret,
    send,
    now: deps.now,
    log: deps.log,
    metrics: deps.metrics,
    tracing: deps.tracing,
  };
  const outcome = await attemptDelivery(ctx, job, { retry: false, evenIfInactive: true });
  if (!outcome) throw conflict('webhook_unavailable', 'The test event could not be signed for this subscription');
  const { eventId, success, statusCode, durationMs, error } = outcome;
  return { webhookId: webhook.id, eventId, success, statusCode, durationMs, error };
}

const STATUS_OF: Record<string, WebhookDeliveryStatus> = {
  PENDING: 'pending',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
};

export async function listDeliveries(
  db: Executor,
  tenantId: string,
  webhookId: string,
  { status, first }: ListDeliveries,
) {
  await getWebhook(db, tenantId, webhookId);
  return deliveries.listDeliveries(db, tenantId, webhookId, { status: status ? STATUS_OF[status] : undefined }, first);
}

export const WEBHOOK_CURSOR = instantCursor('webhook');

/** A cursor page of the subscriptions (REST cursor paging), oldest first. */
export async function webhookPage(db: Executor, tenantId: string, cursor: CursorPage<{ at: string; id: string }>) {
  const rows = await repo.webhooksPage(db, tenantId, cursor.after, cursor.limit + 1);
  return cursorPageRows(rows, cursor.limit, WEBHOOK_CURSOR.of);
}

/** A subscription's delivery log after a cursor (the connection's, one order), newest first. */
export async function deliveryLogPage(
  db: Executor,
  tenantId: string,
  webhookId: string,
  status: ListDeliveries['status'],
  cursor: CursorPage<{ at: string; id: string }>,
) {
  await getWebhook(db, tenantId, webhookId);
  const filters = { status: status ? STATUS_OF[status] : undefined };
  const rows = await deliveries.deliveriesPage(db, tenantId, webhookId, filters, cursor.after, cursor.limit + 1);
  return cursorPageRows(rows, cursor.limit, (row) => encodeCursor(DELIVERY_CURSOR, [row.sort_at, row.id]));
}

/** What became of one booking's events: their deliveries to every subscription, newest first. */
export async function listBookingDeliveries(
  db: Executor,
  tenantId: string,
  { bookingId, first }: ListBookingDeliveries,
) {
  return deliveries.listDeliveries(db, tenantId, null, { bookingId }, first);
}

/**
 * Queues one event's delivery to a subscription again, due at once and with a fresh retry
 * schedule; it keeps its webhook-id (the event id).
 */
export async function redeliver(trx: Executor, deps: AppDeps, tenantId: string, webhookId: string, eventId: string) {
  const webhook = await getWebhook(trx, tenantId, webhookId);
  const delivery = isUuid(eventId)
    ? await deliveries.findDeliveryOfEvent(trx, tenantId, webhook.id, eventId)
    : undefined;
  if (!delivery) throw notFound(`Delivery of event ${eventId} to webhook`, webhookId);
  if (!webhook.active) {
    throw conflict(
      'webhook_inactive',
      `Webhook ${webhookId} is inactive (${webhook.deactivated_reason ?? 'deactivated'}); create a new subscription`,
    );
  }
  await deliveries.requeue(trx, tenantId, delivery.id, deps.now());
  const requeued = await deliveries.findDeliveryOfEvent(trx, tenantId, webhook.id, eventId);
  if (!requeued) throw notFound(`Delivery of event ${eventId} to webhook`, webhookId);
  return requeued;
}

/** A keyset page of the delivery log (newest first, then id) after the cursor `after`; the total when asked (a second statement). */
export async function deliveriesConnection(
  db: Executor,
  tenantId: string,
  args: DeliveriesConnectionCommand,
  withTotal: boolean,
): Promise<Connection<deliveries.DeliveryLogRow & { sort_at: string }>> {
  const { first: size, key } = args;
  const filters = { status: args.status ? STATUS_OF[args.status] : undefined, bookingId: args.bookingId ?? undefined };
  const webhookId = args.webhookId;
  const [rows, total] = await Promise.all([
    deliveries.deliveriesPage(db, tenantId, webhookId, filters, key, size + 1),
    withTotal ? deliveries.countDeliveries(db, tenantId, webhookId, filters) : null,
  ]);
  return connectionOf(rows, size, args.after, (row) => encodeCursor(DELIVERY_CURSOR, [row.sort_at, row.id]), total);
}
