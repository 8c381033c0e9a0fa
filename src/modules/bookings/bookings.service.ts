import { randomUUID } from 'node:crypto';
import type { Executor } from '../../kernel/db/index.js';
import type { AccommodationRow, BookingRow, BookingStatus, BookingView, ObjectRow } from '../../kernel/db/types.js';
import {
  PAGE_SIZES,
  connectionOf,
  cursorPageRows,
  encodeCursor,
  type Connection,
  type CursorPage,
} from '../../kernel/paging.js';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError, conflict, invalid, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import type { Locale } from '../../kernel/i18n.js';
import { mergeMetadata, metadataUnchanged, type MetadataPatch } from '../../kernel/metadata.js';
import * as catalog from '../catalog/index.js';
import { cancellationQuote, quoteWithRules, refundForCancellation } from '../pricing/index.js';
import {
  FIRST_EVENT_SEQUENCE,
  firstBookingEventInsert,
  messagingOn,
  notifyGuest,
  recordBookingEvent,
} from './booking-events.js';
import * as repo from './bookings.repository.js';
import { canTransition, eventOfStatus } from './transitions.js';
import {
  BOOKING_CURSOR,
  type BookingsConnectionCommand,
  type CreateBooking,
  type ListBookings,
  type UpdateBookingStatus,
} from './bookings.commands.js';
import { paymentUrl } from './payment.js';
import { validateBookingWindow, type BookingRuleError } from './booking-rules.js';
import { issueCredentials, newBookingCredentials, revokeCredentials } from '../access/index.js';
import { awaitsOnlinePayment } from './guest-messages.js';
import { noShowRefusal, type CancellationReason } from './outcomes.rules.js';

/** The object a booking is for, locked for the insert; another tenant's object is unknown here. */
/** The object (locked for the booking), its zone and special dates; an unknown object answers 404 on `objectId`. */
export async function bookingContextOf(
  db: Executor,
  tenantId: string,
  objectId: string,
  start: Date,
): Promise<repo.BookingContextRow> {
  const context = await repo.readBookingContext(db, tenantId, objectId, start, true);
  // Another tenant's object is as unknown as a missing one: 404, as for every resource (DESIGN 5).
  if (!context) {
    throw new DomainError('NOT_FOUND', 'unknown_object', `objectId: object ${objectId} was not found`, {
      fieldErrors: [{ field: 'objectId', message: 'does not exist' }],
    });
  }
  return context;
}

const EXCLUSION_VIOLATION = '23P01';

/** Every price is in euros: the bookings column's default, written explicitly so a new booking's event can be built before its insert. */
const BOOKING_CURRENCY = 'EUR';

async function insertOrConflict<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if ((error as { code?: string }).code === EXCLUSION_VIOLATION) {
      throw conflict('slot_unavailable', 'The object is already booked for an overlapping time (including its buffer)');
    }
    throw error;
  }
}

/** What of a booking its events carry. */
type BookingEventSource = Pick<
  BookingRow,
  | 'id'
  | 'object_id'
  | 'guest_name'
  | 'guest_email'
  | 'guest_phone'
  | 'start_time'
  | 'end_time'
  | 'status'
  | 'total_price'
  | 'currency'
  | 'created_at'
  | 'refund_amount'
  | 'metadata'
> &
  Partial<Pick<BookingRow, 'no_show_at' | 'cancellation_reason_code' | 'cancellation_reason' | 'guest_locale'>> & {
    series_id?: string | null;
  };

/** The booking as webhook events carry it. */
export function bookingEventData(booking: BookingEventSource, objectName: string): Record<string, unknown> {
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
      metadata: booking.metadata,
      // Only when set (issue #43), so the snapshots of bookings without them stay as they were.
      ...(booking.no_show_at ? { noShowAt: booking.no_show_at.toISOString() } : {}),
      ...(booking.cancellation_reason_code
        ? { cancellationReasonCode: booking.cancellation_reason_code, cancellationReason: booking.cancellation_reason }
        : {}),
      // An occurrence of a recurring booking names its series (src/modules/series).
      ...(booking.series_id ? { seriesId: booking.series_id } : {}),
      // The guest's chosen language (issue #41), only when one was chosen.
      ...(booking.guest_locale ? { guestLocale: booking.guest_locale.toUpperCase() } : {}),
    },
  };
}

/**
 * The booking rules [start, end) on `object` breaks at `now`, read in its accommodation's zone
 * (`timeZone`, which the caller already holds) with that date's special date (empty when none).
 * Shared by creation and the price preview.
 */
/** The booking-window rules (opening hours, special dates, booking rules, advance limits) for a range of the context's object. */
export function bookingWindowErrors(
  context: repo.BookingContextRow,
  start: Date,
  end: Date,
  now: Date,
): BookingRuleError[] {
  return validateBookingWindow(context, context.time_zone, context.special_dates, start, end, now);
}

function checkBookingWindow(context: repo.BookingContextRow, command: CreateBooking, now: Date): void {
  const errors = bookingWindowErrors(context, command.startTime, command.endTime, now);
  const [first] = errors;
  if (first) throw invalid(errors, first.code);
}

export interface CreateOptions {
  /**
   * A booking loaded from a catalog file (DESIGN section 6): it keeps this status, may lie in the
   * past, skips opening hours and booking rules and emits no event; the no-overlap rule still holds.
   */
  imported?: { status: BookingStatus };
  /**
   * False when the guest chose to pay at the venue (the booking page's online_optional): no "pay
   * here" message. Left out: the rule of awaitsOnlinePayment alone.
   */
  payOnline?: boolean;
  /** An occurrence of a recurring booking: its series and the start the series' rule gave it (src/modules/series). */
  series?: { id: string; start: Date };
}

/**
 * Creates a booking (PENDING unless imported); `trx` must be the caller's transaction and
 * `command` the caller's parsed input (parseCreateBooking).
 */
export async function createBooking(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreateBooking,
  options: CreateOptions = {},
): Promise<BookingRow> {
  return (await createBookingOfObject(trx, deps, tenantId, command, options)).booking;
}

/**
 * createBooking, also returning the booking's object as it was read (locked) for it, and whether a
 * guest message was queued with it (the "pay here" of a booking that waits for its online payment).
 */
export async function createBookingOfObject(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreateBooking,
  options: CreateOptions = {},
): Promise<{ booking: BookingRow; object: ObjectRow; notified?: boolean }> {
  // Read once: the booking window and the price are both read in the accommodation's zone.
  const object = await bookingContextOf(trx, tenantId, command.objectId, command.startTime);
  const timeZone = object.time_zone;
  const now = deps.now();
  if (!options.imported) checkBookingWindow(object, command, now);
  const quote = quoteWithRules(object.pricing_rules, object, timeZone, command.startTime, command.endTime, now);
  const metadata = mergeMetadata({}, command.metadata ?? {});
  const guest = { name: command.guestName, email: command.guestEmail, phone: command.guestPhone ?? null };
  const customerId = await deps.bookingCustomer(trx, tenantId, guest, now);
  const values = {
    tenant_id: tenantId,
    object_id: object.id,
    guest_name: command.guestName,
    guest_email: command.guestEmail,
    guest_phone: command.guestPhone ?? null,
    start_time: command.startTime,
    end_time: command.endTime,
    blocked_until: new Date(command.endTime.getTime() + object.buffer_minutes * 60_000),
    status: options.imported?.status ?? 'PENDING',
    total_price: quote.totalPrice,
    created_at: now,
    updated_at: now,
    metadata: JSON.stringify(metadata),
    guest_locale: command.locale ? (command.locale.toLowerCase() as Locale) : null,
    series_id: options.series?.id ?? null,
    series_start: options.series?.start ?? null,
    customer_id: customerId,
  };
  const { time_zone: _zone, pricing_rules: _rules, special_dates: _dates, ...objectRow } = object;
  if (options.imported) {
    // An imported booking has no event. Inserted just now, so it has no credentials yet: no lookup first.
    const booking = await insertOrConflict(() => repo.insertBooking(trx, values));
    await issueCredentials(trx, deps, booking, { fresh: true });
    return { booking, object: objectRow };
  }
  // One statement writes the booking, its booking.created event and its credentials. The event is
  // built from the row as it will be inserted: its id is made here, and no column it carries is
  // left to a default (refund_amount is NULL on insert).
  const id = randomUUID();
  const inserted = { ...values, id, currency: BOOKING_CURRENCY, event_sequence: FIRST_EVENT_SEQUENCE };
  const event = bookingEventData({ ...inserted, metadata, refund_amount: null }, object.name);
  const credentials = newBookingCredentials(trx, deps, {
    id,
    tenant_id: tenantId,
    object_id: object.id,
    start_time: command.startTime,
    end_time: command.endTime,
  });
  const written = await insertOrConflict(() =>
    repo.insertBookingWith(
      trx,
      inserted,
      firstBookingEventInsert(trx, tenantId, 'booking.created', event),
      credentials.insert,
    ),
  );
  await credentials.settle(written.credentials);
  // A booking that waits for its online payment: the guest is sent the payment page ("pay here").
  // Not for one the caller confirms at once (the desk): its confirmation follows in this transaction.
  const notified =
    command.status !== 'CONFIRMED' &&
    options.payOnline !== false &&
    (await messagingOn(trx, deps, tenantId)) &&
    (await awaitsOnlinePayment(trx, deps, written.booking));
  if (notified) await notifyGuest(trx, deps, 'payment_due', written.booking, FIRST_EVENT_SEQUENCE, object.name);
  return { booking: written.booking, object: objectRow, notified };
}

/**
 * Merges `patch` into a booking's metadata (any status): string values set their keys, null
 * deletes, the other keys stay. The row is locked while it is read and written (`trx`: the
 * caller's transaction); nothing is written, and updatedAt stays, when nothing changes. No event.
 */
export async function updateBookingMetadata(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
  patch: MetadataPatch,
): Promise<BookingRow> {
  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  if (metadataUnchanged(current.metadata, patch)) return current;
  return repo.setBookingMetadata(trx, tenantId, bookingId, mergeMetadata(current.metadata, patch), deps.now());
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
  const amountPaid = booking.amount_paid - booking.amount_refunded;
  // What the guest gets back is the policy's refund of what was paid: nothing when nothing was paid.
  const moneyBack = Math.max(0, Math.min(quote.refundAmount, amountPaid));
  return {
    bookingId: booking.id,
    totalPrice: booking.total_price,
    currency: booking.currency,
    ...quote,
    amountPaid,
    moneyBack,
  };
}

/**
 * What happens to money when a booking is cancelled: the payments module gives back the policy's
 * refund of what was paid (a port, so bookings need not depend on payments; built in composeDeps).
 * Returns the booking with its payment columns as they are now.
 */
export type CancellationRefund = (
  trx: Executor,
  deps: AppDeps,
  booking: BookingRow,
  policyRefund: number,
) => Promise<BookingRow>;

/**
 * The customer of a booking's guest, matched or made in the booking's transaction: customers'
 * customerOfGuest (a port wired in src/app/deps.ts, so bookings need not depend on customers).
 */
export type BookingCustomer = (
  trx: Executor,
  tenantId: string,
  guest: { name: string; email: string; phone: string | null },
  at: Date,
) => Promise<string | null>;

export interface StatusChangeOptions {
  /** Why the system changed it (e.g. payment_expired); carried as data.reason by the event. */
  reason?: string;
  /** Why staff or an integrator cancelled it (cancellationReasonOf): stored, and carried as data.cancellationReason. */
  cancellationReason?: CancellationReason | null;
  /** False: the guest is not sent this change's mail or SMS (a series created confirmed: one mail for the series). */
  guestMessage?: boolean;
}

/** Moves a booking along the allowed transitions; returns the refund when it cancels. */
export async function updateBookingStatus(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
  { status: next }: UpdateBookingStatus,
  options: StatusChangeOptions = {},
): Promise<{ booking: BookingRow; refundAmount: number | null }> {
  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  if (!canTransition(current.status, next)) {
    throw conflict('invalid_transition', `A ${current.status} booking cannot become ${next}`);
  }
  const now = deps.now();
  const refundAmount = next === 'CANCELLED' ? await refundForCancellation(trx, tenantId, current, now) : null;
  const cancellationReason = next === 'CANCELLED' ? (options.cancellationReason ?? null) : null;
  let booking = await repo.updateBookingStatus(trx, tenantId, bookingId, next, refundAmount, now, cancellationReason);
  // Doors deciding offline learn the cancelled token's id with their next heartbeat.
  if (next === 'CANCELLED') await revokeCredentials(trx, deps, booking);
  const event = eventOfStatus(next);
  if (event) {
    const object = await catalog.findObject(trx, tenantId, booking.object_id);
    const data = {
      ...bookingEventData(booking, object?.name ?? ''),
      ...(options.reason ? { reason: options.reason } : {}),
      ...(cancellationReason ? { cancellationReason } : {}),
    };
    const { sequence } = await recordBookingEvent(trx, tenantId, event as 'booking.confirmed', booking.id, data);
    const told = next === 'CONFIRMED' || (next === 'CANCELLED' && current.status === 'CONFIRMED');
    if (told && options.guestMessage !== false) {
      await notifyGuest(trx, deps, next === 'CONFIRMED' ? 'confirmed' : 'cancelled', booking, sequence, object?.name);
    }
  }
  // After booking.cancelled: the money goes back (booking.refunded), or nothing was paid.
  if (next === 'CANCELLED' && refundAmount !== null)
    booking = await deps.cancellationRefund(trx, deps, booking, refundAmount);
  return { booking, refundAmount };
}

/**
 * Marks a CONFIRMED booking a no-show (after its start; noShowRefusal): sets noShowAt and emits
 * booking.no_show. Nothing is revoked: the credentials end with the booking anyway.
 */
export async function markNoShow(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
): Promise<BookingRow> {
  const current = isUuid(bookingId) ? await repo.findBookingForUpdate(trx, tenantId, bookingId) : undefined;
  if (!current) throw notFound('Booking', bookingId);
  const now = deps.now();
  const refusal = noShowRefusal(current, now);
  if (refusal) throw conflict(refusal.code, refusal.message);
  const booking = await repo.setNoShow(trx, tenantId, bookingId, now);
  const object = await catalog.findObject(trx, tenantId, booking.object_id);
  await recordBookingEvent(trx, tenantId, 'booking.no_show', booking.id, bookingEventData(booking, object?.name ?? ''));
  return booking;
}

export type { ListPlan, BookingViewColumn } from './bookings.repository.js';

/** A page of bookings, with the objects and accommodations they refer to (for priming loaders). */
export async function listBookings(
  db: Executor,
  tenantId: string,
  command: ListBookings,
  options: { withTotal?: boolean; plan?: repo.ListPlan } = {},
  /** Cursor paging (after, limit) instead of the page numbers. */
  cursor: CursorPage<repo.BookingKey> | null = null,
) {
  const page = cursor ? 1 : (command.page ?? 1);
  const pageSize = cursor ? cursor.limit : (command.pageSize ?? PAGE_SIZES.bookings.default);
  const filters = {
    status: command.status,
    objectId: command.objectId,
    from: command.from,
    to: command.to,
    guestEmail: command.guestEmail,
    search: command.search,
    paymentStatus: command.paymentStatus,
    metadata: command.metadata,
    updatedSince: command.updatedSince,
  };
  const result = await repo.listBookings(
    db,
    tenantId,
    filters,
    cursor ? pageSize + 1 : pageSize,
    (page - 1) * pageSize,
    options.withTotal ?? true,
    options.plan,
    cursor?.after ?? null,
  );
  // A page of page numbers has a next cursor too (its last booking's) when more bookings follow.
  const last = result.rows.at(-1);
  const { items, next } = cursor
    ? cursorPageRows(result.rows, pageSize, bookingCursor)
    : {
        items: result.rows,
        next: last && (page - 1) * pageSize + result.rows.length < result.total ? bookingCursor(last) : null,
      };
  return {
    bookings: items,
    pagination: { page, pageSize, total: result.total },
    next,
    related: { objects: result.objects, accommodations: result.accommodations },
  };
}

/** A booking's cursor: its place in the listing order (start time, then id). */
export const bookingCursor = (b: { start_time: Date; id: string }): string =>
  encodeCursor(BOOKING_CURSOR, [b.start_time.toISOString(), b.id]);

/**
 * A keyset page of bookings (start time, then id) after the cursor `after`, with the total when
 * asked: one statement, as the numbered listing (`plan` as there; the cursor's columns always come along).
 */
export async function bookingsConnection(
  db: Executor,
  tenantId: string,
  { first: size, after, key, filters }: BookingsConnectionCommand,
  options: { withTotal: boolean; plan: repo.ListPlan },
): Promise<Connection<BookingView> & { related: { objects: ObjectRow[]; accommodations: AccommodationRow[] } }> {
  const plan = options.plan.columns
    ? { ...options.plan, columns: [...options.plan.columns, 'start_time' as const] }
    : options.plan;
  const result = await repo.listBookings(db, tenantId, filters, size + 1, 0, options.withTotal, plan, key);
  return {
    ...connectionOf(result.rows, size, after, bookingCursor, options.withTotal ? result.total : null),
    related: { objects: result.objects, accommodations: result.accommodations },
  };
}

export function paymentUrlOf(deps: AppDeps, booking: { id: string }): string {
  return paymentUrl(deps.env.publicUrl, deps.secret, booking.id);
}
