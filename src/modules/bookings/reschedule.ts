import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { conflict, invalid, invalidField, notFound } from '../../kernel/errors.js';
import { commandErrors, throwIfInvalid } from '../../kernel/commands.js';
import { isUuid } from '../../kernel/validation.js';
import { MoveTimes, type RescheduleBooking } from './bookings.commands.js';
import { quoteWithRules } from '../pricing/index.js';
import { notifyGuest, recordBookingEvent } from './booking-events.js';
import { issueCredentials, rescheduleCredentials } from '../access/index.js';
import * as repo from './bookings.repository.js';
import { bookingContextOf, bookingEventData, bookingWindowErrors } from './bookings.service.js';

// A reschedule (docs/bookings.md): the same booking moves, never a cancel plus a create.

export interface PreviousSlot {
  objectId: string;
  startTime: Date;
  endTime: Date;
  totalPrice: number;
}

const RESCHEDULABLE = new Set(['PENDING', 'CONFIRMED']);
const EXCLUSION_VIOLATION = '23P01';

/**
 * Moves a PENDING or CONFIRMED booking to new times, and optionally to another object of the
 * tenant (`command`: the caller's parsed input, parseRescheduleBooking): the booking rules and no-overlap rule of creation, the price quoted again
 * now, its credentials following the new window, and one booking.rescheduled event carrying the
 * previous slot. `trx` must be the caller's transaction.
 */
export async function rescheduleBooking(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
  command: RescheduleBooking,
): Promise<{ booking: BookingRow; previous: PreviousSlot }> {
  const { startTime: from, endTime: to } = command;

  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  if (!RESCHEDULABLE.has(current.status)) {
    throw conflict(
      'invalid_transition',
      `A ${current.status} booking cannot be rescheduled; only PENDING and CONFIRMED bookings can`,
    );
  }
  const objectId = command.objectId ?? current.object_id;
  const object = await bookingContextOf(trx, tenantId, objectId, from);
  const timeZone = object.time_zone;
  const now = deps.now();
  const errors = bookingWindowErrors(object, from, to, now);
  const [first] = errors;
  if (first) throw invalid(errors, first.code);
  const quote = quoteWithRules(object.pricing_rules, object, timeZone, from, to, now);

  let booking: BookingRow;
  try {
    booking = await repo.moveBooking(
      trx,
      tenantId,
      current.id,
      {
        object_id: object.id,
        start_time: from,
        end_time: to,
        blocked_until: new Date(to.getTime() + object.buffer_minutes * 60_000),
        total_price: quote.totalPrice,
      },
      now,
    );
  } catch (error) {
    if ((error as { code?: string }).code === EXCLUSION_VIOLATION) {
      throw conflict('slot_unavailable', 'The object is already booked for an overlapping time (including its buffer)');
    }
    throw error;
  }
  const previous: PreviousSlot = {
    objectId: current.object_id,
    startTime: current.start_time,
    endTime: current.end_time,
    totalPrice: current.total_price,
  };
  // The old token id is revoked and a token for the new window issued; a booking that never had
  // credentials (imported) gets them now.
  if (!(await rescheduleCredentials(trx, deps, booking))) await issueCredentials(trx, deps, booking);
  const { sequence } = await recordBookingEvent(trx, tenantId, 'booking.rescheduled', booking.id, {
    ...bookingEventData(booking, object.name),
    previous: { ...previous, startTime: previous.startTime.toISOString(), endTime: previous.endTime.toISOString() },
  });
  if (booking.status === 'CONFIRMED') await notifyGuest(trx, deps, 'rescheduled', booking, sequence, object.name);
  return { booking, previous };
}

export interface UpdateBookingInput {
  status?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  objectId?: unknown;
}

/** Which of the PATCH's two kinds a body asks for: a status change or a reschedule, never both. */
export function updateKind(input: UpdateBookingInput): 'status' | 'reschedule' {
  const moves = input.startTime != null || input.endTime != null || input.objectId != null;
  if (input.status != null && moves) {
    throw invalidField(
      'status',
      'cannot be combined with startTime, endTime or objectId: change the status and the times in two requests',
    );
  }
  if (input.status != null) return 'status';
  if (!moves)
    throw invalidField(
      'status',
      'is required: send status, or startTime and endTime (and optionally objectId) to reschedule, or metadata',
    );
  throwIfInvalid(MoveTimes, commandErrors(MoveTimes, input));
  return 'reschedule';
}
