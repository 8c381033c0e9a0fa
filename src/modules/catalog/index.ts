import { defineModule } from '../../kernel/module.js';
import { catalogResolvers } from './catalog.resolvers.js';
import { createCatalogLoaders } from './catalog.loaders.js';
import { importAccommodations, importDoors } from './catalog.import.js';
// The catalog module's public face: what other modules and the HTTP/GraphQL layers may use.
export { importAccommodations, importDoors } from './catalog.import.js';
export { createCatalogLoaders } from './catalog.loaders.js';
export { catalogResolvers } from './catalog.resolvers.js';
export { DEFAULT_BOOKING_RULES, DOOR_BEHAVIORS, type BookingRules } from './catalog.rules.js';
export * from './catalog.service.js';
export * from './catalog.commands.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createCatalogLoaders> {}
}

/** The catalog module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const catalogModule = defineModule({
  name: 'catalog',
  dependsOn: ['audit'],
  typeDefs: ['catalog.graphql'],
  resolvers: catalogResolvers,
  loaders: createCatalogLoaders,
  importSections: { accommodations: importAccommodations, doors: importDoors },
});
