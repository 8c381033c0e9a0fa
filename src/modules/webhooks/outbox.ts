import type { Executor } from '../../db/index.js';

/** The event types a subscription may list (docs/webhooks.md). */
export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.rescheduled',
  'device.offline',
  'device.online',
  'webhook.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

/**
 * Writes an event to the outbox. Call it with the transaction of the change that causes the event,
 * so the event exists exactly when the change does; the dispatcher delivers it later.
 */
export async function recordEvent(db: Executor, tenantId: string, type: EventType, data: Record<string, unknown>): Promise<string> {
  const row = await db
    .insertInto('events')
    .values({ tenant_id: tenantId, type, data: JSON.stringify(data) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
