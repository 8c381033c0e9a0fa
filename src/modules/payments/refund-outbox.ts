import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { PLANNED_EACH_TIME } from '../../kernel/db/prepared.js';
import { PollLoop } from '../../kernel/poll-loop.js';
import type { RefundIntentRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/index.js';
import * as repo from './payments.repository.js';
import { REFUND_DEADLINE_MS } from './stripe-provider.js';
import { applyRefund } from './payments.service.js';

// The refund outbox (docs/payments.md, "Refunds"). A cancellation (or a payment that arrived for a
// cancelled booking) commits a refund intent with its state; this worker gives the money back later,
// calling the provider outside any transaction, so a slow provider holds no database connection and
// no booking lock. Claims take intents with FOR UPDATE SKIP LOCKED and move next_attempt_at past
// the call's deadline (the lease): two processes never call for the same intent at once, and an
// intent whose worker died mid-call is claimed again when the lease ends and retried with the same
// idempotency key, so the provider makes one refund.

/** Attempts before an intent is marked failed (flagged to staff: paymentIssues, audit refund.failed). */
export const MAX_REFUND_ATTEMPTS = 6;
/** A claim's lease: the SDK's deadline for its three tries and a margin to record the outcome. */
export const refundLeaseMs = (deadlineMs = REFUND_DEADLINE_MS) => 3 * deadlineMs + 10_000;

/** 30 s, 1, 2, 4, 8 minutes …, at most an hour. */
export const nextRefundAttempt = (attempts: number, at: Date) =>
  new Date(at.getTime() + Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1)));

async function claimDue(trx: Executor, now: Date, leaseUntil: Date, limit: number): Promise<RefundIntentRow[]> {
  const rows = await sql<RefundIntentRow>`
    UPDATE refund_intents r SET next_attempt_at = ${leaseUntil}, attempts = r.attempts + 1, updated_at = ${now}
    WHERE r.id IN (
      SELECT id FROM refund_intents
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING r.*
    ${sql.raw(PLANNED_EACH_TIME)}`.execute(trx);
  return rows.rows;
}

/** A refusal the provider will repeat (4xx other than 409/429): no point retrying it. */
function permanent(error: unknown): boolean {
  const status = (error as { statusCode?: number }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 409 && status !== 429;
}

export type RefundOutcome = 'succeeded' | 'retry' | 'failed' | 'lost_lease';

/**
 * Records a refund the provider made, once: the ledger row (unique provider refund id), the booking's
 * amount_refunded and booking.refunded, exactly as a synchronous refund did. Also used by the
 * reconciliation for a refund the provider made that Portier has no row of.
 */
export async function recordProviderRefund(
  trx: Executor,
  deps: AppDeps,
  target: { tenantId: string; bookingId: string; amount: number; currency: string; reason: string },
  refundId: string,
): Promise<boolean> {
  const booking = await repo.lockBooking(trx, target.tenantId, target.bookingId);
  if (!booking) return false;
  const recorded = await applyRefund(trx, deps, booking, {
    amount: target.amount,
    currency: target.currency,
    reason: target.reason,
    provider: 'stripe',
    reference: refundId,
    note: null,
  });
  return recorded !== undefined;
}

async function attempt(deps: AppDeps, intent: RefundIntentRow, leaseUntil: Date): Promise<RefundOutcome> {
  const db = deps.database.db;
  let refundId: string | null = null;
  let error: unknown = null;
  // No transaction and no connection is held while the provider answers.
  try {
    const provider = await deps.providers.payment(intent.tenant_id);
    if (!provider)
      throw new Error('the payment provider is not configured (STRIPE_SECRET_KEY, or the venue’s own Stripe keys)');
    const refund = await provider.refund({
      paymentIntent: intent.payment_reference,
      amount: intent.amount,
      bookingId: intent.booking_id,
      idempotencyKey: intent.idempotency_key,
    });
    refundId = refund.id;
  } catch (e) {
    error = e;
  }
  const at = deps.now();
  return db.transaction().execute(async (trx): Promise<RefundOutcome> => {
    // Still this worker's claim? A worker whose lease ran out leaves the outcome to the one that took over.
    const mine = await trx
      .selectFrom('refund_intents')
      .selectAll()
      .where('id', '=', intent.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', leaseUntil)
      .forUpdate()
      .executeTakeFirst();
    if (!mine) return 'lost_lease';
    if (refundId !== null) {
      await recordProviderRefund(
        trx,
        deps,
        {
          tenantId: intent.tenant_id,
          bookingId: intent.booking_id,
          amount: intent.amount,
          currency: intent.currency,
          reason: intent.reason,
        },
        refundId,
      );
      await trx
        .updateTable('refund_intents')
        .set({ status: 'succeeded', provider_refund_id: refundId, last_error: null, updated_at: at })
        .where('id', '=', intent.id)
        .execute();
      deps.metrics?.observeRefund('success');
      return 'succeeded';
    }
    const message = (error as Error | null)?.message || 'refund failed';
    const final = permanent(error) || intent.attempts >= MAX_REFUND_ATTEMPTS;
    await trx
      .updateTable('refund_intents')
      .set({
        status: final ? 'failed' : 'pending',
        last_error: message.slice(0, 1000),
        next_attempt_at: final ? at : nextRefundAttempt(intent.attempts, at),
        updated_at: at,
      })
      .where('id', '=', intent.id)
      .execute();
    deps.log[final ? 'error' : 'warn'](
      { err: error, bookingId: intent.booking_id, refundIntent: intent.id, attempts: intent.attempts, final },
      final ? 'a refund was given up: staff must give the money back' : 'a refund failed; it is tried again later',
    );
    if (final) {
      await recordAudit(trx, {
        tenantId: intent.tenant_id,
        actor: SYSTEM_ACTOR,
        action: 'refund.failed',
        target: { type: 'booking', id: intent.booking_id },
        details: { refundIntent: intent.id, amount: intent.amount, currency: intent.currency, error: message },
        at,
      });
    }
    deps.metrics?.observeRefund(final ? 'given_up' : 'failure');
    return final ? 'failed' : 'retry';
  });
}

export interface RefundWorkerOptions {
  /** Refunds in flight at once in this process. */
  concurrency?: number;
  pollIntervalMs?: number;
}

/** Claims due refund intents and gives them back; runs beside the webhook dispatcher (API process and worker). */
export class RefundWorker {
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly loop: PollLoop;

  constructor(
    private readonly deps: AppDeps,
    options: RefundWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 32;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.loop = new PollLoop({
      // A pass claims and starts what is due; the refunds run on while the next pass waits.
      pass: () => this.startDue().then((started) => void Promise.allSettled(started)),
      intervalMs: this.pollIntervalMs,
      onError: (error) => this.deps.log.error({ err: error }, 'refund worker pass failed'),
    });
  }

  private async startDue(): Promise<Promise<RefundOutcome | null>[]> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    const now = this.deps.now();
    const leaseUntil = new Date(now.getTime() + refundLeaseMs(this.deps.paymentProvider?.refundTimeoutMs));
    const rows = await this.deps.database.db.transaction().execute((trx) => claimDue(trx, now, leaseUntil, free));
    return rows.map((row) => {
      const run = attempt(this.deps, row, leaseUntil).catch((error: unknown) => {
        // The intent stays claimed until its lease ends, then it is tried again with the same key.
        this.deps.log.error({ err: error, refundIntent: row.id }, 'recording a refund attempt failed');
        return null;
      });
      const tracked = run.finally(() => this.inFlight.delete(tracked));
      this.inFlight.add(tracked);
      return run;
    });
  }

  /** One pass: attempt what is due and wait for those attempts (tests, the CLI). */
  async runOnce(): Promise<RefundOutcome[]> {
    return (await Promise.all(await this.startDue())).filter((o) => o !== null);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the refunds in flight, so their outcomes are recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }
}
