import type { Executor } from '../../kernel/db/index.js';
import type { PaymentDiscrepancyRow, RefundIntentRow } from '../../kernel/db/types.js';

// Payment issues' data: flagged differences (payment_discrepancies) and failed refund intents.
// Private to the payments module.

/** At most this many of each kind are listed (the notice is a to-do list, not a report). */
export const ISSUES_LIMIT = 100;

export interface NewDiscrepancy {
  tenant_id: string;
  booking_id: string;
  kind: string;
  reference: string;
  amount: number;
  currency: string;
  detail: string;
}

/**
 * One row per provider object and kind: a repeated run refreshes last_seen_at and the detail, and
 * leaves an acknowledged row acknowledged.
 */
export async function upsertDiscrepancy(db: Executor, row: NewDiscrepancy, at: Date): Promise<void> {
  await db
    .insertInto('payment_discrepancies')
    .values({ ...row, provider: 'stripe', first_seen_at: at, last_seen_at: at })
    .onConflict((oc) =>
      oc.columns(['provider', 'kind', 'reference']).doUpdateSet((eb) => ({
        last_seen_at: eb.ref('excluded.last_seen_at'),
        detail: eb.ref('excluded.detail'),
      })),
    )
    .execute();
}

export async function openDiscrepancies(db: Executor, tenantId: string): Promise<PaymentDiscrepancyRow[]> {
  return db
    .selectFrom('payment_discrepancies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('acknowledged_at', 'is', null)
    .orderBy('first_seen_at')
    .orderBy('id')
    .limit(ISSUES_LIMIT)
    .execute();
}

export async function openFailedRefunds(db: Executor, tenantId: string): Promise<RefundIntentRow[]> {
  return db
    .selectFrom('refund_intents')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'failed')
    .where('acknowledged_at', 'is', null)
    .orderBy('updated_at')
    .orderBy('id')
    .limit(ISSUES_LIMIT)
    .execute();
}

export async function lockFailedRefund(
  db: Executor,
  tenantId: string,
  where: { id: string } | { bookingId: string },
): Promise<RefundIntentRow | undefined> {
  let query = db
    .selectFrom('refund_intents')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'failed');
  query = 'id' in where ? query.where('id', '=', where.id) : query.where('booking_id', '=', where.bookingId);
  return query.orderBy('updated_at', 'desc').limit(1).forUpdate().executeTakeFirst();
}

export async function lockDiscrepancy(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<PaymentDiscrepancyRow | undefined> {
  return db
    .selectFrom('payment_discrepancies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The intent is due again with a fresh budget of attempts and the same idempotency key. */
export async function requeueRefund(db: Executor, id: string, at: Date): Promise<RefundIntentRow> {
  return db
    .updateTable('refund_intents')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      acknowledged_at: null,
      acknowledged_by: null,
      updated_at: at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function acknowledgeRefund(db: Executor, id: string, by: string, at: Date): Promise<RefundIntentRow> {
  return db
    .updateTable('refund_intents')
    .set({ acknowledged_at: at, acknowledged_by: by })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function acknowledgeDiscrepancy(
  db: Executor,
  id: string,
  by: string,
  at: Date,
): Promise<PaymentDiscrepancyRow> {
  return db
    .updateTable('payment_discrepancies')
    .set({ acknowledged_at: at, acknowledged_by: by })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
