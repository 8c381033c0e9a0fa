import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow } from '../../kernel/db/types.js';
import { notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import type { UpdateBookingGuest } from './bookings.commands.js';
import * as repo from './bookings.repository.js';

/** A guest field's value before and after a change (the audit entry's details). */
export type GuestChanges = Partial<
  Record<'guestName' | 'guestEmail' | 'guestPhone', { from: string | null; to: string | null }>
>;

const COLUMN = { guestName: 'guest_name', guestEmail: 'guest_email', guestPhone: 'guest_phone' } as const;

/**
 * Changes a booking's guest details (any status: a finished booking's contact may still be wrong).
 * Answers the booking as it is now and what changed; nothing changes when every value is the same.
 * `trx` must be the caller's transaction (the row is locked while it is read and written).
 */
export async function updateBookingGuest(
  trx: Executor,
  tenantId: string,
  bookingId: string,
  command: UpdateBookingGuest,
  now: Date,
): Promise<{ booking: BookingRow; changes: GuestChanges }> {
  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  const changes: GuestChanges = {};
  const set: Partial<Record<(typeof COLUMN)[keyof typeof COLUMN], string | null>> = {};
  for (const field of ['guestName', 'guestEmail', 'guestPhone'] as const) {
    const value = command[field];
    if (value === undefined) continue;
    const before = current[COLUMN[field]];
    if (value === before) continue;
    changes[field] = { from: before, to: value };
    set[COLUMN[field]] = value;
  }
  if (Object.keys(set).length === 0) return { booking: current, changes };
  const booking = await repo.updateGuest(trx, tenantId, current.id, set, now);
  return { booking, changes };
}
