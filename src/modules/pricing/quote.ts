import type { Executor } from '../../db/index.js';
import type { ObjectRow } from '../../db/types.js';

export interface Quote {
  basePrice: number;
  adjustments: { rule: string; amount: number }[];
  totalPrice: number;
  currency: 'EUR';
}

/** Half away from zero, to a whole cent. */
export function roundCents(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * The price of booking `object` from `start` to `end`, as computed at `createdAt`. For now the base
 * price only; the pricing capability applies the tenant's pricing rules here.
 */
export async function quoteBooking(
  _db: Executor,
  _tenantId: string,
  object: ObjectRow,
  start: Date,
  end: Date,
  _createdAt: Date,
): Promise<Quote> {
  const minutes = (end.getTime() - start.getTime()) / 60_000;
  const basePrice = roundCents((object.price_per_hour * minutes) / 60);
  return { basePrice, adjustments: [], totalPrice: Math.max(0, basePrice), currency: 'EUR' };
}
