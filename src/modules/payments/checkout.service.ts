import type { AppDeps } from '../../kernel/deps.js';
import { conflict } from '../../kernel/errors.js';
import { localRange, updateBookingStatus } from '../bookings/index.js';
import * as repo from './payments.repository.js';
import { checkoutExpiry, holdExpired, paymentPageState, reusable, type PaymentPageState } from './payments.rules.js';
import { applyCheckoutSession } from './payments.service.js';
import { settingsOf } from './settings.service.js';
import { providerUnavailable } from './stripe-provider.js';

// What the paymentUrl does: start (or resume) a Checkout Session for a payable booking, show a
// page for everything else; the success page; the hold sweep.

export type PaymentPage =
  { kind: 'redirect'; url: string } | { kind: 'page'; state: PaymentPageState | 'venue'; view: repo.PaymentView };

/**
 * Opens the payment for a booking: a page when it is not payable or there is no provider (pay at the
 * venue), else a redirect to its Checkout Session — the stored one while it has not expired and is
 * for the current price, else a new one.
 *
 * No transaction is open while the provider is called (issue #42: a slow Stripe held a database
 * connection and the booking's lock per click). Two clicks at once still make one session: both
 * count the same stored sessions and so send the same idempotency key, for which the provider
 * answers the same session, stored once (ON CONFLICT on its id). The answer is decided again under
 * the booking's lock after the call: a booking cancelled or paid meanwhile gets its page, and the
 * session made for it expires unused (a payment that still arrives is refunded: docs/payments.md).
 */
export async function openPayment(
  deps: AppDeps,
  bookingId: string,
  links: { success: string; cancel: string },
): Promise<PaymentPage | undefined> {
  const db = deps.database.db;
  const view = await repo.findPaymentView(db, bookingId);
  if (!view) return undefined;
  const state = paymentPageState(view);
  if (state !== 'payable') return { kind: 'page', state, view };
  // The environment's provider, else the one of the tenant's stored Stripe keys (no restart).
  const provider = await deps.providers.payment(view.tenant_id);
  if (!provider) return { kind: 'page', state: 'venue', view };
  const now = deps.now();
  const stored = await repo.latestCheckoutSession(db, view.id);
  if (stored && reusable(stored, now, view.total_price)) return { kind: 'redirect', url: stored.url };
  const { pendingExpiryMinutes } = await settingsOf(db, view.tenant_id);
  const attempt = await repo.countCheckoutSessions(db, view.id);
  let session;
  try {
    session = await provider.createCheckout({
      bookingId: view.id,
      tenantId: view.tenant_id,
      amount: view.total_price,
      currency: view.currency,
      description: `${view.object_name}, ${localRange(view.start_time, view.end_time, view.time_zone)}`,
      expiresAt: checkoutExpiry(now, view.created_at, pendingExpiryMinutes),
      successUrl: links.success,
      cancelUrl: links.cancel,
      idempotencyKey: `portier-checkout-${view.id}-${attempt + 1}`,
    });
  } catch (error) {
    deps.log.error({ err: error, bookingId: view.id }, 'the payment provider did not create a checkout session');
    throw providerUnavailable('start the payment', error);
  }
  return db.transaction().execute(async (trx) => {
    const current = await repo.findPaymentView(trx, bookingId, true);
    if (!current) return undefined;
    const stateNow = paymentPageState(current);
    if (stateNow !== 'payable') return { kind: 'page', state: stateNow, view: current };
    if (current.total_price !== view.total_price) {
      // The price changed during the call (a reschedule): this session is for the old amount.
      throw conflict(
        'booking_changed',
        'The booking changed while its payment was being opened: open the payment link again',
      );
    }
    await repo.insertCheckoutSession(trx, {
      session_id: session.id,
      tenant_id: current.tenant_id,
      booking_id: current.id,
      url: session.url,
      amount: view.total_price,
      expires_at: session.expiresAt,
      created_at: now,
    });
    return { kind: 'redirect', url: session.url };
  });
}

/**
 * The success page's booking. When the provider says the session is paid but its webhook has not
 * arrived yet, the payment is applied now (the same path as the webhook; whichever comes second
 * changes nothing).
 */
export async function afterCheckout(
  deps: AppDeps,
  bookingId: string,
  sessionId: string | undefined,
): Promise<repo.PaymentView | undefined> {
  const db = deps.database.db;
  const view = await repo.findPaymentView(db, bookingId);
  if (!view || view.payment_status !== 'UNPAID' || !sessionId) return view;
  const provider = await deps.providers.payment(view.tenant_id);
  if (!provider) return view;
  const known = await repo.latestCheckoutSession(db, bookingId);
  if (!known || known.session_id !== sessionId) return view;
  try {
    const session = await provider.retrieveCheckout(sessionId);
    if (session.metadata.bookingId === bookingId)
      await db.transaction().execute((trx) => applyCheckoutSession(trx, deps, session, null));
  } catch (error) {
    // The webhook still applies it; the page says the payment is being confirmed.
    deps.log.warn({ err: error, bookingId }, 'could not ask the payment provider about a checkout session');
  }
  return repo.findPaymentView(db, bookingId);
}

/** Bookings one sweep cancels at most (the next pass takes the rest). */
const SWEEP_BATCH = 100;

/**
 * Cancels unpaid PENDING bookings whose tenant's hold (pendingExpiryMinutes) has ended, with
 * booking.cancelled reason "payment_expired", freeing their slots; then expires their open Checkout
 * Sessions so the guest cannot pay any more (a payment racing this is refunded in full). Safe in
 * several processes at once: each booking is re-checked under its row lock.
 */
export async function sweepExpiredHolds(deps: AppDeps, now: Date): Promise<number> {
  const db = deps.database.db;
  const due = await repo.expiredHolds(db, now, SWEEP_BATCH);
  let cancelled = 0;
  for (const candidate of due) {
    const done = await db.transaction().execute(async (trx) => {
      const booking = await repo.lockBooking(trx, candidate.tenant_id, candidate.id);
      const { pendingExpiryMinutes } = await settingsOf(trx, candidate.tenant_id);
      if (!booking || !holdExpired(booking, pendingExpiryMinutes, now)) return false;
      await updateBookingStatus(
        trx,
        deps,
        candidate.tenant_id,
        candidate.id,
        { status: 'CANCELLED' },
        { reason: 'payment_expired' },
      );
      return true;
    });
    if (!done) continue;
    cancelled += 1;
    deps.log.info(
      { bookingId: candidate.id, tenantId: candidate.tenant_id },
      'unpaid booking cancelled: its hold ended (payment_expired)',
    );
    const provider = await deps.providers.payment(candidate.tenant_id);
    if (!provider) continue;
    for (const session of await repo.openCheckoutSessions(db, candidate.id, now)) {
      try {
        await provider.expireCheckout(session.session_id);
      } catch (error) {
        deps.log.warn(
          { err: error, session: session.session_id },
          'could not expire the checkout session of a cancelled booking (a late payment is refunded)',
        );
      }
    }
  }
  return cancelled;
}
