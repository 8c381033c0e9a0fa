import { livemodeOf, tenantOf } from '../../../kernel/auth/principal.js';
import type { GraphQLContext } from '../../../kernel/context.js';
import type { PlannedFields } from '../../../kernel/field-plan.js';
import { parseListBookings } from '../bookings.commands.js';
import type { ListPlan } from '../bookings.repository.js';
import { listPlanOf } from './columns.js';
import { planBookingsConnectionField, planBookingsField } from './graphql-plan.js';
import { BOOKING_PAGE_SELECTION, bookingPageJson } from './rest-page-json.js';

// The bookings list's fast paths, fenced: every way the bookings list is answered other than the
// general resolver path lives in this folder, behind one switch (`PORTIER_FAST_PATHS`, env
// `fastPaths`; on by default). Off, GraphQL executes every operation through the resolvers with
// every column read, and REST executes its operations: the general path answers everything.
//
// - columns.ts: the selection→columns map (`bookings`, `bookingsConnection` read only what is selected);
// - graphql-plan.ts: GraphQL `bookings` and `bookingsConnection { totalCount nodes }` compiled to one SQL
//   statement reading just the selected columns, the result's objects built from its rows;
// - rest-page-json.ts: the REST listing read in one statement and its JSON written from a template
//   (a DirectAnswer of the REST bridge).
//
// test/fast-paths.parity.test.ts answers random selections, filters, pages and statuses both ways
// (switch on, switch off) on both databases and requires deep-equal answers, field by field of
// the SDL's Booking type: a new Booking field either works on every path or fails there by name.

export { COLUMNS_OF_FIELD } from './columns.js';
export { planBookingsConnectionField, planBookingsField } from './graphql-plan.js';
export { BOOKING_PAGE_SELECTION, bookingPageJson } from './rest-page-json.js';

/** A REST route's answer written without executing its operation (the REST bridge's DirectAnswer). */
export interface BookingDirectAnswer {
  /** The root field's selection set the answer writes (checked at start-up against the route's operation). */
  selection: string;
  /** The response body, from the coerced variables. Throwing runs the operation instead (and its errors answer). */
  answer(context: GraphQLContext, variables: Record<string, unknown>): Promise<string>;
}

/** The fast paths an app is built with (empty when the switch is off). */
export interface BookingFastPaths {
  /** Root fields a query may be compiled to SQL for (src/transport/graphql/compiled-execution.ts). */
  plannedFields: PlannedFields;
  /** REST routes (by field) whose answer is written without executing their operation (src/transport/rest/bridge.ts). */
  directAnswers: Partial<Record<'Query.bookingPage', BookingDirectAnswer>>;
}

/**
 * The fast paths when `on`, none otherwise. Each checks the caller as the field's resolver does;
 * a direct answer's refusal or error falls back to the operation, whose errors answer.
 */
export function bookingFastPaths(on: boolean): BookingFastPaths {
  if (!on) return { plannedFields: {}, directAnswers: {} };
  return {
    plannedFields: {
      'Query.bookings': (field) => planBookingsField(field),
      'Query.bookingsConnection': (field) => planBookingsConnectionField(field),
    },
    directAnswers: {
      'Query.bookingPage': {
        selection: BOOKING_PAGE_SELECTION,
        answer: async (ctx, { after, limit, ...variables }) => {
          // Cursor paging (after, limit) takes the general path: this one writes page numbers only.
          if (after != null || limit != null) throw new Error('cursor paging: the operation answers');
          const { body, next } = await bookingPageJson(
            ctx.db,
            ctx.deps,
            tenantOf(ctx.principal),
            parseListBookings(variables),
            ctx.principal?.kind === 'apiKey' && ctx.principal.scopes.includes('customers:read'),
            livemodeOf(ctx.principal),
          );
          ctx.nextCursor = next;
          return body;
        },
      },
    },
  };
}

/** What a listing reads for the selected Booking fields: only those columns when `on`, everything otherwise. */
export const bookingListPlan = (on: boolean, names: Set<string> | null): ListPlan => (on ? listPlanOf(names) : {});
