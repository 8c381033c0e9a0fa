import type { Executor } from '../../db/index.js';
import type { BookingRow } from '../../db/types.js';

/**
 * The refund for cancelling `booking` at `now`. Until the tenant has a cancellation policy, the
 * whole price is refunded; the pricing capability applies the policy's tiers here.
 */
export async function refundForCancellation(_db: Executor, _tenantId: string, booking: BookingRow, _now: Date): Promise<number> {
  return booking.total_price;
}
