import type {
  NotificationChannel as Channel,
  NotificationKind as Kind,
  NotificationStatus as Status,
  Resolvers,
} from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { DomainError } from '../../kernel/errors.js';
import { auditRequest as audit, countAuditActionsSince } from '../audit/index.js';
import { TEST_EMAILS_PER_HOUR } from './notification.rules.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import { parseSendTestEmail, parseUpdateNotificationSettings } from './notifications.commands.js';
import * as notifications from './notifications.service.js';
import { sendTestEmail } from './test-email.js';

// The settings as the audit log keeps them (the installation's availability is not the tenant's change).
const auditedSettings = (s: notifications.NotificationSettings) => ({
  emailEnabled: s.emailEnabled,
  smsEnabled: s.smsEnabled,
  senderName: s.senderName,
  replyTo: s.replyTo,
  reminderHoursBefore: s.reminderHoursBefore,
});

export const notificationResolvers: Resolvers = {
  Query: {
    notificationSettings: (_, a, ctx) =>
      notifications.getNotificationSettings(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId)),
  },
  Mutation: {
    updateNotificationSettings: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateNotificationSettings(a.input);
      return inTransaction(ctx, async (trx) => {
        const before = await notifications.getNotificationSettings(trx, ctx.deps, tenantId);
        const after = await notifications.updateNotificationSettings(trx, ctx.deps, tenantId, command);
        await audit(
          ctx,
          trx,
          tenantId,
          'notification_settings.updated',
          { type: 'tenant', id: tenantId },
          {
            before: auditedSettings(before),
            after: auditedSettings(after),
          },
        );
        return after;
      });
    },
    resendNotification: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const before = await notifications.statusOfNotification(trx, tenantId, a.id);
        const row = await notifications.resendNotification(trx, ctx.deps, tenantId, a.id);
        await audit(
          ctx,
          trx,
          tenantId,
          'notification.resent',
          { type: 'notification', id: row.id },
          {
            bookingId: row.booking_id,
            channel: row.channel,
            kind: row.kind,
            recipient: row.recipient,
            previousStatus: before,
          },
        );
        return row;
      });
    },
    // The SMTP exchange is outside the transaction; the limit and the audit entry are committed
    // before it, so a test mail is never sent unaudited or past the limit.
    sendTestNotificationEmail: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { to } = parseSendTestEmail({ to: a.to });
      if (!(await ctx.deps.providers.mailer(tenantId))) return sendTestEmail(ctx.db, ctx.deps, tenantId, to);
      await inTransaction(ctx, async (trx) => {
        // One at a time per tenant, so concurrent requests cannot all pass the count.
        await notifications.lockTenantForTestEmail(trx, tenantId);
        const since = new Date(ctx.deps.now().getTime() - 3_600_000);
        const sent = await countAuditActionsSince(trx, tenantId, 'notification.test_email_sent', since);
        if (sent >= TEST_EMAILS_PER_HOUR)
          throw new DomainError(
            'RATE_LIMITED',
            'test_email_limit',
            `At most ${TEST_EMAILS_PER_HOUR} test mails an hour per tenant; try again later`,
          );
        await audit(ctx, trx, tenantId, 'notification.test_email_sent', { type: 'tenant', id: tenantId }, { to });
      });
      return sendTestEmail(ctx.db, ctx.deps, tenantId, to);
    },
  },
  Booking: {
    notifications: (booking, _, ctx) => ctx.loaders.notificationsByBooking.load(booking.id),
  },
  Notification: {
    channel: (row) => row.channel.toUpperCase() as Channel,
    kind: (row) => row.kind.toUpperCase() as Kind,
    status: (row) => row.status.toUpperCase() as Status,
    lastError: (row) => row.last_error,
    sentAt: (row) => row.sent_at,
    nextAttemptAt: (row) => row.next_attempt_at,
    createdAt: (row) => row.created_at,
  },
};
