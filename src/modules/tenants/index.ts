// The tenants module's public face: what other modules and the HTTP/GraphQL layers may use.
export { tenantResolvers } from './tenants.resolvers.js';
export * from './tenants.service.js';
