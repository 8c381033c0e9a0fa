import { defineModule } from '../../kernel/module.js';
import { pricingResolvers } from './pricing.resolvers.js';
import { importCancellationPolicies, importPricingRules } from './pricing.import.js';
// The pricing module's public face: what other modules and the HTTP/GraphQL layers may use.
export { importCancellationPolicies, importPricingRules } from './pricing.import.js';
export { pricingResolvers } from './pricing.resolvers.js';
export { activePricingRules, quoteWithRules, type Quote } from './quote.js';
export type { PricingRule } from './engine.js';
export { cancellationQuote, refundForCancellation } from './refund.js';
export * from './cancellation-policies.service.js';
export * from './pricing-rules.service.js';
export * from './cancellation-policies.commands.js';
export {
  parsePricingRule,
  ruleInputOf,
  type PricingRuleInput,
  MAX_OBJECT_IDS,
  MIN_DAYS_RANGE,
  MIN_DURATION_RANGE,
  PERCENT_RANGE,
  PRICING_RULE_TYPES,
} from './rule-input.js';

/** The pricing module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const pricingModule = defineModule({
  name: 'pricing',
  dependsOn: ['catalog'],
  typeDefs: ['pricing.graphql'],
  resolvers: pricingResolvers,
  importSections: { pricingRules: importPricingRules, cancellationPolicies: importCancellationPolicies },
});
