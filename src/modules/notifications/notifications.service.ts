import type { Executor } from '../../kernel/db/index.js';
import type {
  AccommodationRow,
  BookingRow,
  NotificationChannel,
  NotificationData,
  NotificationKind,
  NotificationRow,
  NotificationSettingsRow,
} from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import * as repo from './notifications.repository.js';
import { reminderDueAt } from './notification.rules.js';
import { e164 } from '../../kernel/phone.js';
import type { UpdateNotificationSettings } from './notifications.commands.js';

// Guest notifications: the tenant's settings, queueing a booking change's mails and text messages
// in the change's transaction, the per-booking log and resending.

export interface NotificationSettings {
  emailEnabled: boolean;
  smsEnabled: boolean;
  senderName: string | null;
  replyTo: string | null;
  reminderHoursBefore: number | null;
  /** Whether the tenant's mail can go out: the installation's SMTP_URL, or the venue's own SMTP credentials. */
  emailAvailable: boolean;
  /** Whether the tenant's SMS can go out: the installation's SMS_ACCOUNT_SID, or the venue's own SMS credentials. */
  smsAvailable: boolean;
}

const DEFAULT_SETTINGS: repo.SettingsValues = {
  email_enabled: true,
  sms_enabled: true,
  sender_name: null,
  reply_to: null,
  reminder_hours_before: null,
};

/**
 * The settings as the API shows them. What can be sent is what the sender will use: the
 * environment's provider, else the tenant's stored credentials (deps.providers.configured, read
 * through `db`, the caller's transaction when one is open).
 */
async function settingsView(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  row: repo.SettingsValues | NotificationSettingsRow,
): Promise<NotificationSettings> {
  const [emailAvailable, smsAvailable] = [
    await deps.providers.configured(db, tenantId, 'smtp'),
    await deps.providers.configured(db, tenantId, 'sms'),
  ];
  return {
    emailEnabled: row.email_enabled,
    smsEnabled: row.sms_enabled,
    senderName: row.sender_name,
    replyTo: row.reply_to,
    reminderHoursBefore: row.reminder_hours_before,
    emailAvailable,
    smsAvailable,
  };
}

async function settingsRow(db: Executor, tenantId: string): Promise<repo.SettingsValues> {
  return (await repo.findSettings(db, tenantId)) ?? DEFAULT_SETTINGS;
}

export async function getNotificationSettings(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
): Promise<NotificationSettings> {
  return settingsView(db, deps, tenantId, await settingsRow(db, tenantId));
}

/** Changes the fields the command carries; the others keep their values. */
export async function updateNotificationSettings(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: UpdateNotificationSettings,
): Promise<NotificationSettings> {
  const current = await settingsRow(trx, tenantId);
  const next: repo.SettingsValues = {
    email_enabled: command.emailEnabled ?? current.email_enabled,
    sms_enabled: command.smsEnabled ?? current.sms_enabled,
    sender_name: command.senderName === undefined ? current.sender_name : (command.senderName?.trim() ?? null),
    reply_to: command.replyTo === undefined ? current.reply_to : command.replyTo,
    reminder_hours_before:
      command.reminderHoursBefore === undefined ? current.reminder_hours_before : command.reminderHoursBefore,
  };
  return settingsView(trx, deps, tenantId, await repo.saveSettings(trx, tenantId, next, deps.now()));
}

/**
 * The booking change a notification tells about: a confirmation, a move, a cancellation, a new
 * booking that waits for its online payment (payment_due), a payment received (receipt).
 */
export type BookingChange = 'confirmed' | 'rescheduled' | 'cancelled' | 'payment_due' | 'receipt';

/** The changes a text message is sent for too (one link each; docs/notifications.md). */
const SMS_CHANGES: ReadonlySet<BookingChange> = new Set(['confirmed', 'rescheduled', 'payment_due']);

export interface BookingChangeInput {
  change: BookingChange;
  booking: BookingRow;
  objectName: string;
  accommodation: Pick<AccommodationRow, 'name' | 'address' | 'time_zone'>;
  /** The booking's event sequence of this change: the iCalendar SEQUENCE, and what makes it queued once. */
  sequence: number;
  /** A receipt's payment: the cents received. */
  payment?: { amount: number };
}

/**
 * Queues the guest's notifications of a booking change. Call it in the change's transaction: the
 * rows exist exactly when the change does. Email when the installation has SMTP, the tenant has
 * email on and the guest an address; SMS on confirmation, reschedule and payment due when the
 * installation has an SMS provider, the tenant has SMS on and the guest an E.164 number. A
 * confirmation or cancellation drops a "pay here" message not sent yet. A reminder is (re)scheduled
 * when the tenant asked for one; a cancellation or reschedule ends the reminder not yet sent.
 */
export async function queueBookingNotifications(
  trx: Executor,
  deps: AppDeps,
  input: BookingChangeInput,
): Promise<void> {
  const { booking, change, sequence } = input;
  const tenantId = booking.tenant_id;
  // The environment's SMTP / SMS, else the venue's own set in the dashboard (read in this transaction).
  const stored = deps.env.mail && deps.env.sms ? null : await deps.providers.storedKinds(trx, tenantId);
  const mailOn = Boolean(deps.env.mail) || Boolean(stored?.has('smtp'));
  const smsOn = Boolean(deps.env.sms) || Boolean(stored?.has('sms'));
  if (!mailOn && !smsOn) return;
  const now = deps.now();
  const settings = await settingsRow(trx, tenantId);
  const data: NotificationData = {
    booking: {
      id: booking.id,
      objectName: input.objectName,
      guestName: booking.guest_name,
      startTime: booking.start_time.toISOString(),
      endTime: booking.end_time.toISOString(),
      totalPrice: booking.total_price,
      currency: booking.currency,
      refundAmount: booking.refund_amount,
      ...(change === 'payment_due' ? { amountDue: Math.max(0, booking.total_price - booking.amount_paid) } : {}),
    },
    accommodation: {
      name: input.accommodation.name,
      address: input.accommodation.address,
      timeZone: input.accommodation.time_zone,
    },
    ...(input.payment
      ? { payment: { amount: input.payment.amount, paidAt: (booking.paid_at ?? now).toISOString() } }
      : {}),
  };
  const rows: repo.NewNotification[] = [];
  const add = (channel: NotificationChannel, kind: NotificationKind, recipient: string, dueAt: Date) =>
    rows.push({ tenantId, bookingId: booking.id, channel, kind, sequence, recipient, data, dueAt, createdAt: now });
  const email = mailOn && settings.email_enabled ? booking.guest_email : null;
  const phone =
    smsOn && settings.sms_enabled && booking.guest_phone ? (e164(booking.guest_phone) ?? undefined) : undefined;
  if (email) add('email', change, email, now);
  if (phone && SMS_CHANGES.has(change)) add('sms', change, phone, now);
  if (change === 'rescheduled' || change === 'cancelled')
    await repo.cancelPending(trx, tenantId, booking.id, 'reminder', now);
  // Confirmed or cancelled before its "pay here" message went out: that message is moot.
  if (change === 'confirmed' || change === 'cancelled')
    await repo.cancelPending(trx, tenantId, booking.id, 'payment_due', now);
  const hours = settings.reminder_hours_before;
  const remindable = (change === 'confirmed' || change === 'rescheduled') && booking.status === 'CONFIRMED';
  if (email && hours && remindable) {
    const dueAt = reminderDueAt(booking.start_time, hours, input.accommodation.time_zone);
    if (dueAt > now) add('email', 'reminder', email, dueAt);
  }
  await repo.insertNotifications(trx, rows);
}

export interface SeriesCreatedInput {
  /** The booked occurrences, first one first: the mail is logged under the first (its facts: language, manage link). */
  bookings: BookingRow[];
  /** The rule's starts that were not booked (a conflict, a booking rule). */
  skipped: { startTime: Date; endTime: Date }[];
  series: { id: string; rule: string; guestName: string; guestEmail: string };
  objectName: string;
  accommodation: Pick<AccommodationRow, 'name' | 'address' | 'time_zone'>;
  /** The series' recurring invite (.ics, METHOD:REQUEST, EXDATE for every skipped start). */
  invite: string;
}

/**
 * Queues the one mail of a series created confirmed (kind series_confirmed, issue #43) in the
 * series' transaction: every booked date, the skipped ones, the total and the recurring invite.
 * Mail only (no SMS: one link per text message cannot carry a series), when the tenant's mail can
 * go out, email is on and the guest has an address. Logged under the first occurrence (sequence 1),
 * so the outbox's (booking, channel, kind, sequence) key keeps it queued once. The occurrences'
 * reminders are queued as a confirmation queues them, each before its own start.
 */
export async function queueSeriesNotification(trx: Executor, deps: AppDeps, input: SeriesCreatedInput): Promise<void> {
  const [first] = input.bookings;
  if (!first) return;
  const tenantId = first.tenant_id;
  const stored = deps.env.mail ? null : await deps.providers.storedKinds(trx, tenantId);
  const mailOn = Boolean(deps.env.mail) || Boolean(stored?.has('smtp'));
  if (!mailOn) return;
  const settings = await settingsRow(trx, tenantId);
  if (!settings.email_enabled || !input.series.guestEmail) return;
  const now = deps.now();
  const email = input.series.guestEmail;
  const totalPrice = input.bookings.reduce((sum, b) => sum + b.total_price, 0);
  const data: NotificationData = {
    booking: {
      id: first.id,
      objectName: input.objectName,
      guestName: input.series.guestName,
      startTime: first.start_time.toISOString(),
      endTime: first.end_time.toISOString(),
      totalPrice: first.total_price,
      currency: first.currency,
      refundAmount: null,
    },
    accommodation: {
      name: input.accommodation.name,
      address: input.accommodation.address,
      timeZone: input.accommodation.time_zone,
    },
    series: {
      id: input.series.id,
      rule: input.series.rule,
      booked: input.bookings.map((b) => ({
        bookingId: b.id,
        startTime: b.start_time.toISOString(),
        endTime: b.end_time.toISOString(),
      })),
      skipped: input.skipped.map((o) => ({ startTime: o.startTime.toISOString(), endTime: o.endTime.toISOString() })),
      totalPrice,
      invite: input.invite,
    },
  };
  const rows: repo.NewNotification[] = [
    {
      tenantId,
      bookingId: first.id,
      channel: 'email',
      kind: 'series_confirmed',
      sequence: 1,
      recipient: email,
      data,
      dueAt: now,
      createdAt: now,
    },
  ];
  const hours = settings.reminder_hours_before;
  if (hours) {
    for (const booking of input.bookings) {
      if (booking.status !== 'CONFIRMED') continue;
      const dueAt = reminderDueAt(booking.start_time, hours, input.accommodation.time_zone);
      if (dueAt <= now) continue;
      rows.push({
        tenantId,
        bookingId: booking.id,
        channel: 'email',
        kind: 'reminder',
        sequence: 1,
        recipient: email,
        data: {
          booking: {
            id: booking.id,
            objectName: input.objectName,
            guestName: booking.guest_name,
            startTime: booking.start_time.toISOString(),
            endTime: booking.end_time.toISOString(),
            totalPrice: booking.total_price,
            currency: booking.currency,
            refundAmount: booking.refund_amount,
          },
          accommodation: data.accommodation,
        },
        dueAt,
        createdAt: now,
      });
    }
  }
  await repo.insertNotifications(trx, rows);
}

/**
 * Sends a notification again: queued at once with a fresh retry schedule. A notification still
 * waiting is refused (it goes out anyway), and so is one being sent right now (its outcome is not
 * known yet); an UNKNOWN one (its send's outcome was never recorded) is resent, by hand only. A
 * cancelled reminder is not brought back.
 */
export async function resendNotification(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  id: string,
): Promise<NotificationRow> {
  const row = isUuid(id) ? await repo.findNotificationForUpdate(trx, tenantId, id) : undefined;
  if (!row) throw notFound('Notification', id);
  if (row.status === 'pending')
    throw conflict(
      'notification_pending',
      'The notification has not been sent yet; it is queued and will be tried again on its own',
    );
  if (row.status === 'sending')
    throw conflict(
      'notification_sending',
      'The notification is being sent right now; if its outcome is not recorded it becomes UNKNOWN and can be resent then',
    );
  if (row.status === 'cancelled')
    throw conflict(
      'notification_cancelled',
      'A reminder superseded by a later change of the booking cannot be sent again',
    );
  return repo.requeue(trx, tenantId, row.id, deps.now());
}

/** The notification's status before a resend (for the audit entry); null when there is none. */
export async function statusOfNotification(db: Executor, tenantId: string, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  return (await repo.findNotificationForUpdate(db, tenantId, id))?.status ?? null;
}

/** Serializes a tenant's test mails (the hourly limit is counted on the audit log). */
export async function lockTenantForTestEmail(trx: Executor, tenantId: string): Promise<void> {
  await repo.lockTenant(trx, tenantId);
}
