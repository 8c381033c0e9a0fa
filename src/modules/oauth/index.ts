import { defineModule } from '../../kernel/module.js';
import { oauthResolvers } from './oauth.resolvers.js';
import { createOAuthLoaders } from './oauth.loaders.js';
import { registerOAuthRoutes } from './oauth.routes.js';
// The OAuth module's public face: the authorization server's routes, access tokens as tenant
// principals, the GraphQL resolvers and loaders, and app registration for the CLI.
export { registerOAuthRoutes } from './oauth.routes.js';
export { authenticateAccessToken } from './tokens.js';
export { createOAuthLoaders } from './oauth.loaders.js';
export { oauthResolvers } from './oauth.resolvers.js';
export { createApp, rotateSecret } from './apps.service.js';
export { OAUTH_ROUTES } from './provider.js';
export { SCOPE_WORDS } from './scope-words.js';
export { parseCreateApp, type CreateApp } from './apps.commands.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createOAuthLoaders> {}
}

/** The oauth module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const oauthModule = defineModule({
  name: 'oauth',
  dependsOn: ['audit', 'tenants', 'users'],
  typeDefs: ['oauth.graphql'],
  resolvers: oauthResolvers,
  loaders: createOAuthLoaders,
  routes: (fastify, deps) => {
    registerOAuthRoutes(fastify, deps);
  },
});
