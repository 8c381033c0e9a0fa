import type { BookingStatus, PaymentStatus } from '../../kernel/db/types.js';

// Pure payment rules (docs/payments.md), table-tested in payments.rules.test.ts.

/** The payment status from the cents received and given back. */
export function paymentStatusOf(amountPaid: number, amountRefunded: number): PaymentStatus {
  if (amountPaid <= 0) return 'UNPAID';
  if (amountRefunded <= 0) return 'PAID';
  return amountRefunded >= amountPaid ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
}

/** What a cancellation gives back: the policy's refund, never more than what is still held. */
export function refundOnCancellation(policyRefund: number, amountPaid: number, amountRefunded: number): number {
  return Math.max(0, Math.min(policyRefund, amountPaid - amountRefunded));
}

export type PaymentPageState = 'payable' | 'cancelled' | 'completed' | 'paid' | 'free';

/** What the paymentUrl does for a booking: start a payment only for an unpaid, live, priced one. */
export function paymentPageState(booking: {
  status: BookingStatus;
  payment_status: PaymentStatus;
  total_price: number;
}): PaymentPageState {
  if (booking.status === 'CANCELLED') return 'cancelled';
  if (booking.status === 'COMPLETED') return 'completed';
  if (booking.payment_status !== 'UNPAID') return 'paid';
  if (booking.total_price <= 0) return 'free';
  return 'payable';
}

/** Stripe accepts a Checkout Session's expires_at from 30 minutes to 24 hours after creation. */
export const CHECKOUT_MIN_MS = 30 * 60_000;
export const CHECKOUT_MAX_MS = 24 * 60 * 60_000;

/**
 * When a new Checkout Session should expire: when the booking's hold ends (created + hold), but
 * within what Stripe accepts. A hold ending sooner than 30 minutes from now still gets 30 minutes;
 * the hold sweep then expires the session itself when it cancels the booking.
 */
export function checkoutExpiry(now: Date, createdAt: Date, holdMinutes: number | null): Date {
  const latest = now.getTime() + CHECKOUT_MAX_MS;
  const earliest = now.getTime() + CHECKOUT_MIN_MS;
  const holdEnds = holdMinutes === null ? latest : createdAt.getTime() + holdMinutes * 60_000;
  return new Date(Math.min(latest, Math.max(earliest, holdEnds)));
}

/** A stored session is reused while it has over a minute left and is for the current price. */
export function reusable(session: { expires_at: Date; amount: number }, now: Date, amount: number): boolean {
  return session.amount === amount && session.expires_at.getTime() - now.getTime() > 60_000;
}

/** The hold has ended: an unpaid PENDING booking older than the tenant's pendingExpiryMinutes. */
export function holdExpired(
  booking: { status: BookingStatus; payment_status: PaymentStatus; created_at: Date },
  holdMinutes: number | null,
  now: Date,
): boolean {
  if (holdMinutes === null || booking.status !== 'PENDING' || booking.payment_status !== 'UNPAID') return false;
  return now.getTime() - booking.created_at.getTime() >= holdMinutes * 60_000;
}
