import type { Executor } from '../../db/index.js';
import type { BookingRow, BookingStatus, ObjectRow } from '../../db/types.js';
import type { AppDeps } from '../../deps.js';
import { DomainError, Validator, conflict, invalid, invalidField, notFound } from '../../errors.js';
import { isEmail, isNonEmptyString, isUuid, parseBoundary, parseInstant } from '../../validation.js';
import * as catalog from '../catalog/index.js';
import { cancellationQuote, quoteBooking, refundForCancellation } from '../pricing/index.js';
import { recordBookingEvent } from './booking-events.js';
import * as repo from './bookings.repository.js';
import { BOOKING_STATUSES, canTransition, eventOfStatus } from './transitions.js';
import { paymentUrl } from './payment.js';
import { validateBookingWindow, type BookingRuleError } from './booking-rules.js';
import { localDateOf, specialDatesOn } from '../availability/index.js';
import { issueCredentials } from '../access/index.js';

export interface CreateBookingInput {
  objectId: unknown;
  guestName: unknown;
  guestEmail: unknown;
  guestPhone?: unknown;
  startTime: unknown;
  endTime: unknown;
}

interface CheckedInput {
  object: ObjectRow;
  guestName: string;
  guestEmail: string;
  guestPhone: string | null;
  start: Date;
  end: Date;
}

/** Field checks shared by creation and import; the object must be the tenant's. */
async function checkInput(db: Executor, tenantId: string, input: CreateBookingInput): Promise<CheckedInput> {
  const v = new Validator();
  v.check(isUuid(input.objectId), 'objectId', 'must be the id of a bookable object');
  v.check(isNonEmptyString(input.guestName), 'guestName', 'must be a non-empty string of at most 200 characters');
  v.check(isEmail(input.guestEmail), 'guestEmail', 'must be a valid email address');
  if (input.guestPhone != null) {
    v.check(typeof input.guestPhone === 'string' && /^\+?[0-9 ()\-./]{3,32}$/.test(input.guestPhone), 'guestPhone', 'must be a phone number such as +49 30 1234567');
  }
  const start = parseInstant(input.startTime);
  const end = parseInstant(input.endTime);
  v.check(start !== undefined, 'startTime', 'must be an ISO 8601 timestamp with a time zone offset');
  v.check(end !== undefined, 'endTime', 'must be an ISO 8601 timestamp with a time zone offset');
  v.throwIfAny();
  if (!(start! < end!)) throw invalidField('endTime', 'must be later than startTime', 'invalid_time_range');
  const object = await repo.lockObjectForBooking(db, tenantId, input.objectId as string);
  // Another tenant's object is as unknown as a missing one: 404, as for every resource (DESIGN 5).
  if (!object) {
    throw new DomainError('NOT_FOUND', 'unknown_object', `objectId: object ${String(input.objectId)} was not found`, {
      fieldErrors: [{ field: 'objectId', message: 'does not exist' }],
    });
  }
  return {
    object,
    guestName: (input.guestName as string).trim(),
    guestEmail: (input.guestEmail as string).trim(),
    guestPhone: (input.guestPhone as string | null | undefined) ?? null,
    start: start!,
    end: end!,
  };
}

const EXCLUSION_VIOLATION = '23P01';

async function insertOrConflict(db: Executor, values: repo.NewBooking): Promise<BookingRow> {
  try {
    return await repo.insertBooking(db, values);
  } catch (error) {
    if ((error as { code?: string }).code === EXCLUSION_VIOLATION) {
      throw conflict('slot_unavailable', 'The object is already booked for an overlapping time (including its buffer)');
    }
    throw error;
  }
}

/** The booking as webhook events carry it. */
export function bookingEventData(booking: BookingRow, objectName: string): Record<string, unknown> {
  return {
    booking: {
      id: booking.id,
      objectId: booking.object_id,
      objectName,
      guestName: booking.guest_name,
      guestEmail: booking.guest_email,
      guestPhone: booking.guest_phone,
      startTime: booking.start_time.toISOString(),
      endTime: booking.end_time.toISOString(),
      status: booking.status,
      totalPrice: booking.total_price,
      currency: booking.currency,
      createdAt: booking.created_at.toISOString(),
      ...(booking.refund_amount != null ? { refundAmount: booking.refund_amount } : {}),
    },
  };
}

/**
 * The booking rules [start, end) on `object` breaks at `now`, read in its accommodation's zone
 * (`timeZone`, which the caller already holds) with that date's special date (empty when none).
 * Shared by creation and the price preview.
 */
export async function bookingWindowErrors(db: Executor, tenantId: string, object: ObjectRow, timeZone: string, start: Date, end: Date, now: Date): Promise<BookingRuleError[]> {
  const specialDates = await specialDatesOn(db, tenantId, [object.id], [localDateOf(start, timeZone)]);
  return validateBookingWindow(object, timeZone, specialDates, start, end, now);
}

async function checkBookingWindow(db: Executor, tenantId: string, checked: CheckedInput, timeZone: string, now: Date): Promise<void> {
  const errors = await bookingWindowErrors(db, tenantId, checked.object, timeZone, checked.start, checked.end, now);
  if (errors.length) throw invalid(errors, errors[0].code);
}

export interface CreateOptions {
  /**
   * A booking loaded from a catalog file (DESIGN section 6): it keeps this status, may lie in the
   * past, skips opening hours and booking rules and emits no event; the no-overlap rule still holds.
   */
  imported?: { status: BookingStatus };
}

/** Creates a booking (PENDING unless imported); `trx` must be the caller's transaction. */
export async function createBooking(trx: Executor, deps: AppDeps, tenantId: string, input: CreateBookingInput, options: CreateOptions = {}): Promise<BookingRow> {
  const checked = await checkInput(trx, tenantId, input);
  const now = deps.now();
  // Read once: the booking window and the price are both read in the accommodation's zone.
  const { time_zone: timeZone } = await catalog.accommodationOf(trx, tenantId, checked.object);
  if (!options.imported) await checkBookingWindow(trx, tenantId, checked, timeZone, now);
  const quote = await quoteBooking(trx, tenantId, checked.object, timeZone, checked.start, checked.end, now);
  const booking = await insertOrConflict(trx, {
    tenant_id: tenantId,
    object_id: checked.object.id,
    guest_name: checked.guestName,
    guest_email: checked.guestEmail,
    guest_phone: checked.guestPhone,
    start_time: checked.start,
    end_time: checked.end,
    blocked_until: new Date(checked.end.getTime() + checked.object.buffer_minutes * 60_000),
    status: options.imported?.status ?? 'PENDING',
    total_price: quote.totalPrice,
    created_at: now,
  });
  if (!options.imported) await recordBookingEvent(trx, tenantId, 'booking.created', booking.id, bookingEventData(booking, checked.object.name));
  await issueCredentials(trx, deps, booking);
  return booking;
}

export async function getBooking(db: Executor, tenantId: string, id: string): Promise<BookingRow> {
  const booking = isUuid(id) ? await repo.findBooking(db, tenantId, id) : undefined;
  if (!booking) throw notFound('Booking', id);
  return booking;
}

/** What cancelling the booking now would refund; only a booking that may still be cancelled has one. */
export async function quoteCancellation(db: Executor, deps: AppDeps, tenantId: string, bookingId: string) {
  const booking = await getBooking(db, tenantId, bookingId);
  if (!canTransition(booking.status, 'CANCELLED')) {
    throw conflict('invalid_transition', `A ${booking.status} booking cannot be cancelled`);
  }
  const quote = await cancellationQuote(db, tenantId, booking, deps.now());
  return { bookingId: booking.id, totalPrice: booking.total_price, currency: booking.currency, ...quote };
}

/** Moves a booking along the allowed transitions; returns the refund when it cancels. */
export async function updateBookingStatus(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
  status: unknown,
): Promise<{ booking: BookingRow; refundAmount: number | null }> {
  if (typeof status !== 'string' || !(BOOKING_STATUSES as readonly string[]).includes(status)) {
    throw invalidField('status', 'must be one of CONFIRMED, CANCELLED, COMPLETED');
  }
  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  const next = status as BookingStatus;
  if (!canTransition(current.status, next)) {
    throw conflict('invalid_transition', `A ${current.status} booking cannot become ${next}`);
  }
  const now = deps.now();
  const refundAmount = next === 'CANCELLED' ? await refundForCancellation(trx, tenantId, current, now) : null;
  const booking = await repo.updateBookingStatus(trx, tenantId, bookingId, next, refundAmount, now);
  const event = eventOfStatus(next);
  if (event) {
    const object = await catalog.findObject(trx, tenantId, booking.object_id);
    await recordBookingEvent(trx, tenantId, event as 'booking.confirmed', booking.id, bookingEventData(booking, object?.name ?? ''));
  }
  return { booking, refundAmount };
}

export const MAX_PAGE_SIZE = 100;

export interface ListInput extends Omit<repo.BookingFilters, 'from' | 'to'> {
  page?: number | null;
  pageSize?: number | null;
  from?: Date | string | null;
  to?: Date | string | null;
}

/** A page of bookings, with the objects and accommodations they refer to (for priming loaders). */
export async function listBookings(db: Executor, tenantId: string, input: ListInput, options: { withTotal?: boolean } = {}) {
  const v = new Validator();
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 20;
  v.check(Number.isInteger(page) && page >= 1, 'page', 'must be a whole number ≥ 1');
  v.check(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_PAGE_SIZE, 'pageSize', `must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  if (input.objectId != null) v.check(isUuid(input.objectId), 'objectId', 'must be an object id (uuid)');
  const from = input.from != null ? parseBoundary(input.from) : null;
  const to = input.to != null ? parseBoundary(input.to) : null;
  const boundary = 'must be an ISO 8601 date (YYYY-MM-DD, midnight UTC) or timestamp with an offset, such as 2026-11-20T10:00:00Z';
  v.check(from !== undefined, 'from', boundary);
  v.check(to !== undefined, 'to', boundary);
  v.throwIfAny();
  const result = await repo.listBookings(db, tenantId, { ...input, from, to }, pageSize, (page - 1) * pageSize, options.withTotal ?? true);
  return {
    bookings: result.rows,
    pagination: { page, pageSize, total: result.total },
    related: { objects: result.objects, accommodations: result.accommodations },
  };
}

export function paymentUrlOf(deps: AppDeps, booking: { id: string }): string {
  return paymentUrl(deps.env.publicUrl, deps.secret, booking.id);
}
