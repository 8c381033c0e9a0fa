import type { Resolvers } from '../../../generated/graphql.js';
import { requireApiKey, tenantOf } from '../../auth/principal.js';
import * as tenants from './tenants.service.js';

export const tenantResolvers: Resolvers = {
  Query: {
    viewer: (_, __, ctx) => tenants.getTenant(ctx.db, requireApiKey(ctx.principal).tenantId),
    apiKeys: (_, args, ctx) => tenants.listApiKeys(ctx.db, tenantOf(ctx.principal, args.tenantId)),
  },
  Mutation: {
    createApiKey: async (_, args, ctx) => {
      const tenantId = tenantOf(ctx.principal, args.tenantId);
      const created = await tenants.createApiKey(ctx.db, {
        tenantId,
        name: args.name,
        scopes: args.scopes,
        rateLimitPerMinute: args.rateLimitPerMinute,
      });
      return { apiKeyInfo: created.key, apiKey: created.apiKey };
    },
    revokeApiKey: (_, args, ctx) => tenants.revokeApiKey(ctx.db, tenantOf(ctx.principal, args.tenantId), args.id),
  },
  Tenant: {
    createdAt: (row) => row.created_at,
  },
  ApiKey: {
    prefix: (row) => row.key_prefix,
    rateLimitPerMinute: (row) => row.rate_limit_per_minute,
    createdAt: (row) => row.created_at,
    revokedAt: (row) => row.revoked_at,
  },
};
