import type { Executor } from '../../kernel/db/index.js';
import { afterPosition } from '../../kernel/db/keyset.js';
import type { PricingRuleRow } from '../../kernel/db/types.js';
import type { PricingRule } from './engine.js';

function columnsOf(rule: PricingRule) {
  return {
    name: rule.name,
    type: rule.type,
    active: rule.active,
    object_ids: [...rule.objectIds],
    percent: rule.percent,
    start_time: rule.startTime,
    end_time: rule.endTime,
    weekdays: rule.weekdays ? [...rule.weekdays] : null,
    min_duration_minutes: rule.minDurationMinutes,
    min_days_in_advance: rule.minDaysInAdvance,
  };
}

export function ruleOf(row: PricingRuleRow): PricingRule {
  return {
    name: row.name,
    type: row.type,
    active: row.active,
    objectIds: row.object_ids,
    percent: row.percent,
    startTime: row.start_time,
    endTime: row.end_time,
    weekdays: row.weekdays,
    minDurationMinutes: row.min_duration_minutes,
    minDaysInAdvance: row.min_days_in_advance,
  };
}

export async function insertPricingRule(db: Executor, tenantId: string, rule: PricingRule): Promise<PricingRuleRow> {
  return db
    .insertInto('pricing_rules')
    .values({ tenant_id: tenantId, ...columnsOf(rule) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updatePricingRule(
  db: Executor,
  tenantId: string,
  id: string,
  rule: PricingRule,
): Promise<PricingRuleRow | undefined> {
  return db
    .updateTable('pricing_rules')
    .set(columnsOf(rule))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findPricingRule(db: Executor, tenantId: string, id: string): Promise<PricingRuleRow | undefined> {
  return db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** In creation order, which is also the order their adjustments appear in a quote. */
/** The tenant's rules in position order; with `page`, the rows after its key, at most its limit (cursor paging). */
export async function listPricingRules(
  db: Executor,
  tenantId: string,
  page?: { after: { position: number; id: string } | null; limit: number },
): Promise<PricingRuleRow[]> {
  return db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .$if(page?.after != null, (q) => q.where(afterPosition('position', 'id', page?.after ?? { position: 0, id: '' })))
    .orderBy('position')
    .orderBy('id')
    .$if(page !== undefined, (q) => q.limit(page?.limit ?? 0))
    .execute();
}

export async function deletePricingRule(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('pricing_rules')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
