import type { Executor } from '../../kernel/db/index.js';
import type { PricingRuleRow } from '../../kernel/db/types.js';
import { invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { cursorPageRows, positionCursor, type CursorPage } from '../../kernel/paging.js';
import * as catalog from '../catalog/index.js';
import type { PricingRule } from './engine.js';
import * as repo from './pricing-rules.repository.js';
import { mergeRuleUpdate, parsePricingRule, ruleInputOf, type PricingRuleInput } from './rule-input.js';

// Every function takes the tenant already resolved from the principal (tenantOf).

/** Objects newly named by a rule must be the tenant's. */
async function checkObjects(db: Executor, tenantId: string, objectIds: readonly string[]): Promise<void> {
  if (!objectIds.length) return;
  const known = await catalog.existingObjectIds(db, tenantId, [...objectIds]);
  const unknown = objectIds.filter((id) => !known.has(id));
  if (unknown.length) throw invalidField('objectIds', `unknown objects: ${unknown.join(', ')}`, 'unknown_object');
}

/** Creates the rule the caller parsed (parsePricingRule). */
export async function createPricingRule(db: Executor, tenantId: string, rule: PricingRule): Promise<PricingRuleRow> {
  await checkObjects(db, tenantId, rule.objectIds);
  return repo.insertPricingRule(db, tenantId, rule);
}

export async function getPricingRule(db: Executor, tenantId: string, id: string): Promise<PricingRuleRow> {
  const row = isUuid(id) ? await repo.findPricingRule(db, tenantId, id) : undefined;
  if (!row) throw notFound('Pricing rule', id);
  return row;
}

export const listPricingRules = (db: Executor, tenantId: string) => repo.listPricingRules(db, tenantId);

export const PRICING_RULE_CURSOR = positionCursor('pricing-rule');

/** A cursor page of the tenant's rules (REST cursor paging), in position order. */
export async function pricingRulePage(
  db: Executor,
  tenantId: string,
  cursor: CursorPage<{ position: number; id: string }>,
) {
  const rows = await repo.listPricingRules(db, tenantId, { after: cursor.after, limit: cursor.limit + 1 });
  return cursorPageRows(rows, cursor.limit, PRICING_RULE_CURSOR.of);
}

/**
 * Given fields replace the stored ones (null keeps them); a new type drops the old type's fields.
 * Only newly given objectIds are checked: a stored id of a since-deleted object stays harmless.
 */
export async function updatePricingRule(
  db: Executor,
  tenantId: string,
  id: string,
  input: PricingRuleInput,
): Promise<PricingRuleRow> {
  const current = await getPricingRule(db, tenantId, id);
  const update = ruleInputOf(input);
  // Which fields a rule needs depends on its type, stored or given: the merged rule is the command.
  const rule = parsePricingRule(mergeRuleUpdate(repo.ruleOf(current), update));
  if (update.objectIds != null) await checkObjects(db, tenantId, rule.objectIds);
  const updated = await repo.updatePricingRule(db, tenantId, id, rule);
  if (!updated) throw notFound('Pricing rule', id);
  return updated;
}

export async function deactivatePricingRule(db: Executor, tenantId: string, id: string): Promise<PricingRuleRow> {
  return updatePricingRule(db, tenantId, id, { active: false });
}

export async function deletePricingRule(db: Executor, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id) || !(await repo.deletePricingRule(db, tenantId, id))) throw notFound('Pricing rule', id);
  return true;
}
