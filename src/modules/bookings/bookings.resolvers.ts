import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../context.js';
import type { AccommodationRow, ObjectRow } from '../../db/types.js';
import { tenantOf } from '../../auth/principal.js';
import { inTransaction, nonNull } from '../../graphql/helpers.js';
import { whenReady } from '../../db/batch.js';
import { invalidField } from '../../errors.js';
import * as bookings from './bookings.service.js';
import { previewPrice } from './price-preview.js';
import { rescheduleBooking, updateKind } from './reschedule.js';

/** The listing fetched objects and accommodations with the bookings: field resolvers find them loaded. */
function primeRelated(ctx: GraphQLContext, related: { objects: ObjectRow[]; accommodations: AccommodationRow[] }): void {
  for (const object of related.objects) ctx.loaders.objectById.prime(object.id, object);
  for (const accommodation of related.accommodations) ctx.loaders.accommodationById.prime(accommodation.id, accommodation);
}

export const bookingResolvers: Resolvers = {
  Query: {
    priceQuote: (_, a, ctx) => previewPrice(ctx.db, tenantOf(ctx.principal, a.tenantId), a, ctx.deps.now()),
    bookings: async (_, a, ctx) => {
      const first = a.first ?? 20;
      if (!Number.isInteger(first) || first < 1 || first > bookings.MAX_PAGE_SIZE) {
        throw invalidField('first', `must be a whole number from 1 to ${bookings.MAX_PAGE_SIZE}`);
      }
      const page = await bookings.listBookings(ctx.db, tenantOf(ctx.principal, a.tenantId), { status: a.status, pageSize: first }, { withTotal: false });
      primeRelated(ctx, page.related);
      return page.bookings;
    },
    bookingPage: async (_, a, ctx) => {
      const page = await bookings.listBookings(ctx.db, tenantOf(ctx.principal, a.tenantId), a);
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
      return { booking: await inTransaction(ctx, (trx) => bookings.createBooking(trx, ctx.deps, tenantId, a)) };
    },
    updateBookingStatus: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => ({ ...(await bookings.updateBookingStatus(trx, ctx.deps, tenantId, a.bookingId, a.status)), previous: null }));
    },
    rescheduleBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => rescheduleBooking(trx, ctx.deps, tenantId, a.bookingId, a));
    },
    // The REST PATCH: a status change or a reschedule.
    updateBooking: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      if (updateKind(a) === 'status') {
        return inTransaction(ctx, async (trx) => ({ ...(await bookings.updateBookingStatus(trx, ctx.deps, tenantId, a.bookingId, a.status)), previous: null }));
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
