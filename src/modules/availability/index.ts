// The availability module's public face: what other modules and the HTTP/GraphQL layers may use.
export { availabilityResolvers } from './availability.resolvers.js';
export * from './availability.service.js';
export * from './slots.js';
export { SlotScheduleCache } from './schedule.js';
