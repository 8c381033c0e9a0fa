import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { eventInsert, recordEvent, type EventType } from '../webhooks/index.js';
import { queueBookingNotifications, type BookingChange } from '../notifications/index.js';
import * as catalog from '../catalog/index.js';
import * as repo from './bookings.repository.js';

/**
 * Writes a booking event to the outbox with `data.sequence`: the booking's next number, taken in the
 * same transaction under the booking row's lock, so a consumer can drop an event older than one it
 * has seen, however dispatchers deliver them. Returns the event's id and that sequence.
 */
export async function recordBookingEvent(
  trx: Executor,
  tenantId: string,
  type: EventType,
  bookingId: string,
  data: Record<string, unknown>,
): Promise<{ eventId: string; sequence: number }> {
  const sequence = await repo.nextEventSequence(trx, tenantId, bookingId);
  return { eventId: await recordEvent(trx, tenantId, type, { ...data, sequence }), sequence };
}

/** The sequence of a booking's first event: a booking inserted with it as `event_sequence` needs no update to take it. */
export const FIRST_EVENT_SEQUENCE = 1;

/**
 * The insert of the first event of a booking inserted with `event_sequence` FIRST_EVENT_SEQUENCE,
 * for the booking's own statement: the same event as recordBookingEvent, two round trips fewer.
 */
export function firstBookingEventInsert(
  trx: Executor,
  tenantId: string,
  type: EventType,
  data: Record<string, unknown>,
) {
  return eventInsert(trx, tenantId, type, { ...data, sequence: FIRST_EVENT_SEQUENCE });
}

/**
 * Queues the guest's mail and SMS of a change in the change's transaction (docs/notifications.md),
 * with the event's sequence as the calendar entry's SEQUENCE. Only a guest who was told of the
 * booking hears of it again: confirmations always, reschedules and cancellations of a booking that
 * was CONFIRMED; a booking waiting for its online payment gets its "pay here" (payment_due), and
 * a payment its receipt (`payment`: the cents received).
 */
export async function notifyGuest(
  trx: Executor,
  deps: AppDeps,
  change: BookingChange,
  booking: BookingRow,
  sequence: number,
  objectName?: string,
  payment?: { amount: number },
): Promise<void> {
  if (!(await messagingOn(trx, deps, booking.tenant_id))) return;
  const object = await catalog.findObject(trx, booking.tenant_id, booking.object_id);
  if (!object) return;
  const accommodation = await catalog.accommodationOf(trx, booking.tenant_id, object);
  await queueBookingNotifications(trx, deps, {
    change,
    booking,
    objectName: objectName ?? object.name,
    accommodation,
    sequence,
    payment,
  });
}

/**
 * Whether guest messages can go out for the tenant: the environment's SMTP or SMS, or the venue's
 * own set in the dashboard (read through `trx`; no read when the environment has both).
 */
export async function messagingOn(trx: Executor, deps: AppDeps, tenantId: string): Promise<boolean> {
  if (deps.env.mail !== null || deps.env.sms !== null) return true;
  const stored = await deps.providers.storedKinds(trx, tenantId);
  return stored.has('smtp') || stored.has('sms');
}
