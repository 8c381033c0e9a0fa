// The bookings module's public face: what other modules and the HTTP/GraphQL layers may use.
export { importBookings } from './bookings.import.js';
export { bookingResolvers } from './bookings.resolvers.js';
export { BOOKING_PAGE_SELECTION, bookingPageJson } from './booking-page.json.js';
export { planBookingsField } from './bookings.planned.js';
export { registerPaymentPage } from './pay.route.js';
export { registerPricePreviewRoute, PRICE_PREVIEW_PATH } from './price-preview.route.js';
export * from './bookings.service.js';
export * from './bookings.commands.js';
export { rescheduleBooking, updateKind, type PreviousSlot, type RescheduleInput, type UpdateBookingInput } from './reschedule.js';
