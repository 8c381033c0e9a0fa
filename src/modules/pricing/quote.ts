import type { Executor } from '../../db/index.js';
import type { ObjectRow } from '../../db/types.js';
import { quotePrice, type PriceQuote } from './engine.js';
import { listPricingRules, ruleOf } from './pricing-rules.repository.js';

export type Quote = PriceQuote;

/**
 * The price of booking `object` from `start` to `end`, as computed at `createdAt`, under the
 * tenant's active pricing rules, read in `timeZone` (the object's accommodation's, which the caller
 * already holds). Booking creation and the
 * price preview both price through here, so they agree.
 */
export async function quoteBooking(db: Executor, tenantId: string, object: ObjectRow, timeZone: string, start: Date, end: Date, createdAt: Date): Promise<Quote> {
  const rules = (await listPricingRules(db, tenantId, true)).map(ruleOf);
  return quotePrice({ objectId: object.id, pricePerHour: object.price_per_hour, timeZone, start, end, createdAt }, rules);
}
