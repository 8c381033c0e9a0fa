import { planBookingsField } from '../modules/bookings/index.js';
import type { PlannedFields } from './compiled-execution.js';

/**
 * Root fields a query may be compiled to SQL for (src/graphql/compiled-execution.ts): the lists
 * integrators read all day. Each planner declines a selection it cannot write.
 */
export const PLANNED_FIELDS: PlannedFields = {
  'Query.bookings': (field) => planBookingsField(field),
};
