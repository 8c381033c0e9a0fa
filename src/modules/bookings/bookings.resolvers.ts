import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../context.js';
import type { AccommodationRow, ObjectRow } from '../../db/types.js';
import { tenantOf } from '../../auth/principal.js';
import { connectionSelection, inTransaction, nonNull, selectedFieldNames } from '../../graphql/helpers.js';
import { whenReady } from '../../db/batch.js';
import { PAGE_SIZES, pageSizeOf } from '../../paging.js';
import { parseCreateBooking, parseListBookings, parsePricePreview, parseUpdateBookingStatus } from './bookings.commands.js';
import * as bookings from './bookings.service.js';
import { previewPrice } from './price-preview.js';
import { rescheduleBooking, updateKind } from './reschedule.js';

/** The columns each Booking field reads; `object` and `objectName` also need the related rows. */
const COLUMNS_OF_FIELD: Record<string, readonly bookings.BookingViewColumn[]> = {
  __typename: [],
  id: ['id'],
  objectId: ['object_id'],
  objectName: ['object_id'],
  object: ['object_id'],
  guestName: ['guest_name'],
  guestEmail: ['guest_email'],
  guestPhone: ['guest_phone'],
  startTime: ['start_time'],
  endTime: ['end_time'],
  status: ['status'],
  totalPrice: ['total_price'],
  currency: ['currency'],
  createdAt: ['created_at'],
  paymentUrl: ['id'],
  refundAmount: ['refund_amount'],
};

/**
 * The SQL a `bookings` selection needs (a walk over a handful of field nodes per request): `{ id }`
 * reads one column and joins nothing. A field this map does not know (or an unreadable selection)
 * reads everything.
 */
function planOf(info: Parameters<typeof selectedFieldNames>[0]): bookings.ListPlan {
  return planOfFields(selectedFieldNames(info));
}

/** The plan for a set of selected Booking fields (null: unreadable, read everything). */
function planOfFields(names: Set<string> | null): bookings.ListPlan {
  if (!names) return {};
  const columns: bookings.BookingViewColumn[] = [];
  for (const name of names) {
    const needs = COLUMNS_OF_FIELD[name] as readonly bookings.BookingViewColumn[] | undefined;
    if (!needs) return {};
    columns.push(...needs);
  }
  return { columns, related: names.has('object') || names.has('objectName') };
}

/** The listing fetched objects and accommodations with the bookings: field resolvers find them loaded. */
function primeRelated(ctx: GraphQLContext, related: { objects: ObjectRow[]; accommodations: AccommodationRow[] }): void {
  for (const object of related.objects) ctx.loaders.objectById.prime(object.id, object);
  for (const accommodation of related.accommodations) ctx.loaders.accommodationById.prime(accommodation.id, accommodation);
}

export const bookingResolvers: Resolvers = {
  Query: {
    priceQuote: (_, a, ctx) => previewPrice(ctx.db, tenantOf(ctx.principal, a.tenantId), parsePricePreview(a), ctx.deps.now()),
    bookings: async (_, a, ctx, info) => {
      // The tenant is checked before the input: a caller of another tenant learns nothing from validation.
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListBookings({ status: a.status, pageSize: pageSizeOf(PAGE_SIZES.bookings, a.first) });
      const page = await bookings.listBookings(ctx.db, tenantId, command, { withTotal: false, plan: planOf(info) });
      primeRelated(ctx, page.related);
      return page.bookings;
    },
    bookingsConnection: async (_, a, ctx, info) => {
      // As bookings: the tenant first, then the input; the page, its objects and the total (when selected) in one statement.
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const selection = connectionSelection(info);
      const page = await bookings.bookingsConnection(ctx.db, tenantId, a, { withTotal: selection.totalCount, plan: planOfFields(selection.nodeFields) });
      primeRelated(ctx, page.related);
      return page;
    },
    bookingPage: async (_, a, ctx) => {
      const page = await bookings.listBookings(ctx.db, tenantOf(ctx.principal, a.tenantId), parseListBookings(a));
      primeRelated(ctx, page.related);
      return page;
    },
    booking: (_, a, ctx) => bookings.getBooking(ctx.db, tenantOf(ctx.principal), a.id),
    cancellationQuote: (_, a, ctx) => bookings.quoteCancellation(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.bookingId),
    bookingDetails: async (_, a, ctx) => ({ booking: await bookings.getBooking(ctx.db, tenantOf(ctx.principal, a.tenantId), a.bookingId) }),
  },
  Mutation: {
    createBooking: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateBooking(a);
      return { booking: await inTransaction(ctx, (trx) => bookings.createBooking(trx, ctx.deps, tenantId, command)) };
    },
    updateBookingStatus: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateBookingStatus(a);
      return inTransaction(ctx, async (trx) => ({ ...(await bookings.updateBookingStatus(trx, ctx.deps, tenantId, a.bookingId, command)), previous: null }));
    },
    rescheduleBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => rescheduleBooking(trx, ctx.deps, tenantId, a.bookingId, a));
    },
    // The REST PATCH: a status change or a reschedule.
    updateBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      if (updateKind(a) === 'status') {
        const command = parseUpdateBookingStatus({ status: a.status });
        return inTransaction(ctx, async (trx) => ({ ...(await bookings.updateBookingStatus(trx, ctx.deps, tenantId, a.bookingId, command)), previous: null }));
      }
      const move = { startTime: a.startTime, endTime: a.endTime, objectId: a.objectId };
      return inTransaction(ctx, async (trx) => ({ ...(await rescheduleBooking(trx, ctx.deps, tenantId, a.bookingId, move)), refundAmount: null }));
    },
  },
  Booking: {
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
  },
};
