import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { AccommodationRow, BookingStatus, ObjectRow } from '../../kernel/db/types.js';
import type { Executor } from '../../kernel/db/index.js';
import type { Locale } from '../../kernel/i18n.js';
import { invalidField } from '../../kernel/errors.js';
import { cancellationReasonOf, isRefusal, type CancellationReason } from './outcomes.rules.js';
import { tenantOf, livemodeOf } from '../../kernel/auth/principal.js';
import { connectionSelection, inTransaction, nonNull, selectedFieldNames } from '../../kernel/graphql-helpers.js';
import { whenReady } from '../../kernel/db/batch.js';
import { PAGE_SIZES, cursorPageOf, pageSizeOf } from '../../kernel/paging.js';
import {
  bookingKeyOf,
  parseBookingsConnection,
  parseCreateBooking,
  parseListBookings,
  parsePricePreview,
  parseRescheduleBooking,
  parseUpdateBookingGuest,
  parseUpdateBookingMetadata,
  parseUpdateBookingStatus,
} from './bookings.commands.js';
import { updateBookingGuest } from './guest.js';
import { auditRequest } from '../audit/index.js';
import * as bookings from './bookings.service.js';
import { previewPrice } from './price-preview.js';
import { bookingListPlan } from './fast-paths/index.js';
import { rescheduleBooking, updateKind } from './reschedule.js';

/** The listing fetched objects and accommodations with the bookings: field resolvers find them loaded. */
function primeRelated(
  ctx: GraphQLContext,
  related: { objects: ObjectRow[]; accommodations: AccommodationRow[] },
): void {
  for (const object of related.objects) ctx.loaders.objectById.prime(object.id, object);
  for (const accommodation of related.accommodations)
    ctx.loaders.accommodationById.prime(accommodation.id, accommodation);
}

/** The reason given with a status change (a 400 naming the field when it is not acceptable). */
function parseCancellationReason(
  status: BookingStatus | undefined,
  a: { reasonCode?: unknown; reason?: unknown },
): CancellationReason | null {
  const reason = cancellationReasonOf({ status, reasonCode: a.reasonCode, reason: a.reason });
  if (isRefusal(reason)) throw invalidField(reason.field, reason.message, reason.code);
  return reason;
}

/** A status change; a cancellation is also audited (booking.cancelled, with its reason). */
async function cancelOrChange(
  ctx: GraphQLContext,
  trx: Executor,
  tenantId: string,
  bookingId: string,
  command: { status: BookingStatus },
  cancellationReason: CancellationReason | null,
) {
  const result = await bookings.updateBookingStatus(trx, ctx.deps, tenantId, bookingId, command, {
    cancellationReason,
  });
  if (command.status === 'CANCELLED')
    await auditRequest(
      ctx,
      trx,
      tenantId,
      'booking.cancelled',
      { type: 'booking', id: result.booking.id },
      { reasonCode: cancellationReason?.code ?? null, reason: cancellationReason?.text ?? null },
    );
  return result;
}

export const bookingResolvers: Resolvers = {
  Query: {
    priceQuote: (_, a, ctx) =>
      previewPrice(ctx.db, tenantOf(ctx.principal, a.tenantId), parsePricePreview(a), ctx.deps.now()),
    bookings: async (_, a, ctx, info) => {
      // The tenant is checked before the input: a caller of another tenant learns nothing from validation.
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListBookings({ status: a.status, pageSize: pageSizeOf(PAGE_SIZES.bookings, a.first) });
      const page = await bookings.listBookings(ctx.db, tenantId, command, {
        withTotal: false,
        plan: bookingListPlan(ctx.deps.env.fastPaths, selectedFieldNames(info)),
      });
      primeRelated(ctx, page.related);
      return page.bookings;
    },
    bookingsConnection: async (_, a, ctx, info) => {
      // As bookings: the tenant first, then the input; the page, its objects and the total (when selected) in one statement.
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const selection = connectionSelection(info);
      const page = await bookings.bookingsConnection(ctx.db, tenantId, parseBookingsConnection(a), {
        withTotal: selection.totalCount,
        plan: bookingListPlan(ctx.deps.env.fastPaths, selection.nodeFields),
      });
      primeRelated(ctx, page.related);
      return page;
    },
    bookingPage: async (_, { after, limit, ...a }, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListBookings(a);
      const cursor = cursorPageOf(
        { after, limit },
        { page: a.page, pageSize: a.pageSize },
        PAGE_SIZES.bookings,
        bookingKeyOf,
      );
      const page = await bookings.listBookings(ctx.db, tenantId, command, {}, cursor);
      primeRelated(ctx, page.related);
      return page;
    },
    booking: (_, a, ctx) => bookings.getBooking(ctx.db, tenantOf(ctx.principal), a.id),
    cancellationQuote: (_, a, ctx) =>
      bookings.quoteCancellation(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.bookingId),
    bookingDetails: async (_, a, ctx) => ({
      booking: await bookings.getBooking(ctx.db, tenantOf(ctx.principal, a.tenantId), a.bookingId),
    }),
  },
  Mutation: {
    createBooking: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateBooking(a);
      const { booking, object, notified } = await inTransaction(ctx, async (trx) => {
        const created = await bookings.createBookingOfObject(trx, ctx.deps, tenantId, command);
        if (command.status !== 'CONFIRMED') return created;
        // The confirm the desk would send next, in the same transaction: one rule set, one event order.
        const confirmed = await bookings.updateBookingStatus(trx, ctx.deps, tenantId, created.booking.id, {
          status: 'CONFIRMED',
        });
        return { booking: confirmed.booking, object: created.object, notified: true };
      });
      // The answer's object as the transaction read it: no second read after the commit.
      primeRelated(ctx, { objects: [object], accommodations: [] });
      // A PENDING booking has no guest message queued unless it waits for its online payment ("pay
      // here"): otherwise its notifications are none, unread. A confirmed one has its confirmation.
      if (booking.status === 'PENDING' && !notified) ctx.loaders.notificationsByBooking.prime(booking.id, []);
      return { booking };
    },
    updateBookingStatus: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateBookingStatus({ status: a.status });
      const cancellationReason = parseCancellationReason(command.status, a);
      return inTransaction(ctx, async (trx) => ({
        ...(await cancelOrChange(ctx, trx, tenantId, a.bookingId, command, cancellationReason)),
        previous: null,
      }));
    },
    markNoShow: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const booking = await bookings.markNoShow(trx, ctx.deps, tenantId, a.bookingId);
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'booking.no_show_marked',
          { type: 'booking', id: booking.id },
          { startTime: booking.start_time.toISOString(), noShowAt: booking.no_show_at?.toISOString() },
        );
        return { booking };
      });
    },
    rescheduleBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseRescheduleBooking({ startTime: a.startTime, endTime: a.endTime, objectId: a.objectId });
      return inTransaction(ctx, (trx) => rescheduleBooking(trx, ctx.deps, tenantId, a.bookingId, command));
    },
    updateBookingGuest: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateBookingGuest(a);
      return inTransaction(ctx, async (trx) => {
        const { booking, changes } = await updateBookingGuest(trx, tenantId, a.bookingId, command, ctx.deps.now());
        if (Object.keys(changes).length)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'booking.guest_updated',
            { type: 'booking', id: booking.id },
            { changes },
          );
        return { booking };
      });
    },
    updateBookingMetadata: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { metadata } = parseUpdateBookingMetadata(a);
      return inTransaction(ctx, async (trx) => ({
        booking: await bookings.updateBookingMetadata(trx, ctx.deps, tenantId, a.bookingId, metadata),
      }));
    },
    // The REST PATCH: a status change or a reschedule, and/or a metadata merge (applied first, so
    // the change's event carries the new metadata).
    updateBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const metadata = a.metadata != null ? parseUpdateBookingMetadata(a).metadata : null;
      const onlyMetadata =
        metadata !== null && a.status == null && a.startTime == null && a.endTime == null && a.objectId == null;
      const kind = onlyMetadata ? 'metadata' : updateKind(a);
      const status = kind === 'status' ? parseUpdateBookingStatus({ status: a.status }) : null;
      const cancellationReason = parseCancellationReason(status?.status, a);
      const move =
        kind === 'reschedule'
          ? parseRescheduleBooking({ startTime: a.startTime, endTime: a.endTime, objectId: a.objectId })
          : null;
      return inTransaction(ctx, async (trx) => {
        const merged = metadata
          ? await bookings.updateBookingMetadata(trx, ctx.deps, tenantId, a.bookingId, metadata)
          : null;
        if (status)
          return {
            ...(await cancelOrChange(ctx, trx, tenantId, a.bookingId, status, cancellationReason)),
            previous: null,
          };
        if (move)
          return { ...(await rescheduleBooking(trx, ctx.deps, tenantId, a.bookingId, move)), refundAmount: null };
        return { booking: nonNull(merged ?? undefined, 'booking'), refundAmount: null, previous: null };
      });
    },
  },
  Booking: {
    livemode: (_, __, ctx) => livemodeOf(ctx.principal),
    objectId: (row) => row.object_id,
    objectName: (row, _, ctx) => whenReady(ctx.loaders.objectById.get(row.object_id), (o) => nonNull(o, 'object').name),
    guestName: (row) => row.guest_name,
    guestEmail: (row) => row.guest_email,
    guestPhone: (row) => row.guest_phone,
    startTime: (row) => row.start_time,
    endTime: (row) => row.end_time,
    totalPrice: (row) => row.total_price,
    createdAt: (row) => row.created_at,
    refundAmount: (row) => row.refund_amount,
    paymentUrl: (row, _, ctx) => bookings.paymentUrlOf(ctx.deps, row),
    object: (row, _, ctx) => whenReady(ctx.loaders.objectById.get(row.object_id), (o) => nonNull(o, 'object')),
    metadata: (row) => row.metadata,
    updatedAt: (row) => row.updated_at,
    noShowAt: (row) => row.no_show_at,
    cancellationReasonCode: (row) => row.cancellation_reason_code,
    cancellationReason: (row) => row.cancellation_reason,
    guestLocale: (row) => (row.guest_locale === null ? null : (row.guest_locale.toUpperCase() as Uppercase<Locale>)),
  },
};
