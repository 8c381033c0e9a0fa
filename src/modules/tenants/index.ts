import { defineModule } from '../../kernel/module.js';
import { tenantResolvers } from './tenants.resolvers.js';
// The tenants module's public face: what other modules and the HTTP/GraphQL layers may use.
export { tenantResolvers } from './tenants.resolvers.js';
export * from './tenants.service.js';
export { parseCreateApiKey, parseCreateTenant, type CreateApiKey, type CreateTenant } from './tenants.commands.js';

/** The tenants module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const tenantsModule = defineModule({
  name: 'tenants',
  dependsOn: ['audit'],
  typeDefs: ['tenants.graphql'],
  resolvers: tenantResolvers,
});
