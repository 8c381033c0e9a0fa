import type { Resolvers } from '../../../generated/graphql.js';
import { livemodeOf, tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import type { GraphQLContext } from '../../kernel/context.js';
import { auditRequest } from '../audit/index.js';
import { clearCredentials, credentialsView, parseCredentials, setCredentials } from './credentials.service.js';
import type { ProviderKind } from './credentials.rules.js';

const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

/** Seals and stores; audits what changed (the kind, the hint), never a secret; the tenant's cache entry is dropped after commit. */
async function store(
  ctx: GraphQLContext,
  tenantIdArg: string | null | undefined,
  kind: ProviderKind,
  input: Record<string, string | null | undefined>,
) {
  const tenantId = tenantOf(ctx.principal, tenantIdArg);
  const stored = parseCredentials(ctx.deps, kind, input, livemodeOf(ctx.principal));
  const view = await inTransaction(ctx, async (trx) => {
    const { replaced, hint } = await setCredentials(trx, ctx.deps, tenantId, kind, stored);
    await auditRequest(
      ctx,
      trx,
      tenantId,
      'provider_credentials.updated',
      { type: 'tenant', id: tenantId },
      {
        provider: kind,
        hint,
        replaced,
        environmentOverrides:
          (await credentialsView(trx, ctx.deps, tenantId, livemodeOf(ctx.principal)))[kind].source === 'ENVIRONMENT',
      },
    );
    return credentialsView(trx, ctx.deps, tenantId, livemodeOf(ctx.principal));
  });
  ctx.deps.providers.invalidate(tenantId, kind);
  return view;
}

export const credentialsResolvers: Resolvers = {
  Query: {
    providerCredentials: (_, a, ctx) =>
      credentialsView(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), livemodeOf(ctx.principal)),
  },
  Mutation: {
    setStripeCredentials: (_, a, ctx) => store(ctx, a.tenantId, 'stripe', { ...a.input }),
    setSmtpCredentials: (_, a, ctx) => store(ctx, a.tenantId, 'smtp', { ...a.input }),
    setSmsCredentials: (_, a, ctx) => store(ctx, a.tenantId, 'sms', { ...a.input }),
    clearProviderCredentials: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const kind = a.provider.toLowerCase() as ProviderKind;
      const view = await inTransaction(ctx, async (trx) => {
        if (await clearCredentials(trx, tenantId, kind))
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'provider_credentials.cleared',
            { type: 'tenant', id: tenantId },
            { provider: kind },
          );
        return credentialsView(trx, ctx.deps, tenantId, livemodeOf(ctx.principal));
      });
      ctx.deps.providers.invalidate(tenantId, kind);
      return view;
    },
  },
  ProviderCredentials: {
    stripeWebhookUrl: (v, _, ctx) => `${ctx.deps.env.publicUrl}${STRIPE_WEBHOOK_PATH}/${v.tenantId}`,
  },
};
