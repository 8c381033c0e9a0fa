import { defineModule } from '../../kernel/module.js';
import { availabilityResolvers } from './availability.resolvers.js';
import type { SlotScheduleCache } from './schedule.js';
// The availability module's public face: what other modules and the HTTP/GraphQL layers may use.
export { availabilityResolvers } from './availability.resolvers.js';
export * from './availability.service.js';
export * from './slots.js';
export * from './instants.js';
export { SlotScheduleCache } from './schedule.js';
export { parseAvailabilityQuery } from './availability.commands.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /** Availability's slot grids, keyed by what they are computed from (so never stale; see schedule.ts). */
    slotSchedules: SlotScheduleCache;
  }
}

/** The availability module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const availabilityModule = defineModule({
  name: 'availability',
  dependsOn: ['catalog'],
  typeDefs: ['availability.graphql'],
  resolvers: availabilityResolvers,
});
