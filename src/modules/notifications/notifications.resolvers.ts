import type {
  NotificationChannel as Channel,
  NotificationKind as Kind,
  NotificationStatus as Status,
  Resolvers,
} from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import { parseSendTestEmail, parseUpdateNotificationSettings } from './notifications.commands.js';
import * as notifications from './notifications.service.js';
import { sendTestEmail } from './test-email.js';

export const notificationResolvers: Resolvers = {
  Query: {
    notificationSettings: (_, a, ctx) =>
      notifications.getNotificationSettings(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId)),
  },
  Mutation: {
    updateNotificationSettings: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateNotificationSettings(a.input);
      return inTransaction(ctx, (trx) => notifications.updateNotificationSettings(trx, ctx.deps, tenantId, command));
    },
    resendNotification: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => notifications.resendNotification(trx, ctx.deps, tenantId, a.id));
    },
    // No transaction: it waits on the SMTP server.
    sendTestNotificationEmail: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { to } = parseSendTestEmail({ to: a.to });
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
