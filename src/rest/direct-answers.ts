import { tenantOf } from '../auth/principal.js';
import { BOOKING_PAGE_SELECTION, bookingPageJson, parseListBookings } from '../modules/bookings/index.js';
import type { RestRoute } from './routes.js';
import type { DirectAnswer } from './bridge.js';

/**
 * Routes whose answer is written without executing their operation (src/rest/bridge.ts,
 * DirectAnswer): the listings integrators poll all day. Each checks the caller as the field's
 * resolver does; any refusal or error falls back to the operation, whose errors answer.
 */
export const DIRECT_ANSWERS: Partial<Record<RestRoute['field'], DirectAnswer>> = {
  'Query.bookingPage': {
    selection: BOOKING_PAGE_SELECTION,
    answer: (ctx, variables) => bookingPageJson(ctx.db, ctx.deps, tenantOf(ctx.principal), parseListBookings(variables)),
  },
};
