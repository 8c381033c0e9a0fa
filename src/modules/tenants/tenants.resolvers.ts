import type { Resolvers } from '../../../generated/graphql.js';
import { requireApiKey, tenantOf } from '../../kernel/auth/principal.js';
import { isScope } from '../../kernel/auth/scopes.js';
import { notFound } from '../../kernel/errors.js';
import * as tenants from './tenants.service.js';
import { parseCreateApiKey, parseCreatePublishableKey, parseUpdateApiKey } from './tenants.commands.js';
import { apiKeyChanges } from './api-key-changes.js';
import { inTransaction, tenantLivemode } from '../../kernel/graphql-helpers.js';
import { auditRequest } from '../audit/index.js';
import { announceCredentialChange } from '../../kernel/live/index.js';

export const tenantResolvers: Resolvers = {
  Query: {
    viewer: (_, __, ctx) => tenants.getTenant(ctx.db, requireApiKey(ctx.principal).tenantId),
    apiKeys: (_, args, ctx) => tenants.listApiKeys(ctx.db, tenantOf(ctx.principal, args.tenantId)),
    apiKey: async (_, args, ctx) => {
      const keys = await tenants.listApiKeys(ctx.db, tenantOf(ctx.principal, args.tenantId));
      const key = keys.find((k) => k.id === args.id);
      if (!key) throw notFound('API key', args.id);
      return key;
    },
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
        const target = await tenants.keyTenant(trx, tenantId, args.livemode ?? undefined);
        const created = await tenants.createApiKey(trx, { tenantId: target.id, ...command });
        const { key } = created;
        await auditRequest(
          ctx,
          trx,
          target.id,
          'api_key.created',
          { type: 'apiKey', id: key.id },
          { name: key.name, prefix: key.key_prefix, scopes: key.scopes },
        );
        return { apiKeyInfo: key, apiKey: created.apiKey };
      });
    },
    createPublishableKey: async (_, args, ctx) => {
      const tenantId = tenantOf(ctx.principal, args.tenantId);
      const { rateLimitPerMinute } = parseCreatePublishableKey({ rateLimitPerMinute: args.rateLimitPerMinute });
      const created = await inTransaction(ctx, async (trx) => {
        const made = await tenants.createPublishableKey(trx, tenantId, rateLimitPerMinute ?? null);
        const { key, replaced } = made;
        if (replaced)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'api_key.revoked',
            { type: 'apiKey', id: replaced.id },
            { name: replaced.name, prefix: replaced.key_prefix, kind: 'publishable', replacedBy: key.id },
          );
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'api_key.created',
          { type: 'apiKey', id: key.id },
          { name: key.name, prefix: key.key_prefix, scopes: key.scopes, kind: 'publishable' },
        );
        return made;
      });
      // Committed: the replaced key is refused from now on in this process (others within API_KEY_CACHE_MS).
      if (created.replaced) ctx.deps.apiKeys.forget(created.replaced.id);
      return { apiKeyInfo: created.key, apiKey: created.apiKey };
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
      // Committed: this process refuses the key from now on (others when their lookup expires),
      // and every process ends the key's open streams.
      return revoked.then((key) => {
        ctx.deps.apiKeys.forget(key.id);
        announceCredentialChange(ctx.deps.live, tenantId);
        return key;
      });
    },
    updateApiKey: (_, args, ctx) => {
      const tenantId = tenantOf(ctx.principal, args.tenantId);
      const change = parseUpdateApiKey({ name: args.name, scopes: args.scopes });
      const updated = inTransaction(ctx, async (trx) => {
        const { key, previous } = await tenants.updateApiKey(trx, tenantId, args.id, change);
        const changes = apiKeyChanges(previous, key);
        if (changes)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'api_key.updated',
            { type: 'apiKey', id: key.id },
            { name: key.name, prefix: key.key_prefix, ...changes },
          );
        return key;
      });
      // Committed: this process reads the key's new scopes from now on (others when their lookup
      // expires); every process ends the key's open subscriptions that need a scope it lost.
      return updated.then((key) => {
        ctx.deps.apiKeys.forget(key.id);
        announceCredentialChange(ctx.deps.live, tenantId);
        return key;
      });
    },
  },
  Tenant: {
    createdAt: (row) => row.created_at,
    livemode: (row) => row.livemode,
    liveTenantId: (row) => row.live_tenant_id,
    sandboxTenantId: async (row, _, ctx) =>
      row.livemode ? ((await tenants.sandboxOf(ctx.db, row))?.id ?? null) : null,
  },
  ApiKey: {
    prefix: (row) => row.key_prefix,
    // The same strings, typed: ApiScope's internal values are the scope strings (src/transport/graphql/wire-enums.ts).
    apiScopes: (row) => row.scopes.filter(isScope),
    rateLimitPerMinute: (row) => row.rate_limit_per_minute,
    createdAt: (row) => row.created_at,
    revokedAt: (row) => row.revoked_at,
    lastUsedAt: (row) => row.last_used_at,
    kind: (row) => (row.kind === 'publishable' ? 'PUBLISHABLE' : 'SECRET'),
    publishableKey: (row) => row.publishable_key,
    livemode: (row, _, ctx) => tenantLivemode(ctx, row.tenant_id),
  },
};
