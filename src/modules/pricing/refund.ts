import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow } from '../../kernel/db/types.js';
import { findDefaultPolicy } from './cancellation-policies.repository.js';
import { applicableTier, refundFor } from './policy.js';

/**
 * The refund for cancelling `booking` at `now`, by the tenant's default cancellation policy and the
 * notice given (start − now). A tenant without a default policy refunds the whole price.
 */
export async function refundForCancellation(
  db: Executor,
  tenantId: string,
  booking: RefundedBooking,
  now: Date,
): Promise<number> {
  return (await cancellationQuote(db, tenantId, booking, now)).refundAmount;
}

type RefundedBooking = Pick<BookingRow, 'total_price' | 'start_time'>;

/**
 * The refund a cancellation at `now` gives, with the name of the default policy that sets it (null:
 * none, a full refund). `tierApplies` says whether a tier of the policy covers the notice given (the
 * guest's own cancellation is allowed only then: docs/booking-page.md); always true without a policy.
 * `shortestNoticeHours` is the policy's smallest hoursBeforeStart (null without a policy).
 */
export async function cancellationQuote(
  db: Executor,
  tenantId: string,
  booking: RefundedBooking,
  now: Date,
): Promise<{
  refundAmount: number;
  policyName: string | null;
  tierApplies: boolean;
  shortestNoticeHours: number | null;
}> {
  const policy = await findDefaultPolicy(db, tenantId);
  if (!policy)
    return { refundAmount: booking.total_price, policyName: null, tierApplies: true, shortestNoticeHours: null };
  const noticeMs = booking.start_time.getTime() - now.getTime();
  return {
    refundAmount: refundFor(booking.total_price, policy.tiers, noticeMs),
    policyName: policy.name,
    tierApplies: applicableTier(policy.tiers, noticeMs) !== undefined,
    shortestNoticeHours: Math.min(...policy.tiers.map((t) => t.hoursBeforeStart)),
  };
}
