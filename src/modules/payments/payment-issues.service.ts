import type { Executor } from '../../kernel/db/index.js';
import type { PaymentDiscrepancyRow, RefundIntentRow } from '../../kernel/db/types.js';
import { conflict, invalidField, notFound } from '../../kernel/errors.js';
import {
  ISO_INSTANT,
  UUID_PART,
  cursorPageRows,
  decodeListCursor,
  encodeListCursor,
  type CursorPage,
} from '../../kernel/paging.js';
import * as repo from './payment-issues.repository.js';
import { bookingExists } from './payments.repository.js';

// Payment issues (docs/payments.md, "Payment issues"): what Portier could not settle by itself and
// flags to staff — a refund intent that failed for good, and a difference with the provider the
// reconciliation or the webhook's amount check found. Open until acknowledged (the money settled by
// hand) or, for a failed refund, retried.

/** What the GraphQL PaymentIssue shows. */
export interface PaymentIssue {
  id: string;
  kind: string;
  bookingId: string;
  amount: number;
  currency: string;
  detail: string;
  reference: string | null;
  since: Date;
  retryable: boolean;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
}

export const issueOfRefund = (row: RefundIntentRow): PaymentIssue => ({
  id: row.id,
  kind: 'refund_failed',
  bookingId: row.booking_id,
  amount: row.amount,
  currency: row.currency,
  detail: row.last_error ?? 'the refund failed',
  reference: row.payment_reference,
  since: row.updated_at,
  retryable: row.status === 'failed' && row.acknowledged_at === null,
  acknowledgedAt: row.acknowledged_at,
  acknowledgedBy: row.acknowledged_by,
});

export const issueOfDiscrepancy = (row: PaymentDiscrepancyRow): PaymentIssue => ({
  id: row.id,
  kind: row.kind,
  bookingId: row.booking_id,
  amount: row.amount,
  currency: row.currency,
  detail: row.detail,
  reference: row.reference,
  since: row.first_seen_at,
  retryable: false,
  acknowledgedAt: row.acknowledged_at,
  acknowledgedBy: row.acknowledged_by,
});

/** A difference with the provider, kept (once per provider object and kind) for the notice. */
export async function flagDiscrepancy(db: Executor, discrepancy: repo.NewDiscrepancy, at: Date): Promise<void> {
  await repo.upsertDiscrepancy(db, discrepancy, at);
}

/** The tenant's open issues, oldest first, at most ISSUES_LIMIT. */
export async function openPaymentIssues(db: Executor, tenantId: string): Promise<PaymentIssue[]> {
  const [refunds, differences] = await Promise.all([
    repo.openFailedRefunds(db, tenantId),
    repo.openDiscrepancies(db, tenantId),
  ]);
  return [...refunds.map(issueOfRefund), ...differences.map(issueOfDiscrepancy)]
    .sort(byIssueOrder)
    .slice(0, repo.ISSUES_LIMIT);
}

/** The list's order: oldest first, then id. */
const byIssueOrder = (a: { since: Date; id: string }, b: { since: Date; id: string }) =>
  a.since.getTime() - b.since.getTime() || a.id.localeCompare(b.id);

/** A payment issue's cursor: its place in the list's order (since, to the millisecond as listed, then id). */
export const PAYMENT_ISSUE_CURSOR = {
  of: (issue: { since: Date; id: string }) => encodeListCursor('payment-issue', [issue.since.toISOString(), issue.id]),
  keyOf: (cursor: string) => {
    const [since = '', id = ''] = decodeListCursor('payment-issue', cursor, [ISO_INSTANT, UUID_PART]);
    const at = new Date(since);
    if (Number.isNaN(at.getTime())) throw invalidField('after', 'is not a cursor this list returned');
    return { since: at, id };
  },
};

/**
 * A cursor page of the open issues (REST cursor paging). The list is at most ISSUES_LIMIT of each
 * kind and merged here, so the page is cut here too, in the same comparison that orders it.
 */
export async function paymentIssuePage(
  db: Executor,
  tenantId: string,
  cursor: CursorPage<{ since: Date; id: string }>,
): Promise<{ items: PaymentIssue[]; next: string | null }> {
  const after = cursor.after;
  const open = await openPaymentIssues(db, tenantId);
  const rest = after ? open.filter((issue) => byIssueOrder(issue, after) > 0) : open;
  return cursorPageRows(rest.slice(0, cursor.limit + 1), cursor.limit, PAYMENT_ISSUE_CURSOR.of);
}

/**
 * Puts the booking's failed refund back in the outbox: due now, a fresh budget of attempts, the same
 * idempotency key (a refund the provider made on an earlier attempt is answered, not made again).
 */
export async function retryFailedRefund(
  trx: Executor,
  tenantId: string,
  bookingId: string,
  at: Date,
): Promise<RefundIntentRow> {
  if (!(await bookingExists(trx, tenantId, bookingId))) throw notFound('Booking', bookingId);
  const failed = await repo.lockFailedRefund(trx, tenantId, { bookingId });
  if (!failed) throw conflict('no_failed_refund', 'This booking has no failed refund to retry');
  return repo.requeueRefund(trx, failed.id, at);
}

/**
 * Marks an issue settled. Acknowledging it again changes nothing (`changed` false) and keeps the
 * first acknowledgement; an id that is no issue of the tenant is NOT_FOUND.
 */
export async function acknowledgeIssue(
  trx: Executor,
  tenantId: string,
  id: string,
  by: string,
  at: Date,
): Promise<{ issue: PaymentIssue; changed: boolean }> {
  const refund = await repo.lockFailedRefund(trx, tenantId, { id });
  if (refund) {
    if (refund.acknowledged_at) return { issue: issueOfRefund(refund), changed: false };
    return { issue: issueOfRefund(await repo.acknowledgeRefund(trx, refund.id, by, at)), changed: true };
  }
  const difference = await repo.lockDiscrepancy(trx, tenantId, id);
  if (!difference) throw notFound('PaymentIssue', id);
  if (difference.acknowledged_at) return { issue: issueOfDiscrepancy(difference), changed: false };
  return { issue: issueOfDiscrepancy(await repo.acknowledgeDiscrepancy(trx, difference.id, by, at)), changed: true };
}
