import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../context.js';
import type { AccommodationRow, ObjectRow } from '../../db/types.js';
import { tenantOf } from '../../auth/principal.js';
import { inTransaction, nonNull } from '../../graphql/helpers.js';
import { whenReady } from '../../db/batch.js';
import { PAGE_SIZES, pageSizeOf } from '../../paging.js';
import { parseCreateBooking, parseListBookings, parsePricePreview, parseUpdateBookingStatus } from './bookings.commands.js';
import * as bookings from './bookings.service.js';
import { previewPrice } from './price-preview.js';

/** The listing fetched objects and accommodations with the bookings: field resolvers find them loaded. */
function primeRelated(ctx: GraphQLContext, related: { objects: ObjectRow[]; accommodations: AccommodationRow[] }): void {
  for (const object of related.objects) ctx.loaders.objectById.prime(object.id, object);
  for (const accommodation of related.accommodations) ctx.loaders.accommodationById.prime(accommodation.id, accommodation);
}

export const bookingResolvers: Resolvers = {
  Query: {
    priceQuote: (_, a, ctx) => previewPrice(ctx.db, tenantOf(ctx.principal, a.tenantId), parsePricePreview(a), ctx.deps.now()),
    bookings: async (_, a, ctx) => {
      const command = parseListBookings({ status: a.status, pageSize: pageSizeOf(PAGE_SIZES.bookings, a.first) });
      const page = await bookings.listBookings(ctx.db, tenantOf(ctx.principal, a.tenantId), command, { withTotal: false });
      primeRelated(ctx, page.related);
      return page.bookings;
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
      return inTransaction(ctx, (trx) => bookings.updateBookingStatus(trx, ctx.deps, tenantId, a.bookingId, command));
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
