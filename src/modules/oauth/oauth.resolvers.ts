import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import * as apps from './apps.service.js';
import { parseCreateApp } from './apps.commands.js';
import * as grants from './grants.service.js';
import { auditRequest as audit } from '../audit/index.js';
import { announceCredentialChange } from '../../kernel/live/index.js';

export const oauthResolvers: Resolvers = {
  Query: {
    oauthApps: (_, __, ctx) => apps.listApps(ctx.db, tenantOf(ctx.principal)),
    connectedApps: (_, __, ctx) => grants.listConnectedApps(ctx.db, tenantOf(ctx.principal), ctx.deps.now()),
  },
  Mutation: {
    createOAuthApp: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      const command = parseCreateApp({
        name: a.name,
        redirectUris: a.redirectUris,
        scopes: a.scopes,
        public: a.public,
      });
      return inTransaction(ctx, async (trx) => {
        const created = await apps.createApp(trx, { tenantId, ...command });
        const app = created.app;
        await audit(
          ctx,
          trx,
          tenantId,
          'oauth_app.created',
          { type: 'oauthApp', id: app.client_id },
          { name: app.name, redirectUris: app.redirect_uris, scopes: app.scopes, public: app.public },
        );
        return { app, clientSecret: created.clientSecret };
      });
    },
    rotateOAuthAppSecret: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      return inTransaction(ctx, async (trx) => {
        const rotated = await apps.rotateSecret(trx, tenantId, a.clientId, ctx.deps.now());
        await audit(
          ctx,
          trx,
          tenantId,
          'oauth_app.secret_rotated',
          { type: 'oauthApp', id: rotated.app.client_id },
          { name: rotated.app.name },
        );
        return { app: rotated.app, clientSecret: rotated.clientSecret };
      });
    },
    deleteOAuthApp: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      await inTransaction(ctx, async (trx) => {
        await apps.deleteApp(trx, tenantId, a.clientId);
        await audit(ctx, trx, tenantId, 'oauth_app.deleted', { type: 'oauthApp', id: a.clientId });
      });
      // Its grants ended in every tenant that connected it.
      announceCredentialChange(ctx.deps.live, '*');
      return true;
    },
    revokeConnectedApp: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      await inTransaction(ctx, async (trx) => {
        await grants.revokeConnectedApp(trx, tenantId, a.clientId);
        await audit(ctx, trx, tenantId, 'connected_app.revoked', { type: 'oauthApp', id: a.clientId });
      });
      announceCredentialChange(ctx.deps.live, tenantId);
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
