import { sql, type Expression, type RawBuilder } from 'kysely';
import type { ObjectRow } from '../../kernel/db/types.js';
import { quotePrice, type PriceQuote, type PricingRule } from './engine.js';

export type Quote = PriceQuote;

/**
 * The tenant's active pricing rules, in the order a quote applies them, as one SQL expression (a
 * JSON array of PricingRule): a caller that reads what a price depends on selects it beside the
 * object in its own statement, so pricing costs no round trip of its own. The pricing module keeps
 * its table's SQL; the caller passes it to quoteWithRules.
 */
export function activePricingRules(tenantId: Expression<string>): RawBuilder<PricingRule[]> {
  return sql<PricingRule[]>`coalesce((select json_agg(json_build_object(
      'name', r.name, 'type', r.type, 'active', r.active, 'objectIds', r.object_ids, 'percent', r.percent,
      'startTime', r.start_time, 'endTime', r.end_time, 'weekdays', r.weekdays,
      'minDurationMinutes', r.min_duration_minutes, 'minDaysInAdvance', r.min_days_in_advance) order by r.position)
    from pricing_rules r where r.tenant_id = ${tenantId} and r.active), '[]'::json)`;
}

/**
 * The price of booking `object` from `start` to `end`, as computed at `createdAt`, under `rules`
 * (the tenant's active rules, read with activePricingRules), read in `timeZone` (the object's
 * accommodation's). Booking creation, rescheduling and the price preview all price through here,
 * so they agree.
 */
export function quoteWithRules(
  rules: readonly PricingRule[],
  object: Pick<ObjectRow, 'id' | 'price_per_hour'>,
  timeZone: string,
  start: Date,
  end: Date,
  createdAt: Date,
): Quote {
  return quotePrice(
    { objectId: object.id, pricePerHour: object.price_per_hour, timeZone, start, end, createdAt },
    rules,
  );
}
