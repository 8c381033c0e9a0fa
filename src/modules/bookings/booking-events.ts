import type { Executor } from '../../db/index.js';
import { recordEvent, type EventType } from '../webhooks/index.js';
import * as repo from './bookings.repository.js';

/**
 * Writes a booking event to the outbox with `data.sequence`: the booking's next number, taken in the
 * same transaction under the booking row's lock, so a consumer can drop an event older than one it
 * has seen, however dispatchers deliver them.
 */
export async function recordBookingEvent(trx: Executor, tenantId: string, type: EventType, bookingId: string, data: Record<string, unknown>): Promise<string> {
  const sequence = await repo.nextEventSequence(trx, tenantId, bookingId);
  return recordEvent(trx, tenantId, type, { ...data, sequence });
}
