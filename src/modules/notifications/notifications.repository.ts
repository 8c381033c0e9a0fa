import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { PLANNED_EACH_TIME } from '../../kernel/db/prepared.js';
import type {
  NotificationChannel,
  NotificationData,
  NotificationKind,
  NotificationRow,
  NotificationSettingsRow,
} from '../../kernel/db/types.js';

// The notification outbox and the tenant's settings. Times come from the caller's clock, never the
// database's, so tests run the schedule on an injected clock.

export async function findSettings(db: Executor, tenantId: string): Promise<NotificationSettingsRow | undefined> {
  return db.selectFrom('notification_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

export interface SettingsValues {
  email_enabled: boolean;
  sms_enabled: boolean;
  sender_name: string | null;
  reply_to: string | null;
  reminder_hours_before: number | null;
}

export async function saveSettings(
  db: Executor,
  tenantId: string,
  values: SettingsValues,
  now: Date,
): Promise<NotificationSettingsRow> {
  return db
    .insertInto('notification_settings')
    .values({ tenant_id: tenantId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface NewNotification {
  tenantId: string;
  bookingId: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  sequence: number;
  recipient: string;
  data: NotificationData;
  dueAt: Date;
  createdAt: Date;
}

/** Queues notifications; a change already queued (same booking, channel, kind and sequence) is not queued twice. */
export async function insertNotifications(db: Executor, rows: NewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notifications')
    .values(
      rows.map((r) => ({
        tenant_id: r.tenantId,
        booking_id: r.bookingId,
        channel: r.channel,
        kind: r.kind,
        sequence: r.sequence,
        recipient: r.recipient,
        data: JSON.stringify(r.data),
        next_attempt_at: r.dueAt,
        created_at: r.createdAt,
      })),
    )
    .onConflict((oc) => oc.columns(['tenant_id', 'booking_id', 'channel', 'kind', 'sequence']).doNothing())
    .execute();
}

/** Ends a booking's messages of `kind` not sent yet: reminders when it moved or was cancelled, a "pay here" once it is confirmed or cancelled. */
export async function cancelPending(
  db: Executor,
  tenantId: string,
  bookingId: string,
  kind: 'reminder' | 'payment_due',
  now: Date,
): Promise<void> {
  await db
    .updateTable('notifications')
    .set({
      status: 'cancelled',
      next_attempt_at: null,
      last_error: 'superseded by a later change of the booking',
      sent_at: null,
    })
    .where('tenant_id', '=', tenantId)
    .where('booking_id', '=', bookingId)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('created_at', '<=', now)
    .execute();
}

/**
 * Claims up to `limit` due notifications: their next_attempt_at moves to `leaseUntil`, so if the
 * claimer dies mid-send they become due again then (and are sent again, with the same Message-ID).
 * Concurrent senders skip each other's rows (SKIP LOCKED). Planned each time, like the webhook
 * claim: the queue goes from empty to a burst of guest mail in seconds.
 */
export async function claimDue(trx: Executor, now: Date, leaseUntil: Date, limit: number): Promise<NotificationRow[]> {
  if (limit <= 0) return [];
  const rows = await sql<NotificationRow>`
    UPDATE notifications n SET next_attempt_at = ${leaseUntil}
    WHERE n.id IN (
      SELECT id FROM notifications
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING n.*
    ${sql.raw(PLANNED_EACH_TIME)}`.execute(trx);
  return rows.rows;
}

export interface Outcome {
  status: 'pending' | 'sent' | 'failed';
  error: string | null;
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * Records, before the message leaves, that it is being sent: committed on its own, so if nothing
 * after it is recorded the row stays 'sending' and no sender takes it again (claimDue takes only
 * 'pending'); sweepUnknownSends makes it 'unknown' when the lease ends. Only while the claim is
 * still this sender's. The lease stays in next_attempt_at: it is when the sweep may give up on it.
 */
export async function markSending(db: Executor, row: NotificationRow, leaseUntil: Date): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ status: 'sending', attempts: row.attempts + 1 })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', leaseUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an attempt, only while the claim is still this sender's (next_attempt_at is its lease):
 * a sender whose lease ran out does not overwrite the outcome of the one that took over, nor the
 * sweep's 'unknown'. `from` is 'sending' once the message went to the peer (markSending), 'pending'
 * when it failed before (composing it, reading the guest's key).
 */
export async function settle(
  db: Executor,
  row: NotificationRow,
  leaseUntil: Date,
  from: 'pending' | 'sending',
  outcome: Outcome,
): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({
      status: outcome.status,
      attempts: row.attempts + 1,
      next_attempt_at: outcome.nextAttemptAt,
      last_error: outcome.error,
      sent_at: outcome.status === 'sent' ? outcome.at : null,
    })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('status', '=', from)
    .where('next_attempt_at', '=', leaseUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const UNKNOWN_OUTCOME_ERROR =
  'the send started but its outcome was never recorded: the guest may or may not have received it (check with the guest; resendNotification sends it again)';

/**
 * Sends whose lease ended while still 'sending' (the outcome's write failed, or the process died
 * mid-send) become 'unknown': never sent again on their own, shown to staff, resendable by hand.
 * Returns how many.
 */
export async function sweepUnknownSends(db: Executor, now: Date): Promise<{ channel: NotificationRow['channel'] }[]> {
  return db
    .updateTable('notifications')
    .set({ status: 'unknown', next_attempt_at: null, last_error: UNKNOWN_OUTCOME_ERROR, sent_at: null })
    .where('status', '=', 'sending')
    .where('next_attempt_at', '<=', now)
    .returning('channel')
    .execute();
}

/** The notifications of bookings the caller already read under its tenant, oldest first (email before SMS). */
export async function notificationsOfBookings(db: Executor, bookingIds: readonly string[]): Promise<NotificationRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('booking_id', 'in', [...bookingIds])
    .orderBy('created_at')
    .orderBy('channel')
    .orderBy('id')
    .execute();
}

export async function findNotificationForUpdate(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<NotificationRow | undefined> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Queues a notification again, due at once, with a fresh retry schedule and a new Message-ID. */
export async function requeue(db: Executor, tenantId: string, id: string, now: Date): Promise<NotificationRow> {
  return db
    .updateTable('notifications')
    .set((eb) => ({
      status: 'pending',
      attempts: 0,
      resends: eb('resends', '+', 1),
      next_attempt_at: now,
      last_error: null,
      sent_at: null,
    }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** FOR NO KEY UPDATE: waits for the tenant's other test mail, not for its bookings' inserts (KEY SHARE). */
export async function lockTenant(trx: Executor, tenantId: string): Promise<void> {
  await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).forNoKeyUpdate().executeTakeFirst();
}
