import type { Resolvers, SubscriptionBookingChangedArgs } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { BookingView } from '../../kernel/db/types.js';
import { liveStream, sharedRead } from '../../kernel/live/index.js';
import { getBooking } from './bookings.service.js';

// bookingChanged (docs/subscriptions.md): the tenant's booking events from the outbox's live tail,
// filtered by object or accommodation, each with the booking as it is now.

export interface BookingChangeValue {
  eventId: string;
  type: string;
  occurredAt: string;
  sequence: number | null;
  booking: BookingView;
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** Booking events only: the hub skips the tenant's other events (device presence) for these subscribers. */
const isBookingEvent = (event: Record<string, unknown>): boolean =>
  typeof event.type === 'string' && event.type.startsWith('booking.');

/** The booking id of a booking event's data ({booking: {id}}), or undefined for any other event. */
export function bookingIdOf(event: Record<string, unknown>): string | undefined {
  if (!isBookingEvent(event)) return undefined;
  const id = record(record(event.data).booking).id;
  return typeof id === 'string' ? id : undefined;
}

async function bookingChange(
  ctx: GraphQLContext,
  event: Record<string, unknown>,
  tenantId: string,
  filter: SubscriptionBookingChangedArgs,
): Promise<BookingChangeValue | undefined> {
  const bookingId = bookingIdOf(event);
  if (!bookingId) return undefined;
  // Read once for all of this process's subscribers of the tenant (the hub hands them one object).
  const booking = await sharedRead(event, 'booking', () => getBooking(ctx.db, tenantId, bookingId));
  if (filter.objectId && booking.object_id !== filter.objectId) return undefined;
  if (filter.accommodationId) {
    const object = await ctx.loaders.objectById.load(booking.object_id);
    if (object?.accommodation_id !== filter.accommodationId) return undefined;
  }
  const sequence = record(event.data).sequence;
  return {
    eventId: String(event.id),
    type: String(event.type),
    occurredAt: String(event.createdAt),
    sequence: typeof sequence === 'number' ? sequence : null,
    booking,
  };
}

export const bookingSubscriptionResolvers: Resolvers = {
  Subscription: {
    bookingChanged: {
      subscribe: (_, a, ctx) =>
        liveStream(ctx, 'event', (event, tenantId) => bookingChange(ctx, event, tenantId, a), isBookingEvent, [
          'bookings:read',
        ]),
      resolve: (value: BookingChangeValue) => value,
    },
  },
};
