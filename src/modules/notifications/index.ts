import { defineModule } from '../../kernel/module.js';
import { notificationResolvers } from './notifications.resolvers.js';
import { createNotificationLoaders } from './notifications.loaders.js';
import { NotificationSender } from './sender.js';
import type { Mailer } from './mailer.js';
import type { SmsClient } from './sms.js';
// The notifications module's public face: guest mail and SMS (docs/notifications.md).
export { notificationResolvers } from './notifications.resolvers.js';
export { createNotificationLoaders } from './notifications.loaders.js';
export {
  queueBookingNotifications,
  queueSeriesNotification,
  type SeriesCreatedInput,
  getNotificationSettings,
  updateNotificationSettings,
  resendNotification,
  type BookingChange,
  type BookingChangeInput,
  type NotificationSettings,
} from './notifications.service.js';
export { parseUpdateNotificationSettings, type UpdateNotificationSettings } from './notifications.commands.js';
export { NotificationSender, type NotificationSenderOptions, type SenderSummary } from './sender.js';
export { createMailer, SMTP_TIMEOUT_MS, type Mailer, type OutgoingMail } from './mailer.js';
export { createSmsClient, SMS_TIMEOUT_MS, type SmsClient } from './sms.js';
export { bookingUid, bookingCalendar, type CalendarInput } from './calendar.js';
export { domainOf } from './sender.js';
export type { GuestFacts, GuestFactsOf } from './guest-facts.js';
export { smsSegments } from './notification.rules.js';
export { MAX_NOTIFICATION_ATTEMPTS, NOTIFICATION_RETRY_DELAYS_MS, reminderDueAt } from './notification.rules.js';
export { sendTestEmail } from './test-email.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createNotificationLoaders> {}
  interface Collaborators {
    /** The SMTP transport of guest mail (SMTP_URL); null when email is off. */
    mailer: Mailer | null;
    /** The SMS provider's client (SMS_ACCOUNT_SID); null when SMS is off. */
    smsClient: SmsClient | null;
    /**
     * What a guest message needs of its booking when it is sent (reference, language, manage and
     * payment links, VAT rate): the bookings module's guestFactsReader, wired in src/app/deps.ts.
     */
    guestFacts: import('./guest-facts.js').GuestFactsOf;
  }
}

/** The notifications module (src/app/modules.ts lists it; docs/notifications.md). */
export const notificationsModule = defineModule({
  name: 'notifications',
  dependsOn: ['access', 'audit'],
  typeDefs: ['notifications.graphql'],
  resolvers: notificationResolvers,
  loaders: createNotificationLoaders,
  jobs: [
    {
      name: 'notification sender',
      start: (deps) => {
        // Beside the webhook dispatcher: the environment's SMTP and SMS, and venues' own set in the
        // dashboard (resolved per notification's tenant at send time).
        const sender = new NotificationSender({ deps });
        sender.start();
        return { stop: () => sender.stop() };
      },
    },
  ],
});
