import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../auth/principal.js';
import { inTransaction } from '../../graphql/helpers.js';
import * as apps from './apps.service.js';
import * as grants from './grants.service.js';

export const oauthResolvers: Resolvers = {
  Query: {
    oauthApps: (_, __, ctx) => apps.listApps(ctx.db, tenantOf(ctx.principal)),
    connectedApps: (_, __, ctx) => grants.listConnectedApps(ctx.db, tenantOf(ctx.principal), ctx.deps.now()),
  },
  Mutation: {
    createOAuthApp: async (_, a, ctx) => {
      const created = await apps.createApp(ctx.db, { tenantId: tenantOf(ctx.principal), name: a.name, redirectUris: a.redirectUris, scopes: a.scopes, public: a.public });
      return { app: created.app, clientSecret: created.clientSecret };
    },
    rotateOAuthAppSecret: async (_, a, ctx) => {
      const rotated = await apps.rotateSecret(ctx.db, tenantOf(ctx.principal), a.clientId, ctx.deps.now());
      return { app: rotated.app, clientSecret: rotated.clientSecret };
    },
    deleteOAuthApp: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      await inTransaction(ctx, (trx) => apps.deleteApp(trx, tenantId, a.clientId));
      return true;
    },
    revokeConnectedApp: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      await inTransaction(ctx, (trx) => grants.revokeConnectedApp(trx, tenantId, a.clientId));
      return true;
    },
  },
  OAuthApp: {
    clientId: (row) => row.client_id,
    redirectUris: (row) => row.redirect_uris,
    createdAt: (row) => row.created_at,
    secretRotatedAt: (row) => row.secret_rotated_at,
    authorizedTenantCount: (row, _, ctx) => ctx.loaders.authorizedTenantCount.load(row.client_id),
  },
  ConnectedApp: {
    clientId: (row) => row.client_id,
    ownerTenantName: (row) => row.owner_tenant_name,
    authorizedAt: (row) => row.authorized_at,
    lastUsedAt: (row) => row.last_used_at,
  },
};
