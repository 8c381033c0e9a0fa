import { defineModule } from '../../kernel/module.js';
import { credentialsResolvers } from './credentials.resolvers.js';
import type { TenantProviders } from './tenant-providers.js';

// The credentials module's public face (docs/payments.md, "Credentials in the dashboard"): a
// venue's own Stripe, SMTP and SMS credentials, sealed; the providers a tenant's sends use.
export { TenantProviders, RECHECK_MS, sealContext, type ProviderFactories } from './tenant-providers.js';
export { SEAL_INFO } from './credentials.service.js';
export type { ProviderKind } from './credentials.rules.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /**
     * The payment provider, mail transport and SMS sender of a tenant, at send time: the
     * environment's when set, else built from the tenant's stored credentials (cached per tenant).
     */
    providers: TenantProviders;
  }
}

/** The credentials module (src/app/modules.ts lists it). */
export const credentialsModule = defineModule({
  name: 'credentials',
  dependsOn: ['audit', 'notifications', 'payments', 'tenants'],
  typeDefs: ['credentials.graphql'],
  resolvers: credentialsResolvers,
});
