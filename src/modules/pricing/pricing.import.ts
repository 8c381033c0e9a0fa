import { atPath, keyedItems, resolveKey, type ImportContext } from '../../kernel/import-helpers.js';
import { invalidField } from '../../kernel/errors.js';
import { createPolicy } from './cancellation-policies.service.js';
import { parseCreatePolicy } from './cancellation-policies.commands.js';
import { createPricingRule } from './pricing-rules.service.js';
import { parsePricingRule, ruleInputOf } from './rule-input.js';

// The catalog file's pricingRules and cancellationPolicies sections (DESIGN section 6).

const RULE_FIELDS = [
  'key',
  'name',
  'type',
  'percent',
  'active',
  'startTime',
  'endTime',
  'weekdays',
  'minDurationMinutes',
  'minDaysInAdvance',
  'objects',
  'objectIds',
];
const POLICY_FIELDS = ['key', 'name', 'isDefault', 'tiers'];

function rejectUnknownFields(item: Record<string, unknown>, allowed: string[], path: string): void {
  const unknown = Object.keys(item).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw invalidField(
      `${path}.${unknown[0]}`,
      `is not a known field; expected ${allowed.join(', ')}`,
      'import_invalid',
    );
}

/** A rule limits itself to objects by file key (`objects`) or by id (`objectIds`). */
export async function importPricingRules(ctx: ImportContext, value: unknown): Promise<void> {
  for (const { key, item, path } of keyedItems('pricingRules', value)) {
    rejectUnknownFields(item, RULE_FIELDS, path);
    let objectIds = item.objectIds;
    if (item.objects != null) {
      if (item.objectIds != null)
        throw invalidField(`${path}.objects`, 'give objects (file keys) or objectIds, not both', 'import_invalid');
      if (!Array.isArray(item.objects))
        throw invalidField(`${path}.objects`, 'must be a list of object keys', 'import_invalid');
      objectIds = item.objects.map((k, i) => resolveKey(ctx.result.objects, 'object', k, `${path}.objects[${i}]`));
    }
    const rule = await atPath(path, () =>
      createPricingRule(ctx.trx, ctx.tenantId, parsePricingRule(ruleInputOf({ ...item, objectIds }))),
    );
    ctx.result.pricingRules[key] = rule.id;
  }
}

/** At most one policy of the file may be the default; it replaces the tenant's current default. */
export async function importCancellationPolicies(ctx: ImportContext, value: unknown): Promise<void> {
  let defaultKey: string | undefined;
  for (const { key, item, path } of keyedItems('cancellationPolicies', value)) {
    rejectUnknownFields(item, POLICY_FIELDS, path);
    if (item.isDefault === true) {
      if (defaultKey)
        throw invalidField(
          `${path}.isDefault`,
          `only one policy may be the default; "${defaultKey}" already is`,
          'import_invalid',
        );
      defaultKey = key;
    }
    const policy = await atPath(path, () => createPolicy(ctx.trx, ctx.tenantId, parseCreatePolicy(item)));
    ctx.result.cancellationPolicies[key] = policy.id;
  }
}
