import type { CancellationTier } from '../../kernel/db/types.js';
import type { FieldError } from '../../kernel/errors.js';
import { roundDiv } from './engine.js';

// Cancellation policies as pure functions: checking tiers and the refund they give.

const MS_PER_HOUR = 3_600_000;
const MAX_TIERS = 20;
const MAX_HOURS_BEFORE_START = 8760;

/**
 * The tier that applies to a cancellation with `noticeMs` to go before the start: the one with the
 * largest hoursBeforeStart not exceeding the notice; none when the notice is shorter than every tier
 * (or the booking has started).
 */
export function applicableTier(tiers: readonly CancellationTier[], noticeMs: number): CancellationTier | undefined {
  let applicable: CancellationTier | undefined;
  for (const tier of tiers) {
    if (
      tier.hoursBeforeStart * MS_PER_HOUR <= noticeMs &&
      (!applicable || tier.hoursBeforeStart > applicable.hoursBeforeStart)
    ) {
      applicable = tier;
    }
  }
  return applicable;
}

/**
 * The refund for cancelling a booking of `totalPrice` with `noticeMs` to go before its start: the
 * applicable tier's percentage (applicableTier); no tier → nothing.
 */
export function refundFor(totalPrice: number, tiers: readonly CancellationTier[], noticeMs: number): number {
  const applicable = applicableTier(tiers, noticeMs);
  return applicable ? roundDiv(BigInt(totalPrice) * BigInt(applicable.refundPercent), 100n) : 0;
}

/** The tiers sorted by hoursBeforeStart (largest first), or the field errors that prevent it. */
export function checkTiers(
  value: unknown,
  field = 'tiers',
): { tiers: CancellationTier[]; errors: [] } | { tiers?: undefined; errors: FieldError[] } {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TIERS) {
    return {
      errors: [{ field, message: `must be a list of 1 to ${MAX_TIERS} tiers {hoursBeforeStart, refundPercent}` }],
    };
  }
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  value.forEach((tier: unknown, index) => {
    const at = `${field}[${index}]`;
    if (typeof tier !== 'object' || tier === null || Array.isArray(tier)) {
      errors.push({ field: at, message: 'must be an object {hoursBeforeStart, refundPercent}' });
      return;
    }
    const { hoursBeforeStart, refundPercent } = tier as Record<string, unknown>;
    const unknown = Object.keys(tier).filter((k) => k !== 'hoursBeforeStart' && k !== 'refundPercent');
    if (unknown.length)
      errors.push({
        field: `${at}.${unknown[0]}`,
        message: 'is not a tier field; use hoursBeforeStart, refundPercent',
      });
    if (
      typeof hoursBeforeStart !== 'number' ||
      !Number.isInteger(hoursBeforeStart) ||
      hoursBeforeStart < 0 ||
      hoursBeforeStart > MAX_HOURS_BEFORE_START
    ) {
      errors.push({
        field: `${at}.hoursBeforeStart`,
        message: `must be a whole number of hours from 0 to ${MAX_HOURS_BEFORE_START}`,
      });
    } else if (seen.has(hoursBeforeStart)) {
      errors.push({
        field: `${at}.hoursBeforeStart`,
        message: `another tier already starts ${hoursBeforeStart} hours before the start`,
      });
    } else {
      seen.add(hoursBeforeStart);
    }
    if (
      typeof refundPercent !== 'number' ||
      !Number.isInteger(refundPercent) ||
      refundPercent < 0 ||
      refundPercent > 100
    ) {
      errors.push({ field: `${at}.refundPercent`, message: 'must be a whole number from 0 to 100' });
    }
  });
  if (errors.length) return { errors };
  const tiers = (value as CancellationTier[])
    .map(({ hoursBeforeStart, refundPercent }) => ({ hoursBeforeStart, refundPercent }))
    .sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart);
  return { tiers, errors: [] };
}
