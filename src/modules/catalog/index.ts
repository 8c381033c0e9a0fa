// The catalog module's public face: what other modules and the HTTP/GraphQL layers may use.
export { importAccommodations, importDoors } from './catalog.import.js';
export { createCatalogLoaders } from './catalog.loaders.js';
export { catalogResolvers } from './catalog.resolvers.js';
export { DEFAULT_BOOKING_RULES, DOOR_BEHAVIORS, type BookingRules } from './catalog.rules.js';
export * from './catalog.service.js';
export * from './catalog.commands.js';
