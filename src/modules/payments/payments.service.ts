import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow, PaymentProvider as ProviderName } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { recordAudit } from '../audit/index.js';
import { bookingEventData, notifyGuest, recordBookingEvent, updateBookingStatus } from '../bookings/index.js';
import * as catalog from '../catalog/index.js';
import * as repo from './payments.repository.js';
import { paymentStatusOf, refundOnCancellation } from './payments.rules.js';
import type { CheckoutSession } from './stripe-provider.js';
import { settingsOf } from './settings.service.js';
import { flagDiscrepancy } from './payment-issues.service.js';
import type { MarkBookingPaid } from './payments.commands.js';

// The rules that move money and the booking with it (docs/payments.md). Every change locks the
// booking's row first, so two processes applying the same provider event queue, and the second
// finds the ledger row (unique provider event and charge id) and changes nothing.

/** The payment as events and the API show it. */
export function paymentOf(booking: BookingRow) {
  return {
    status: booking.payment_status,
    amountPaid: booking.amount_paid,
    amountRefunded: booking.amount_refunded,
    currency: booking.currency,
    provider: booking.payment_provider,
    paidAt: booking.paid_at,
  };
}

async function recordPaymentEvent(
  trx: Executor,
  booking: BookingRow,
  type: 'booking.paid' | 'booking.refunded',
  extra: Record<string, unknown>,
): Promise<{ sequence: number; objectName: string }> {
  const object = await catalog.findObject(trx, booking.tenant_id, booking.object_id);
  const payment = paymentOf(booking);
  const { sequence } = await recordBookingEvent(trx, booking.tenant_id, type, booking.id, {
    ...bookingEventData(booking, object?.name ?? ''),
    payment: { ...payment, paidAt: payment.paidAt?.toISOString() ?? null },
    ...extra,
  });
  return { sequence, objectName: object?.name ?? '' };
}

/** Adds a payment to the booking's columns and emits booking.paid; confirms when the tenant wants that. */
async function addPayment(
  trx: Executor,
  deps: AppDeps,
  booking: BookingRow,
  amount: number,
  provider: ProviderName,
): Promise<BookingRow> {
  const now = deps.now();
  const amountPaid = booking.amount_paid + amount;
  let updated = await repo.setPaymentColumns(
    trx,
    booking.tenant_id,
    booking.id,
    {
      payment_status: paymentStatusOf(amountPaid, booking.amount_refunded),
      amount_paid: amountPaid,
      amount_refunded: booking.amount_refunded,
      payment_provider: provider,
      paid_at: booking.paid_at ?? now,
    },
    now,
  );
  const paid = await recordPaymentEvent(trx, updated, 'booking.paid', { amount });
  // The guest's receipt (docs/notifications.md), queued with the payment: it exists iff the payment does.
  await notifyGuest(trx, deps, 'receipt', updated, paid.sequence, paid.objectName, { amount });
  if (updated.status === 'PENDING' && (await settingsOf(trx, booking.tenant_id)).confirmOnPayment) {
    updated = (await updateBookingStatus(trx, deps, booking.tenant_id, booking.id, { status: 'CONFIRMED' })).booking;
  }
  return updated;
}

/**
 * Records `amount` cents given back, once (the ledger row's provider reference is unique): the
 * ledger row, the booking's amount_refunded and booking.refunded. Undefined when it was recorded already.
 */
export async function applyRefund(
  trx: Executor,
  deps: AppDeps,
  booking: BookingRow,
  refund: {
    amount: number;
    currency: string;
    reason: string;
    provider: ProviderName;
    reference: string | null;
    note: string | null;
  },
): Promise<BookingRow | undefined> {
  const now = deps.now();
  const entry = await repo.insertLedgerEntry(trx, {
    tenant_id: booking.tenant_id,
    booking_id: booking.id,
    kind: 'refund',
    provider: refund.provider,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
    provider_event_id: null,
    provider_reference: refund.reference,
    note: refund.note,
    actor_label: 'Portier',
    created_at: now,
  });
  if (!entry) return undefined;
  const amountRefunded = booking.amount_refunded + refund.amount;
  const updated = await repo.setPaymentColumns(
    trx,
    booking.tenant_id,
    booking.id,
    {
      payment_status: paymentStatusOf(booking.amount_paid, amountRefunded),
      amount_paid: booking.amount_paid,
      amount_refunded: amountRefunded,
      payment_provider: booking.payment_provider,
      paid_at: booking.paid_at,
    },
    now,
  );
  await recordPaymentEvent(trx, updated, 'booking.refunded', {
    refund: { amount: refund.amount, reason: refund.reason },
  });
  return updated;
}

/**
 * Gives `amount` cents back. A Stripe payment's refund becomes a refund intent in the caller's
 * transaction — the provider is called later by the refund worker (refund-outbox.ts), never under
 * this lock — and is recorded when the provider made it. A payment taken at the venue is recorded
 * now as owed at the desk (no provider call).
 */
async function giveBack(
  trx: Executor,
  deps: AppDeps,
  booking: BookingRow,
  amount: number,
  reason: string,
  idempotencyKey: string,
): Promise<BookingRow> {
  const paid = await repo.latestProviderPayment(trx, booking.tenant_id, booking.id);
  if (paid?.provider === 'stripe' && paid.provider_reference) {
    const now = deps.now();
    await trx
      .insertInto('refund_intents')
      .values({
        tenant_id: booking.tenant_id,
        booking_id: booking.id,
        amount,
        currency: booking.currency,
        provider: 'stripe',
        payment_reference: paid.provider_reference,
        reason,
        idempotency_key: idempotencyKey,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
    return booking;
  }
  const updated = await applyRefund(trx, deps, booking, {
    amount,
    currency: booking.currency,
    reason,
    provider: 'venue',
    reference: null,
    note: 'To be handed back at the venue',
  });
  return updated ?? booking;
}

/**
 * The bookings module's cancellation port: give back the policy's refund of what was paid (nothing
 * when nothing was paid). One Stripe idempotency key per booking: a booking is cancelled once.
 */
export async function refundCancelledBooking(
  trx: Executor,
  deps: AppDeps,
  booking: BookingRow,
  policyRefund: number,
): Promise<BookingRow> {
  const amount = refundOnCancellation(policyRefund, booking.amount_paid, booking.amount_refunded);
  if (amount <= 0) return booking;
  return giveBack(trx, deps, booking, amount, 'cancellation', `portier-cancellation-refund-${booking.id}`);
}

export type CheckoutOutcome =
  'applied' | 'duplicate' | 'unknown_booking' | 'not_paid' | 'refunded_after_cancellation' | 'amount_mismatch';

/**
 * Applies a paid Checkout Session (from a verified webhook event, or from the success page asking
 * the provider). An unknown booking, another tenant's, or a session already applied changes nothing.
 */
export async function applyCheckoutSession(
  trx: Executor,
  deps: AppDeps,
  session: CheckoutSession,
  eventId: string | null,
): Promise<CheckoutOutcome> {
  const bookingId = session.metadata.bookingId ?? '';
  const tenantId = session.metadata.tenantId ?? '';
  if (
    !isUuid(bookingId) ||
    !isUuid(tenantId) ||
    (session.clientReferenceId !== null && session.clientReferenceId !== bookingId)
  )
    return 'unknown_booking';
  if (session.paymentStatus !== 'paid' || session.amountTotal <= 0) return 'not_paid';
  const booking = await repo.lockBooking(trx, tenantId, bookingId);
  if (!booking) return 'unknown_booking';
  // What the booking owes: the amount of the session Portier opened (the price when it was opened),
  // or its price for a session Portier has no row of. A signed event for any other amount or
  // currency (a 1-cent or a JPY session carrying this booking's metadata) pays nothing.
  const opened = await repo.findCheckoutSession(trx, session.id);
  const owed = opened && opened.booking_id === bookingId ? opened.amount : booking.total_price;
  if (session.amountTotal !== owed || session.currency.toUpperCase() !== booking.currency.toUpperCase()) {
    deps.log.warn(
      {
        bookingId,
        tenantId,
        session: session.id,
        amountTotal: session.amountTotal,
        currency: session.currency,
        owed,
        owedCurrency: booking.currency,
      },
      'a paid checkout session does not match what the booking owes; the booking is not marked paid',
    );
    deps.metrics?.observePaymentDiscrepancy('checkout_amount_mismatch');
    await recordAudit(trx, {
      tenantId,
      actor: { type: 'system', id: null, label: 'Stripe Checkout' },
      action: 'payment.amount_mismatch',
      target: { type: 'booking', id: bookingId },
      details: {
        session: session.id,
        event: eventId,
        amountTotal: session.amountTotal,
        currency: session.currency,
        owed,
        owedCurrency: booking.currency,
      },
      at: deps.now(),
    });
    // The dashboard's notice (paymentIssues): once per session, however often Stripe sends it.
    await flagDiscrepancy(
      trx,
      {
        tenant_id: tenantId,
        booking_id: bookingId,
        kind: 'checkout_amount_mismatch',
        reference: session.id,
        amount: session.amountTotal,
        currency: session.currency.toUpperCase(),
        detail: `the paid session's amount (${session.amountTotal} in ${session.currency.toUpperCase()} cents) is not what the booking owes (${owed} in ${booking.currency} cents)`,
      },
      deps.now(),
    );
    return 'amount_mismatch';
  }
  const entry = await repo.insertLedgerEntry(trx, {
    tenant_id: tenantId,
    booking_id: bookingId,
    kind: 'payment',
    provider: 'stripe',
    amount: session.amountTotal,
    currency: session.currency || booking.currency,
    reason: 'checkout',
    provider_event_id: eventId,
    provider_reference: session.paymentIntent ?? session.id,
    note: null,
    actor_label: 'Stripe Checkout',
    created_at: deps.now(),
  });
  if (!entry) return 'duplicate';
  const paid = await addPayment(trx, deps, booking, session.amountTotal, 'stripe');
  if (paid.status === 'CANCELLED') {
    // The guest paid on a session opened before the booking was cancelled: all of it goes back.
    deps.log.warn(
      { bookingId, tenantId, amount: session.amountTotal, session: session.id },
      'payment arrived for a cancelled booking; refunding it in full',
    );
    await giveBack(
      trx,
      deps,
      paid,
      session.amountTotal,
      'cancelled_before_payment',
      `portier-late-payment-refund-${session.id}`,
    );
    return 'refunded_after_cancellation';
  }
  return 'applied';
}

/** Staff took the money at the venue (GraphQL markBookingPaid); the caller audits it. */
export async function markBookingPaid(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  actorLabel: string,
  command: MarkBookingPaid,
): Promise<BookingRow> {
  const booking = isUuid(command.id) ? await repo.lockBooking(trx, tenantId, command.id) : undefined;
  if (!booking) throw notFound('Booking', command.id);
  if (booking.status === 'CANCELLED') throw conflict('booking_cancelled', 'A cancelled booking cannot be marked paid');
  if (booking.payment_status !== 'UNPAID')
    throw conflict('already_paid', `This booking is already ${booking.payment_status.toLowerCase().replace('_', ' ')}`);
  await repo.insertLedgerEntry(trx, {
    tenant_id: tenantId,
    booking_id: booking.id,
    kind: 'payment',
    provider: 'venue',
    amount: command.amount,
    currency: booking.currency,
    reason: 'venue',
    provider_event_id: null,
    provider_reference: null,
    note: command.note ?? null,
    actor_label: actorLabel,
    created_at: deps.now(),
  });
  return addPayment(trx, deps, booking, command.amount, 'venue');
}

/** A booking's ledger; an unknown booking (or another tenant's) is NOT_FOUND. */
export async function paymentHistory(db: Executor, tenantId: string, bookingId: string) {
  if (!isUuid(bookingId) || !(await repo.bookingExists(db, tenantId, bookingId))) throw notFound('Booking', bookingId);
  return repo.ledgerOf(db, tenantId, bookingId);
}
