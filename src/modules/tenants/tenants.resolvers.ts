import type { Resolvers } from '../../../generated/graphql.js';
import { requireApiKey, tenantOf } from '../../kernel/auth/principal.js';
import * as tenants from './tenants.service.js';
import { parseCreateApiKey } from './tenants.commands.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import { auditRequest } from '../audit/index.js';

export const tenantResolvers: Resolvers = {
  Query: {
    viewer: (_, __, ctx) => tenants.getTenant(ctx.db, requireApiKey(ctx.principal).tenantId),
    apiKeys: (_, args, ctx) => tenants.listApiKeys(ctx.db, tenantOf(ctx.principal, args.tenantId)),
  },
  Mutation: {
    createApiKey: (_, args, ctx) => {
      const tenantId = tenantOf(ctx.principal, args.tenantId);
      const command = parseCreateApiKey({
        name: args.name,
        scopes: args.scopes,
        rateLimitPerMinute: args.rateLimitPerMinute,
      });
      return inTransaction(ctx, async (trx) => {
        const created = await tenants.createApiKey(trx, { tenantId, ...command });
        const { key } = created;
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'api_key.created',
          { type: 'apiKey', id: key.id },
          { name: key.name, prefix: key.key_prefix, scopes: key.scopes },
        );
        return { apiKeyInfo: key, apiKey: created.apiKey };
      });
    },
    revokeApiKey: (_, args, ctx) => {
      const tenantId = tenantOf(ctx.principal, args.tenantId);
      const revoked = inTransaction(ctx, async (trx) => {
        const { key, revokedNow } = await tenants.revokeApiKey(trx, tenantId, args.id);
        if (revokedNow)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'api_key.revoked',
            { type: 'apiKey', id: key.id },
            { name: key.name, prefix: key.key_prefix },
          );
        return key;
      });
      // Committed: this process refuses the key from now on (others when their lookup expires).
      return revoked.then((key) => {
        ctx.deps.apiKeys.forget(key.id);
        return key;
      });
    },
  },
  Tenant: {
    createdAt: (row) => row.created_at,
  },
  ApiKey: {
    prefix: (row) => row.key_prefix,
    rateLimitPerMinute: (row) => row.rate_limit_per_minute,
    createdAt: (row) => row.created_at,
    revokedAt: (row) => row.revoked_at,
    lastUsedAt: (row) => row.last_used_at,
  },
};
