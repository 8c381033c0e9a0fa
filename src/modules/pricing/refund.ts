import type { Executor } from '../../db/index.js';
import type { BookingRow } from '../../db/types.js';
import { findDefaultPolicy } from './cancellation-policies.repository.js';
import { refundFor } from './policy.js';

/**
 * The refund for cancelling `booking` at `now`, by the tenant's default cancellation policy and the
 * notice given (start − now). A tenant without a default policy refunds the whole price.
 */
export async function refundForCancellation(db: Executor, tenantId: string, booking: BookingRow, now: Date): Promise<number> {
  const policy = await findDefaultPolicy(db, tenantId);
  if (!policy) return booking.total_price;
  return refundFor(booking.total_price, policy.tiers, booking.start_time.getTime() - now.getTime());
}
