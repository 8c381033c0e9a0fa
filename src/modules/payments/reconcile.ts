import type { AppDeps } from '../../kernel/deps.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/index.js';
import { isUuid } from '../../kernel/validation.js';
import { flagDiscrepancy } from './payment-issues.service.js';
import { applyCheckoutSession } from './payments.service.js';
import { recordProviderRefund } from './refund-outbox.js';

// The reconciliation (docs/payments.md, "Reconciliation"): Portier's ledger against the provider's
// for the last N days. What the provider did and Portier did not record is repaired — a refund it
// made (a refund worker killed after the call and before recording, a refund made in the Stripe
// Dashboard with the booking's metadata), a paid Checkout Session whose webhook never came — with
// the same code paths and unique keys as the webhook and the refund worker, so a repair is made
// once. Every other difference is flagged: audit payment.discrepancy, a metric, a warning, and (when
// the booking is known) a row of payment_discrepancies, the dashboard's notice (paymentIssues).

export interface Discrepancy {
  kind: 'refund_not_at_provider' | 'refund_unknown_booking' | 'refund_not_recordable' | 'session_not_applied';
  bookingId: string | null;
  reference: string;
  /** Cents the difference is about, in `currency`. */
  amount: number;
  currency: string;
  detail: string;
}

export interface ReconcileReport {
  since: string;
  checkedRefunds: number;
  checkedSessions: number;
  repaired: { kind: 'refund_recorded' | 'payment_recorded'; bookingId: string; reference: string }[];
  discrepancies: Discrepancy[];
}

export async function reconcilePayments(deps: AppDeps, days: number): Promise<ReconcileReport> {
  const provider = deps.paymentProvider;
  const now = deps.now();
  const since = new Date(now.getTime() - days * 86_400_000);
  const report: ReconcileReport = {
    since: since.toISOString(),
    checkedRefunds: 0,
    checkedSessions: 0,
    repaired: [],
    discrepancies: [],
  };
  if (!provider) return report;
  const db = deps.database.db;
  const flag = async (tenantId: string | null, d: Discrepancy) => {
    report.discrepancies.push(d);
    deps.metrics?.observePaymentDiscrepancy(d.kind);
    deps.log.warn({ ...d, tenantId }, 'payment reconciliation: Portier and the provider differ');
    if (tenantId && d.bookingId) {
      const bookingId = d.bookingId;
      await db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          tenantId,
          actor: SYSTEM_ACTOR,
          action: 'payment.discrepancy',
          target: { type: 'booking', id: bookingId },
          details: { kind: d.kind, reference: d.reference, detail: d.detail },
          at: now,
        });
        await flagDiscrepancy(
          trx,
          {
            tenant_id: tenantId,
            booking_id: bookingId,
            kind: d.kind,
            reference: d.reference,
            amount: d.amount,
            currency: d.currency,
            detail: d.detail,
          },
          now,
        );
      });
    }
  };

  // Refunds: the provider's against the ledger's.
  const refunds = await provider.listRefunds(since);
  report.checkedRefunds = refunds.length;
  const ledger = await db
    .selectFrom('payments')
    .select(['tenant_id', 'booking_id', 'provider_reference', 'amount', 'currency'])
    .where('provider', '=', 'stripe')
    .where('kind', '=', 'refund')
    .where('created_at', '>=', since)
    .execute();
  const recorded = new Set(ledger.map((r) => r.provider_reference));
  const atProvider = new Set(refunds.map((r) => r.id));
  for (const refund of refunds) {
    if (recorded.has(refund.id) || refund.status === 'failed' || refund.status === 'canceled') continue;
    const known = await db
      .selectFrom('payments')
      .select('id')
      .where('provider', '=', 'stripe')
      .where('kind', '=', 'refund')
      .where('provider_reference', '=', refund.id)
      .executeTakeFirst();
    if (known) continue;
    const bookingId = refund.metadata?.bookingId ?? '';
    const booking = isUuid(bookingId)
      ? await db
          .selectFrom('bookings')
          .select(['tenant_id', 'currency', 'amount_paid', 'amount_refunded'])
          .where('id', '=', bookingId)
          .executeTakeFirst()
      : undefined;
    if (!booking) {
      await flag(null, {
        kind: 'refund_unknown_booking',
        bookingId: null,
        reference: refund.id,
        amount: refund.amount,
        currency: (refund.currency ?? '').toUpperCase(),
        detail: `a refund of ${refund.amount} at the provider names no booking Portier knows`,
      });
      continue;
    }
    const room = booking.amount_paid - booking.amount_refunded;
    const currency = (refund.currency ?? booking.currency).toUpperCase();
    if (refund.amount > room || currency !== booking.currency.toUpperCase()) {
      await flag(booking.tenant_id, {
        kind: 'refund_not_recordable',
        bookingId,
        reference: refund.id,
        amount: refund.amount,
        currency,
        detail: `a refund of ${refund.amount} ${currency} at the provider; Portier holds ${room} ${booking.currency}`,
      });
      continue;
    }
    const done = await db.transaction().execute(async (trx) => {
      const intent = await trx
        .selectFrom('refund_intents')
        .select(['id', 'reason'])
        .where('booking_id', '=', bookingId)
        .where('status', '=', 'pending')
        .where('amount', '=', refund.amount)
        .forUpdate()
        .executeTakeFirst();
      const made = await recordProviderRefund(
        trx,
        deps,
        {
          tenantId: booking.tenant_id,
          bookingId,
          amount: refund.amount,
          currency: booking.currency,
          reason: intent?.reason ?? 'reconciliation',
        },
        refund.id,
      );
      // The intent this refund answers needs no more calls.
      if (made && intent)
        await trx
          .updateTable('refund_intents')
          .set({ status: 'succeeded', provider_refund_id: refund.id, updated_at: now })
          .where('id', '=', intent.id)
          .execute();
      if (made)
        await recordAudit(trx, {
          tenantId: booking.tenant_id,
          actor: SYSTEM_ACTOR,
          action: 'payment.repaired',
          target: { type: 'booking', id: bookingId },
          details: { kind: 'refund_recorded', reference: refund.id, amount: refund.amount },
          at: now,
        });
      return made;
    });
    if (done) {
      report.repaired.push({ kind: 'refund_recorded', bookingId, reference: refund.id });
      deps.metrics?.observeRefund('repaired');
    }
  }
  for (const row of ledger) {
    if (row.provider_reference && !atProvider.has(row.provider_reference))
      await flag(row.tenant_id, {
        kind: 'refund_not_at_provider',
        bookingId: row.booking_id,
        reference: row.provider_reference,
        amount: row.amount,
        currency: row.currency,
        detail: `Portier recorded a refund of ${row.amount} that the provider does not list`,
      });
  }

  // Paid Checkout Sessions Portier has not applied.
  const sessions = await provider.listCheckoutSessions(since);
  report.checkedSessions = sessions.length;
  for (const session of sessions) {
    if (session.status !== 'complete' || session.paymentStatus !== 'paid') continue;
    const reference = session.paymentIntent ?? session.id;
    const known = await db
      .selectFrom('payments')
      .select('id')
      .where('provider', '=', 'stripe')
      .where('kind', '=', 'payment')
      .where('provider_reference', '=', reference)
      .executeTakeFirst();
    if (known) continue;
    const outcome = await db.transaction().execute((trx) => applyCheckoutSession(trx, deps, session, null));
    const bookingId = session.metadata.bookingId ?? null;
    if (outcome === 'applied' || outcome === 'refunded_after_cancellation') {
      report.repaired.push({ kind: 'payment_recorded', bookingId: bookingId ?? '', reference });
      deps.metrics?.observeRefund('repaired');
    } else if (outcome !== 'duplicate') {
      // Audited and kept for the notice only when the session names a booking Portier knows (its
      // tenant); an amount mismatch was flagged so by applyCheckoutSession already.
      const known =
        outcome !== 'amount_mismatch' && bookingId && isUuid(bookingId)
          ? await db.selectFrom('bookings').select('tenant_id').where('id', '=', bookingId).executeTakeFirst()
          : undefined;
      await flag(known?.tenant_id ?? null, {
        kind: 'session_not_applied',
        bookingId,
        reference: session.id,
        amount: session.amountTotal,
        currency: session.currency.toUpperCase(),
        detail: `a paid session of ${session.amountTotal} ${session.currency} could not be applied: ${outcome}`,
      });
    }
  }
  return report;
}
