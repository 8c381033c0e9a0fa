// The OAuth module's public face: the authorization server's routes, access tokens as tenant
// principals, the GraphQL resolvers and loaders, and app registration for the CLI.
export { registerOAuthRoutes } from './oauth.routes.js';
export { authenticateAccessToken } from './tokens.js';
export { createOAuthLoaders } from './oauth.loaders.js';
export { oauthResolvers } from './oauth.resolvers.js';
export { createApp, rotateSecret } from './apps.service.js';
