import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import { REST_CURSOR_PAGE, cursorPageOf } from '../../kernel/paging.js';
import * as policies from './cancellation-policies.service.js';
import { parseCreatePolicy, parseUpdatePolicy } from './cancellation-policies.commands.js';
import * as rules from './pricing-rules.service.js';
import { parsePricingRule, ruleInputOf } from './rule-input.js';

export const pricingResolvers: Resolvers = {
  Query: {
    pricingRules: (_, a, ctx) => rules.listPricingRules(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    pricingRuleList: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, rules.PRICING_RULE_CURSOR.keyOf);
      if (!cursor) return { pricingRules: await rules.listPricingRules(ctx.db, tenantId), next: null };
      const { items, next } = await rules.pricingRulePage(ctx.db, tenantId, cursor);
      return { pricingRules: items, next };
    },
    cancellationPolicies: (_, a, ctx) => policies.listPolicies(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    cancellationPolicyList: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, policies.POLICY_CURSOR.keyOf);
      if (!cursor) return { cancellationPolicies: await policies.listPolicies(ctx.db, tenantId), next: null };
      const { items, next } = await policies.policyPage(ctx.db, tenantId, cursor);
      return { cancellationPolicies: items, next };
    },
  },
  Mutation: {
    createPricingRule: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return { pricingRule: await rules.createPricingRule(ctx.db, tenantId, parsePricingRule(ruleInputOf(a))) };
    },
    updatePricingRule: (_, a, ctx) => rules.updatePricingRule(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id, a),
    deactivatePricingRule: (_, a, ctx) =>
      rules.deactivatePricingRule(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id),
    deletePricingRule: (_, a, ctx) => rules.deletePricingRule(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id),
    createCancellationPolicy: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreatePolicy(a);
      return inTransaction(ctx, (trx) => policies.createPolicy(trx, tenantId, command));
    },
    updateCancellationPolicy: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdatePolicy(a);
      return inTransaction(ctx, (trx) => policies.updatePolicy(trx, tenantId, a.id, command));
    },
    setDefaultCancellationPolicy: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => policies.setDefaultPolicy(trx, tenantId, a.id));
    },
    deleteCancellationPolicy: (_, a, ctx) => policies.deletePolicy(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id),
  },
  PricingRule: {
    objectIds: (row) => row.object_ids,
    startTime: (row) => row.start_time,
    endTime: (row) => row.end_time,
    minDurationMinutes: (row) => row.min_duration_minutes,
    minDaysInAdvance: (row) => row.min_days_in_advance,
    createdAt: (row) => row.created_at,
  },
  CancellationPolicy: {
    isDefault: (row) => row.is_default,
  },
};
