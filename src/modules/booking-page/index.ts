import { defineModule } from '../../kernel/module.js';
import type { BookingGuard } from './guard.js';
import { registerBookingPageRoutes } from './page.routes.js';
import { bookingPageResolvers } from './booking-page.resolvers.js';
import type { PublicBookingGuard, PublicBookingLimits } from './public-limits.js';
// The booking-page module's public face (docs/booking-page.md).
// The public booking page and the widget (page.*, guest-booking.ts) and their bot protection:
export { BookingGuard, type BookingGuardOptions, type BookingAttempt, type GuardVerdict } from './guard.js';
export { registerBookingPageRoutes, BOOKING_PAGE_PATH, WIDGET_PATH } from './page.routes.js';
export { solveChallenge } from './pow.js';
// The venue's settings, publishing objects, and the publishable key's public fields:
export { bookingPageResolvers } from './booking-page.resolvers.js';
export { bookingPageSettings, enabledPage, type BookingPageSettingsView } from './booking-page.service.js';
export { originListedAnywhere } from './booking-page.repository.js';
export { originAllowedFor } from './origins.js';
export { publicProofGuard, proofRefusalError } from './public-guard.js';
export {
  allowEveryAttempt,
  createPublicBookingLimits,
  PUBLIC_BOOKING_BUDGETS,
  type PublicBookingBudgets,
  type PublicBookingGuard,
  type PublicBookingLimits,
  type PublicBotCheck,
} from './public-limits.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /**
     * Bot protection for bookings without an API key (honeypot, proof of work, limits per address
     * and per tenant): the booking page's, and the public API's createPublicBooking may use it too.
     */
    bookingGuard: BookingGuard;
    /** Bookings per client address and per publishable key on createPublicBooking (public-limits.ts). */
    publicBookingLimits: PublicBookingLimits;
    /** The bot check of createPublicBooking (docs/booking-page.md, "Publishable key"). */
    publicBookingGuard: PublicBookingGuard;
  }
}

/** The booking-page module (src/app/modules.ts lists it; docs/booking-page.md). */
export const bookingPageModule = defineModule({
  name: 'booking-page',
  dependsOn: ['audit', 'availability', 'bookings', 'catalog', 'payments', 'pricing', 'tenants'],
  typeDefs: ['booking-page.graphql'],
  resolvers: bookingPageResolvers,
  routes: (fastify, deps) => {
    registerBookingPageRoutes(fastify, deps);
  },
});
