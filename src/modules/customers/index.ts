import { defineModule } from '../../kernel/module.js';
import { createCustomerLoaders } from './customers.loaders.js';
import { customerResolvers } from './customers.resolvers.js';
import { registerCustomerExports } from './export.route.js';

// The customers module's public face (docs/customers.md).
export { customerOfGuest, type BookingGuest } from './customers.service.js';
export { CUSTOMERS_EXPORT_PATH, CUSTOMER_DATA_PATH, CUSTOMERS_CSV_HEADER } from './export.route.js';
export { ERASED_EMAIL, ERASED_GUEST_NAME, ERASED_NAME } from './customers.rules.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createCustomerLoaders> {}
}

/** The customers module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const customersModule = defineModule({
  name: 'customers',
  dependsOn: ['audit', 'webhooks'],
  typeDefs: ['customers.graphql'],
  resolvers: customerResolvers,
  loaders: createCustomerLoaders,
  routes: registerCustomerExports,
});
