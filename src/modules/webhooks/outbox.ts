import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';

/**
 * The channel dispatchers LISTEN on. Every statement that inserts into `events` NOTIFYs it (a
 * trigger, migration 202611281602), delivered when the transaction commits; notifyDispatchers()
 * does the same for deliveries queued again.
 */
export const WAKE_CHANNEL = 'portier_webhook_events';

/** Wakes every dispatcher when `db`'s transaction commits (at once outside a transaction). */
export async function notifyDispatchers(db: Executor): Promise<void> {
  await sql`SELECT pg_notify(${WAKE_CHANNEL}, '')`.execute(db);
}

/** The event types a subscription may list (docs/webhooks.md). */
export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.rescheduled',
  'booking.paid',
  'booking.refunded',
  'booking.no_show',
  'device.offline',
  'device.online',
  'device.command.executed',
  'device.command.failed',
  'access.decided',
  'webhook.disabled',
  'series.created',
  'series.updated',
  'series.cancelled',
  'customer.created',
  'customer.updated',
  'customer.merged',
  'customer.erased',
] as const;

/**
 * Event types written only for tenants with an active subscription that lists them (docs/webhooks.md,
 * "Opt-in events"): one per access decision is too many to keep for nobody.
 */
export const OPT_IN_EVENT_TYPES = ['access.decided', 'customer.created'] as const;
/** An event type a subscription may list (GraphQL's WebhookEventType). */
export type SubscribableEventType = (typeof EVENT_TYPES)[number];
export type EventType = SubscribableEventType | 'webhook.test';

/**
 * Writes an event to the outbox. Call it with the transaction of the change that causes the event,
 * so the event exists exactly when the change does; the dispatchers are woken when it commits.
 */
export async function recordEvent(
  db: Executor,
  tenantId: string,
  type: EventType,
  data: Record<string, unknown>,
): Promise<string> {
  return (await eventInsert(db, tenantId, type, data).executeTakeFirstOrThrow()).id;
}

/**
 * recordEvent's insert, not yet run: for a change written in one statement with its event (a
 * data-modifying CTE), which then exists exactly when the change does, as with recordEvent.
 */
export function eventInsert(db: Executor, tenantId: string, type: EventType, data: Record<string, unknown>) {
  return db
    .insertInto('events')
    .values({ tenant_id: tenantId, type, data: JSON.stringify(data) })
    .returning('id');
}
