import { defineModule } from '../../kernel/module.js';
import { registerBookingsExport } from './export.route.js';
import { bookingResolvers } from './bookings.resolvers.js';
import { bookingSubscriptionResolvers } from './bookings.subscriptions.js';
import { importBookings } from './bookings.import.js';
import { registerPricePreviewRoute } from './price-preview.route.js';
// The bookings module's public face: what other modules and the HTTP/GraphQL layers may use.
export { importBookings } from './bookings.import.js';
export { bookingResolvers } from './bookings.resolvers.js';
export {
  BOOKING_PAGE_SELECTION,
  COLUMNS_OF_FIELD,
  bookingFastPaths,
  bookingListPlan,
  bookingPageJson,
  planBookingsConnectionField,
  planBookingsField,
  type BookingFastPaths,
} from './fast-paths/index.js';
export { paymentUrl, bookingIdOfPaymentToken } from './payment.js';
export { manageToken, manageUrl, bookingIdOfManageToken, isManageToken } from './manage-link.js';
export { foldBookingCounts } from './bookings.repository.js';
export { recordBookingEvent, notifyGuest } from './booking-events.js';
export { guestFactsReader, awaitsOnlinePayment } from './guest-messages.js';
export { referenceOfSearch, REFERENCE_ALPHABET } from './reference.js';
export { localRange } from './local-range.js';
export { bookingTexts } from './guest.texts.js';
export { registerPricePreviewRoute, PRICE_PREVIEW_PATH } from './price-preview.route.js';
export { previewPrice } from './price-preview.js';
export * from './bookings.service.js';
export * from './bookings.commands.js';
export { rescheduleBooking, updateKind, type PreviousSlot, type UpdateBookingInput } from './reschedule.js';
export { updateBookingGuest, type GuestChanges } from './guest.js';
export { registerBookingsExport, BOOKINGS_EXPORT_PATH, BOOKINGS_CSV_HEADER } from './export.route.js';
export type { BookingCustomer, CancellationRefund, StatusChangeOptions } from './bookings.service.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /**
     * The port through which a cancellation gives money back: payments' refundCancelledBooking
     * (wired in src/app/deps.ts), so bookings need not depend on payments.
     */
    cancellationRefund: import('./bookings.service.js').CancellationRefund;
    /** The port through which a new booking gets its customer: customers' customerOfGuest (src/app/deps.ts). */
    bookingCustomer: import('./bookings.service.js').BookingCustomer;
  }
}

/** The bookings module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const bookingsModule = defineModule({
  name: 'bookings',
  dependsOn: ['access', 'audit', 'availability', 'catalog', 'notifications', 'pricing', 'webhooks'],
  typeDefs: ['bookings.graphql', 'connections.graphql', 'subscriptions.graphql'],
  resolvers: { ...bookingResolvers, ...bookingSubscriptionResolvers },
  importSections: { bookings: importBookings },
  routes: (fastify, deps) => {
    registerPricePreviewRoute(fastify, deps);
    registerBookingsExport(fastify, deps);
  },
});
