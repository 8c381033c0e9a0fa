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
import { e164, reminderDueAt } from './notification.rules.js';
import type { UpdateNotificationSettings } from './notifications.commands.js';

// Guest notifications: the tenant's settings, queueing a booking change's mails and text messages
// in the change's transaction, the per-booking log and resending.

export interface NotificationSettings {
  emailEnabled: boolean;
  smsEnabled: boolean;
  senderName: string | null;
  replyTo: string | null;
  reminderHoursBefore: number | null;
  /** Whether this installation sends email at all (SMTP_URL is set). */
  emailAvailable: boolean;
  /** Whether this installation sends SMS at all (SMS_ACCOUNT_SID is set). */
  smsAvailable: boolean;
}

const DEFAULT_SETTINGS: repo.SettingsValues = {
  email_enabled: true,
  sms_enabled: true,
  sender_name: null,
  reply_to: null,
  reminder_hours_before: null,
};

function settingsView(deps: AppDeps, row: repo.SettingsValues | NotificationSettingsRow): NotificationSettings {
  return {
    emailEnabled: row.email_enabled,
    smsEnabled: row.sms_enabled,
    senderName: row.sender_name,
    replyTo: row.reply_to,
    reminderHoursBefore: row.reminder_hours_before,
    emailAvailable: deps.env.mail !== null,
    smsAvailable: deps.env.sms !== null,
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
  return settingsView(deps, await settingsRow(db, tenantId));
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
  return settingsView(deps, await repo.saveSettings(trx, tenantId, next, deps.now()));
}

/** The booking change a notification tells about. */
export type BookingChange = 'confirmed' | 'rescheduled' | 'cancelled';

export interface BookingChangeInput {
  change: BookingChange;
  booking: BookingRow;
  objectName: string;
  accommodation: Pick<AccommodationRow, 'name' | 'address' | 'time_zone'>;
  /** The booking's event sequence of this change: the iCalendar SEQUENCE, and what makes it queued once. */
  sequence: number;
}

/**
 * Queues the guest's notifications of a booking change. Call it in the change's transaction: the
 * rows exist exactly when the change does. Email when the installation has SMTP, the tenant has
 * email on and the guest an address; SMS on confirmation and reschedule when the installation has
 * an SMS provider, the tenant has SMS on and the guest an E.164 number. A reminder is (re)scheduled
 * when the tenant asked for one; a cancellation or reschedule ends the reminder not yet sent.
 */
export async function queueBookingNotifications(
  trx: Executor,
  deps: AppDeps,
  input: BookingChangeInput,
): Promise<void> {
  if (!deps.env.mail && !deps.env.sms) return;
  const { booking, change, sequence } = input;
  const tenantId = booking.tenant_id;
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
    },
    accommodation: {
      name: input.accommodation.name,
      address: input.accommodation.address,
      timeZone: input.accommodation.time_zone,
    },
  };
  const rows: repo.NewNotification[] = [];
  const add = (channel: NotificationChannel, kind: NotificationKind, recipient: string, dueAt: Date) =>
    rows.push({ tenantId, bookingId: booking.id, channel, kind, sequence, recipient, data, dueAt, createdAt: now });
  const email = deps.env.mail && settings.email_enabled ? booking.guest_email : null;
  const phone = deps.env.sms && settings.sms_enabled && booking.guest_phone ? e164(booking.guest_phone) : undefined;
  if (email) add('email', change, email, now);
  if (phone && change !== 'cancelled') add('sms', change, phone, now);
  if (change !== 'confirmed') await repo.cancelPendingReminders(trx, tenantId, booking.id, now);
  const hours = settings.reminder_hours_before;
  const remindable = change !== 'cancelled' && booking.status === 'CONFIRMED';
  if (email && hours && remindable) {
    const dueAt = reminderDueAt(booking.start_time, hours, input.accommodation.time_zone);
    if (dueAt > now) add('email', 'reminder', email, dueAt);
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
