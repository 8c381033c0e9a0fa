import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { ERASED_EMAIL, ERASED_GUEST_NAME, ERASED_MARK } from './customers.rules.js';

// Erasing a customer's personal data where Portier stores copies of it (docs/customers.md,
// "Erase a customer"): the bookings' guest fields, and the texts that quote them — the events
// (and so the events feed), the webhook attempts' request and response bodies, the notifications'
// recipients and data, the audit entries' details and guest-actor labels, the payments' notes and
// the payment issues' details. Idempotency keys' cached answers that quote them are deleted.

/** `column` (as text) with every one of `texts` replaced by ERASED_MARK. */
function scrubbed(column: RawBuilder<unknown>, texts: readonly string[]): RawBuilder<string> {
  let value: RawBuilder<string> = sql<string>`(${column})::text`;
  for (const text of texts) value = sql<string>`replace(${value}, ${text}, ${ERASED_MARK})`;
  return value;
}

/** A text column's scrubbed value, and the condition that it changes. */
function scrubText(column: string, texts: readonly string[]) {
  const ref = sql.ref(column);
  const value = scrubbed(ref, texts);
  return { value, changes: sql<boolean>`${ref} IS NOT NULL AND ${value} <> ${ref}` };
}

/** Anonymises the guest fields of the customer's bookings and raises their link version (old /b/ links stop working). */
export async function anonymiseBookings(
  db: Executor,
  tenantId: string,
  customerId: string,
  at: Date,
): Promise<string[]> {
  const rows = await db
    .updateTable('bookings')
    .set({
      guest_name: ERASED_GUEST_NAME,
      guest_email: ERASED_EMAIL,
      guest_phone: null,
      guest_link_version: sql`guest_link_version + 1`,
      updated_at: at,
    })
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export interface ErasureScope {
  tenantId: string;
  bookingIds: readonly string[];
  /** The customer and those merged into it. */
  customerIds: readonly string[];
  texts: readonly string[];
}

/** What was scrubbed, per table (counts only: no value). */
export type ScrubCounts = Record<string, number>;

export async function scrubCopies(db: Executor, scope: ErasureScope): Promise<ScrubCounts> {
  const { tenantId, bookingIds, customerIds, texts } = scope;
  const counts: ScrubCounts = {};
  if (texts.length === 0) return counts;
  const bookings = sql.val(bookingIds.length ? bookingIds : ['00000000-0000-0000-0000-000000000000']);
  const customers = sql.val(customerIds);

  // Events: the booking's and the customer's own; data->'booking'->>'id' / data->'customer'->>'id'.
  const eventData = scrubbed(sql.ref('data'), texts);
  const events = await sql<{ id: string }>`
    UPDATE events SET data = ${eventData}::jsonb
     WHERE tenant_id = ${tenantId}
       AND (data->'booking'->>'id' = ANY(${bookings}::text[]) OR data->'customer'->>'id' = ANY(${customers}::text[]))
       AND ${eventData} <> data::text
    RETURNING id`.execute(db);
  counts.events = events.rows.length;

  // The webhook attempts of every delivery of those events (what was sent, what came back).
  const request = scrubText('request_body', texts);
  const response = scrubText('response_body', texts);
  const attempts = await sql`
    UPDATE webhook_attempts SET request_body = ${request.value}, response_body = ${response.value}
     WHERE tenant_id = ${tenantId}
       AND delivery_id IN (
         SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.tenant_id = ${tenantId}
            AND (e.data->'booking'->>'id' = ANY(${bookings}::text[]) OR e.data->'customer'->>'id' = ANY(${customers}::text[])))
       AND (${request.changes} OR ${response.changes})`.execute(db);
  counts.webhookAttempts = Number(attempts.numAffectedRows ?? 0);

  const notificationData = scrubbed(sql.ref('data'), texts);
  const notifications = await sql`
    UPDATE notifications SET recipient = ${ERASED_MARK}, data = ${notificationData}::jsonb
     WHERE tenant_id = ${tenantId} AND booking_id = ANY(${bookings}::uuid[])`.execute(db);
  counts.notifications = Number(notifications.numAffectedRows ?? 0);

  const details = scrubbed(sql.ref('details'), texts);
  const label = scrubText('actor_label', texts);
  const audit = await sql`
    UPDATE audit_log SET details = ${details}::jsonb, actor_label = ${label.value}
     WHERE tenant_id = ${tenantId}
       AND (target_id = ANY(${sql.val([...bookingIds, ...customerIds])}::text[])
            OR (actor_type = 'guest' AND actor_id = ANY(${bookings}::text[])))
       AND (${details} <> details::text OR ${label.changes})`.execute(db);
  counts.auditEntries = Number(audit.numAffectedRows ?? 0);

  const note = scrubText('note', texts);
  const payments = await sql`
    UPDATE payments SET note = ${note.value}
     WHERE tenant_id = ${tenantId} AND booking_id = ANY(${bookings}::uuid[]) AND ${note.changes}`.execute(db);
  counts.payments = Number(payments.numAffectedRows ?? 0);

  const detail = scrubText('detail', texts);
  const issues = await sql`
    UPDATE payment_discrepancies SET detail = ${detail.value}
     WHERE tenant_id = ${tenantId} AND booking_id = ANY(${bookings}::uuid[]) AND ${detail.changes}`.execute(db);
  counts.paymentIssues = Number(issues.numAffectedRows ?? 0);

  // A replayed answer must not bring the erased values back: the cached answers quoting them go.
  const quoting = sql.join(
    texts.map((t) => sql`strpos(body, ${t}) > 0`),
    sql` OR `,
  );
  const idempotency = await sql`
    DELETE FROM idempotency_keys WHERE tenant_id = ${tenantId} AND body IS NOT NULL AND (${quoting})`.execute(db);
  counts.idempotencyKeys = Number(idempotency.numAffectedRows ?? 0);
  return counts;
}

/** The tables an erasure rewrites: VACUUM (FULL) rewrites them so no dead copy of a row stays on disk. */
export const ERASED_TABLES = [
  'customers',
  'bookings',
  'events',
  'webhook_attempts',
  'notifications',
  'audit_log',
  'payments',
  'payment_discrepancies',
  'idempotency_keys',
] as const;
