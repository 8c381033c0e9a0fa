import type { Executor } from '../../db/index.js';
import type { PricingRuleRow } from '../../db/types.js';
import { Validator, invalidField, notFound } from '../../errors.js';
import { isUuid } from '../../validation.js';
import * as catalog from '../catalog/index.js';
import type { PricingRule } from './engine.js';
import * as repo from './pricing-rules.repository.js';
import { checkPricingRule, mergeRuleUpdate, type PricingRuleInput } from './rule-input.js';

// Every function takes the tenant already resolved from the principal (tenantOf).

/** The rule fields of a flat argument list (GraphQL/REST) or a catalog file item. */
export function ruleInputOf(args: PricingRuleInput): PricingRuleInput {
  const { name, type, percent, active, objectIds, startTime, endTime, weekdays, minDurationMinutes, minDaysInAdvance } = args;
  return { name, type, percent, active, objectIds, startTime, endTime, weekdays, minDurationMinutes, minDaysInAdvance };
}

async function checkedRule(db: Executor, tenantId: string, input: PricingRuleInput, objectIdsGiven: boolean): Promise<PricingRule> {
  const { rule, errors } = checkPricingRule(input);
  const v = new Validator();
  v.errors.push(...errors);
  v.throwIfAny();
  if (objectIdsGiven && rule!.objectIds.length) {
    const known = await catalog.existingObjectIds(db, tenantId, [...rule!.objectIds]);
    const unknown = rule!.objectIds.filter((id) => !known.has(id));
    if (unknown.length) throw invalidField('objectIds', `unknown objects: ${unknown.join(', ')}`, 'unknown_object');
  }
  return rule!;
}

export async function createPricingRule(db: Executor, tenantId: string, input: PricingRuleInput): Promise<PricingRuleRow> {
  const rule = await checkedRule(db, tenantId, ruleInputOf(input), true);
  return repo.insertPricingRule(db, tenantId, rule);
}

export async function getPricingRule(db: Executor, tenantId: string, id: string): Promise<PricingRuleRow> {
  const row = isUuid(id) ? await repo.findPricingRule(db, tenantId, id) : undefined;
  if (!row) throw notFound('Pricing rule', id);
  return row;
}

export const listPricingRules = (db: Executor, tenantId: string) => repo.listPricingRules(db, tenantId);

/**
 * Given fields replace the stored ones (null keeps them); a new type drops the old type's fields.
 * Only newly given objectIds are checked: a stored id of a since-deleted object stays harmless.
 */
export async function updatePricingRule(db: Executor, tenantId: string, id: string, input: PricingRuleInput): Promise<PricingRuleRow> {
  const current = await getPricingRule(db, tenantId, id);
  const update = ruleInputOf(input);
  const rule = await checkedRule(db, tenantId, mergeRuleUpdate(repo.ruleOf(current), update), update.objectIds != null);
  return (await repo.updatePricingRule(db, tenantId, id, rule))!;
}

export async function deactivatePricingRule(db: Executor, tenantId: string, id: string): Promise<PricingRuleRow> {
  return updatePricingRule(db, tenantId, id, { active: false });
}

export async function deletePricingRule(db: Executor, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id) || !(await repo.deletePricingRule(db, tenantId, id))) throw notFound('Pricing rule', id);
  return true;
}
