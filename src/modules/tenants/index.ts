import { defineModule } from '../../kernel/module.js';
import { tenantResolvers } from './tenants.resolvers.js';
import type { ApiKeyCache } from './api-key-cache.js';
// The tenants module's public face: what other modules and the HTTP/GraphQL layers may use.
export { tenantResolvers } from './tenants.resolvers.js';
export * from './tenants.service.js';
export { ApiKeyCache, API_KEY_CACHE_CAPACITY, type CachedApiKey } from './api-key-cache.js';
export {
  parseCreateApiKey,
  parseCreatePublishableKey,
  parseCreateTenant,
  type CreateApiKey,
  type CreateTenant,
} from './tenants.commands.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /** API keys found in the last API_KEY_CACHE_MS, by hash (docs/api.md, "API key format"). */
    apiKeys: ApiKeyCache;
  }
}

/** The tenants module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const tenantsModule = defineModule({
  name: 'tenants',
  dependsOn: ['audit'],
  typeDefs: ['tenants.graphql'],
  resolvers: tenantResolvers,
});
