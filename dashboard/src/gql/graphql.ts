/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/**
 * Why an access check was refused. The values are the device protocol's wire values (a door reports
 * them in its offline access log too).
 */
export type AccessDenialReason =
  /** The booking is not CONFIRMED. */
  | 'booking_not_confirmed'
  /** The device does not drive this door. */
  | 'door_not_assigned'
  /** The door does not serve the booked object. */
  | 'door_not_mapped_to_object'
  /** The token or code matches no booking (or its signature or format is wrong). */
  | 'invalid_token'
  /** Offline: more than maxOfflineSeconds since the door's last successful heartbeat (or none yet). */
  | 'offline_limit_exceeded'
  /** Offline: the credential needs Portier (SMS codes and opaque tokens are online-only). */
  | 'online_only_credential'
  /** Outside the booking's window: before its start or from its end on. */
  | 'outside_booking_window'
  /** An SMS code at a door blocked for too many wrong codes (10 a minute, 30 an hour). */
  | 'too_many_invalid_tokens';

/** What an API key is for (docs/booking-page.md, "Publishable key"). */
export type ApiKeyKind =
  /** A publishable key (svc_pk_…) for browsers: only the booking_page scope (the public booking page's fields); one working key per tenant. */
  | 'PUBLISHABLE'
  /** An integration's key (svc_…): its value is shown once, at creation. */
  | 'SECRET';

/** The booking page settings to change; a field left out keeps its value. */
export type BookingPageSettingsInput = {
  /** #rrggbb; null removes it. */
  accentColour?: string | null | undefined;
  /** At most 20 origins, each exactly scheme://host[:port] (https, or http on localhost); replaces the list. */
  allowedOrigins?: Array<string> | null | undefined;
  /** EN or DE. */
  defaultLocale?: Locale | null | undefined;
  /** Switches the page, the widget and the publishable key's fields on or off. */
  enabled?: boolean | null | undefined;
  /** A data: URL of a PNG, JPEG or WebP image (SVG is refused), at most 200000 characters; null removes it. */
  logo?: string | null | undefined;
  /** The online modes are refused (payment_provider_missing) while the server has no payment provider. */
  paymentMode?: BookingPaymentMode | null | undefined;
  /** 1–48 lowercase letters, digits or inner hyphens; required on the first save; taken by another venue: CONFLICT (slug_taken). */
  slug?: string | null | undefined;
  /** The texts to change. */
  texts?: BookingPageTextsInput | null | undefined;
  /** 0 to 10000 (1900 = 19 %); null: no VAT line. */
  vatRateBasisPoints?: number | null | undefined;
};

/** Texts of one language to change: a string sets the text, null or "" removes it, a field left out keeps it. */
export type BookingPageTextSetInput = {
  /** At most 1000 characters. */
  afterBooking?: string | null | undefined;
  /** At most 4000 characters. */
  cancellationPolicy?: string | null | undefined;
  /** At most 1000 characters. */
  intro?: string | null | undefined;
};

/** Texts to change, per language. */
export type BookingPageTextsInput = {
  /** German texts. */
  de?: BookingPageTextSetInput | null | undefined;
  /** English texts. */
  en?: BookingPageTextSetInput | null | undefined;
};

/** How guests of the booking page pay. */
export type BookingPaymentMode =
  /** At the venue: no online payment is offered. */
  | 'AT_VENUE'
  /** Online or at the venue, as the guest chooses; needs a payment provider. */
  | 'ONLINE_OPTIONAL'
  /** Online (Stripe Checkout) before the booking counts; needs a payment provider. */
  | 'ONLINE_REQUIRED';

/** Omitted fields keep their current value (or the default on creation: 60, 240, 60, 0, 365, 0). */
export type BookingRulesInput = {
  /** Minutes kept free between bookings, 0–1440. */
  bufferMinutes?: number | null | undefined;
  /** Furthest ahead in days, 0–3650. */
  maxAdvanceDays?: number | null | undefined;
  /** Longest booking in minutes, 1–10080. */
  maxDurationMinutes?: number | null | undefined;
  /** Least notice in minutes, 0–525600. */
  minAdvanceMinutes?: number | null | undefined;
  /** Shortest booking in minutes, 1–1440. */
  minDurationMinutes?: number | null | undefined;
  /** Slot step in minutes, 5–1440. */
  slotIncrementMinutes?: number | null | undefined;
};

/** Which occurrences cancelBookingSeries cancels. */
export type BookingSeriesScope =
  /** Every occurrence that can still be cancelled. */
  | 'ALL'
  /** The occurrence fromBookingId and every later one. */
  | 'FOLLOWING'
  /** Only the occurrence fromBookingId. */
  | 'THIS';

/** Whether a recurring booking still runs. */
export type BookingSeriesStatus =
  /** Its occurrences that are not cancelled stand. */
  | 'ACTIVE'
  /** Every occurrence from some point on, or all of them, were cancelled (cancelBookingSeries with FOLLOWING from the first, or ALL). */
  | 'CANCELLED';

/** Where a booking is in its life: PENDING → CONFIRMED → COMPLETED, or CANCELLED from PENDING or CONFIRMED. */
export type BookingStatus =
  /** Cancelled: the slot is free again and the credentials no longer work. */
  | 'CANCELLED'
  /** Over and settled. */
  | 'COMPLETED'
  /** Confirmed: the guest's credentials open the doors during the booking. */
  | 'CONFIRMED'
  /** Created and not yet confirmed (for instance, awaiting payment). */
  | 'PENDING';

/** Why a booking was cancelled (docs/bookings.md, "Cancellation reasons"). */
export type CancellationReasonCode =
  /** The booking duplicated another one. */
  | 'DUPLICATE'
  /** The guest asked for it. */
  | 'GUEST_REQUEST'
  /** The object is under maintenance or repair. */
  | 'MAINTENANCE'
  /** The booking was not paid in time. */
  | 'NO_PAYMENT'
  /** Another reason: say which in the free text. */
  | 'OTHER'
  /** The venue is closed (an event, a holiday). */
  | 'VENUE_CLOSED'
  /** Weather made the object unusable. */
  | 'WEATHER';

/** A refund step of a cancellation policy. */
export type CancellationTierInput = {
  /** Whole hours from 0 to 8760. */
  hoursBeforeStart: number;
  /** Whole percent from 0 to 100. */
  refundPercent: number;
};

/** A kind of provider whose credentials a venue may set. */
export type CredentialProvider =
  /** Guest SMS: a Twilio-shaped Messages API. */
  | 'SMS'
  /** Guest mail: an SMTP server and the From address. */
  | 'SMTP'
  /** Stripe Checkout: the secret key and the webhook signing secret. */
  | 'STRIPE';

/** Where the credentials a tenant's sends use come from. */
export type CredentialSource =
  /** The credentials stored for this tenant in the dashboard. */
  | 'DASHBOARD'
  /** The server's environment variables (STRIPE_SECRET_KEY, SMTP_URL, SMS_ACCOUNT_SID): they win over stored ones. */
  | 'ENVIRONMENT'
  /** None: the provider is off for this tenant. */
  | 'NONE';

/** Which kind of credential a guest showed. */
export type CredentialType =
  /** A QR code (a signed token or a legacy opaque token). */
  | 'qr'
  /** An SMS code typed on the keypad. */
  | 'sms';

/** The open hours of one day, local wall-clock HH:MM; close may be 24:00. */
export type DayHoursInput = {
  /** Closing time, HH:MM (00:00–24:00), after open. */
  close: string;
  /** Opening time, HH:MM (00:00–23:59), local to the accommodation. */
  open: string;
};

/** Where a device command stands (the device protocol's values). */
export type DeviceCommandStatus =
  /** Handed out to the controller; waiting for its report. */
  | 'delivered'
  /** The controller reported success. */
  | 'executed'
  /** Not handed out before expires_at; never will be. */
  | 'expired'
  /** The controller reported failure (see error). */
  | 'failed'
  /** Queued; handed out with the next heartbeat or poll. */
  | 'pending';

/** What a command asks a controller to do (the device protocol's values). */
export type DeviceCommandType =
  /** Unlock a door for payload.duration_seconds on payload.gpio_pin. */
  | 'unlock';

/** The life of a door controller: registered, activated with its one-time code, or revoked. */
export type DeviceStatus =
  /** The activation code expired unused (7 days after registration); register the device again. */
  | 'ACTIVATION_EXPIRED'
  /** Activated: the controller holds a device key and talks the device protocol. */
  | 'ACTIVE'
  /** Registered; waiting for the controller to activate with its code. */
  | 'PENDING_ACTIVATION'
  /** Revoked: its key no longer works. */
  | 'REVOKED';

/** What a door does on an allowed scan. The values are the REST and device protocol's wire values. */
export type DoorBehavior =
  /** Each allowed scan switches the door between locked and unlocked. */
  | 'toggle'
  /** Unlock for unlockDurationSeconds on each allowed scan, then lock again. */
  | 'unlock_per_scan';

/** Whether a door is locked, as its controller reports it (the device protocol's values). */
export type DoorLockState =
  /** The lock is closed. */
  | 'locked'
  /** The lock is open. */
  | 'unlocked';

/** A language of the guest's mails, text messages and pages. */
export type Locale =
  /** German. */
  | 'DE'
  /** English. */
  | 'EN';

/** A channel a guest is told through. */
export type NotificationChannel =
  /** A mail to guestEmail (SMTP_URL). */
  | 'EMAIL'
  /** A text message to guestPhone (the SMS provider). */
  | 'SMS';

/** What a notification tells the guest. */
export type NotificationKind =
  /** The booking was cancelled: the refund, the calendar entry removed. */
  | 'CANCELLED'
  /** The booking was confirmed: the key (QR code and door code) and a calendar invitation. */
  | 'CONFIRMED'
  /** A PENDING booking that waits for its payment: the amount due and the payment page. */
  | 'PAYMENT_DUE'
  /** The receipt of a payment: the amount, the VAT included (when the venue sets a rate), the venue. */
  | 'RECEIPT'
  /** The tenant's reminder, reminderHoursBefore hours before the start. */
  | 'REMINDER'
  /** The booking moved: the new times, a new QR code, the calendar entry updated. */
  | 'RESCHEDULED'
  /** A recurring booking (series) created confirmed: one mail with every booked date, the skipped ones, the total and the recurring calendar invite (RRULE, EXDATE). */
  | 'SERIES_CONFIRMED';

/** Where a notification stands. */
export type NotificationStatus =
  /** A reminder dropped because the booking moved or was cancelled first. */
  | 'CANCELLED'
  /** Every attempt failed (six in about 7 hours); resendNotification queues it again. */
  | 'FAILED'
  /** Waiting to be sent, or to be tried again after a failure. */
  | 'PENDING'
  /** Being sent now: recorded before it went to the SMTP server or the SMS provider, the outcome not yet. */
  | 'SENDING'
  /** The SMTP server or the SMS provider took it. */
  | 'SENT'
  /** The send started but its outcome was never recorded (the database failed, or the process died, mid-send): the guest may have it or not. Never sent again on its own; resendNotification sends it again. */
  | 'UNKNOWN';

/** Where a booking's money is: nothing paid yet, paid, or (partly) given back. */
export type PaymentStatus =
  /** Paid; nothing refunded. */
  | 'PAID'
  /** Part of what was paid was refunded. */
  | 'PARTIALLY_REFUNDED'
  /** Everything paid was refunded. */
  | 'REFUNDED'
  /** Nothing was paid. */
  | 'UNPAID';

/** The kind of a pricing rule; it decides which of the rule's conditions apply. */
export type PricingRuleType =
  /** Applies to bookings starting on one of the rule's weekdays (local to the accommodation). */
  | 'day_based'
  /** Applies to bookings at least minDurationMinutes long. */
  | 'duration_based'
  /** Applies to bookings created at least minDaysInAdvance local calendar days before their start. */
  | 'early_bird'
  /** Applies to bookings overlapping a local time window (startTime–endTime), optionally on some weekdays only. */
  | 'time_based';

/** How a revenue or payments report groups its days: by local day, ISO week (from Monday) or month. */
export type ReportPeriod =
  /** One row per local day. */
  | 'DAY'
  /** One row per calendar month. */
  | 'MONTH'
  /** One row per ISO week, starting on Monday. */
  | 'WEEK';

/** SMS settings for this tenant (a Twilio-shaped Messages API). */
export type SmsCredentialsInput = {
  /** The account SID (letters and digits). */
  accountSid: string;
  /** Only where private networks are allowed (WEBHOOK_ALLOW_PRIVATE_NETWORKS): another API origin than https://api.twilio.com. */
  apiBase?: string | null | undefined;
  /** The auth token. */
  authToken: string;
  /** The sender number or name. */
  from: string;
};

/** SMTP settings for this tenant's guest mail. */
export type SmtpCredentialsInput = {
  /** The From address (bookings@example.com); the tenant's sender name goes in front of it. */
  from: string;
  /** smtp://user:password@host:587 or smtps://user:password@host:465. */
  smtpUrl: string;
};

/** Stripe credentials for this tenant. */
export type StripeCredentialsInput = {
  /** Only where private networks are allowed (WEBHOOK_ALLOW_PRIVATE_NETWORKS: tests, development): another API origin than https://api.stripe.com. */
  apiBase?: string | null | undefined;
  /** The secret (sk_live_…, sk_test_…) or restricted key (rk_…). */
  secretKey: string;
  /** The signing secret (whsec_…) of the webhook endpoint pointed at ProviderCredentials.stripeWebhookUrl. */
  webhookSecret: string;
};

/** Changes to the notification settings; a field left out keeps its value. */
export type UpdateNotificationSettingsInput = {
  /** Mails to guests on or off. */
  emailEnabled?: boolean | null | undefined;
  /** 1 to 336 hours; null: no reminder. */
  reminderHoursBefore?: number | null | undefined;
  /** One email address; null: none. */
  replyTo?: string | null | undefined;
  /** 1–100 characters without line breaks; null: the venue's name. */
  senderName?: string | null | undefined;
  /** Text messages to guests on or off. */
  smsEnabled?: boolean | null | undefined;
};

/**
 * What a dashboard user may do. Each role is a set of the scopes API keys use, so the API enforces
 * it: ADMIN holds `admin` (everything); STAFF holds bookings:read, bookings:write, catalog:read,
 * pricing:read, devices:read and devices:write.
 */
export type UserRole =
  /** May do everything, including managing users, API keys and apps. */
  | 'ADMIN'
  /** Day-to-day work: bookings, the catalog and devices, without administration. */
  | 'STAFF';

/** Where the delivery of one event to one subscription stands. */
export type WebhookDeliveryStatus =
  /** Retries exhausted, the subscription was deactivated, or a test event failed. */
  | 'FAILED'
  /** Waiting for its next attempt (nextAttemptAt). */
  | 'PENDING'
  /** A 2xx arrived. */
  | 'SUCCEEDED';

/** A day of the week, in the accommodation's local calendar. */
export type Weekday =
  /** Friday. */
  | 'friday'
  /** Monday. */
  | 'monday'
  /** Saturday. */
  | 'saturday'
  /** Sunday. */
  | 'sunday'
  /** Thursday. */
  | 'thursday'
  /** Tuesday. */
  | 'tuesday'
  /** Wednesday. */
  | 'wednesday';

/** Open hours per weekday; a weekday left out is closed. */
export type WeeklyScheduleInput = {
  /** Hours on Fridays; left out or null: closed. */
  friday?: DayHoursInput | null | undefined;
  /** Hours on Mondays; left out or null: closed. */
  monday?: DayHoursInput | null | undefined;
  /** Hours on Saturdays; left out or null: closed. */
  saturday?: DayHoursInput | null | undefined;
  /** Hours on Sundays; left out or null: closed. */
  sunday?: DayHoursInput | null | undefined;
  /** Hours on Thursdays; left out or null: closed. */
  thursday?: DayHoursInput | null | undefined;
  /** Hours on Tuesdays; left out or null: closed. */
  tuesday?: DayHoursInput | null | undefined;
  /** Hours on Wednesdays; left out or null: closed. */
  wednesday?: DayHoursInput | null | undefined;
};

export type DashboardDoorNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardDoorNamesQuery = { doors: Array<{ id: string, name: string }> };

export type DashboardChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  newPassword: string;
}>;


export type DashboardChangePasswordMutation = { changePassword: { signedOutSessions: number } };

export type DashboardOverviewAccommodationsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOverviewAccommodationsQuery = { accommodations: Array<{ id: string, name: string, timeZone: string }> };

export type DashboardOverviewTodayQueryVariables = Exact<{
  from: string;
  to: string;
}>;


export type DashboardOverviewTodayQuery = { bookingPage: { bookings: Array<{ id: string, guestName: string, objectName: string, startTime: string, endTime: string, status: BookingStatus, object: { id: string, accommodationId: string } }>, pagination: { total: number } } };

export type DashboardOverviewDevicesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOverviewDevicesQuery = { devices: Array<{ id: string, name: string, status: DeviceStatus, online: boolean, lastHeartbeatAt: string | null }> };

export type DashboardOverviewAccessQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOverviewAccessQuery = { accessLog: Array<{ id: string, deviceId: string, doorId: string, allowed: boolean, reason: AccessDenialReason | null, checkedAt: string }> };

export type DashboardOverviewWebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOverviewWebhooksQuery = { webhooks: Array<{ id: string, url: string, active: boolean }> };

export type DashboardOverviewFailedDeliveriesQueryVariables = Exact<{
  webhookId: string | number;
}>;


export type DashboardOverviewFailedDeliveriesQuery = { webhookDeliveries: { deliveries: Array<{ id: string, eventType: string, lastStatusCode: number | null, lastError: string | null, lastAttemptAt: string | null }> } };

export type DashboardPaymentIssuesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardPaymentIssuesQuery = { paymentIssues: Array<{ id: string, kind: string, bookingId: string, amount: number, currency: string, detail: string, since: string, retryable: boolean }> };

export type DashboardRetryRefundMutationVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardRetryRefundMutation = { retryRefund: { id: string } };

export type DashboardAcknowledgePaymentIssueMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardAcknowledgePaymentIssueMutation = { acknowledgePaymentIssue: { id: string, acknowledgedAt: string | null } };

export type DashboardApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardApiKeysQuery = { apiKeys: Array<{ id: string, name: string, prefix: string, scopes: Array<string>, rateLimitPerMinute: number | null, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type DashboardCreateApiKeyMutationVariables = Exact<{
  name: string;
  scopes: Array<string> | string;
  rateLimitPerMinute?: number | null | undefined;
}>;


export type DashboardCreateApiKeyMutation = { createApiKey: { apiKey: string, apiKeyInfo: { id: string, name: string } } };

export type DashboardRevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardRevokeApiKeyMutation = { revokeApiKey: { id: string, revokedAt: string | null } };

export type DashboardAuditLogQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DashboardAuditLogQuery = { auditLog: { edges: Array<{ cursor: string, node: { id: string, occurredAt: string, action: string, targetType: string | null, targetId: string | null, ipAddress: string | null, actor: { type: string, label: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DashboardBookingPageQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardBookingPageQuery = { bookingPageSettings: { saved: boolean, enabled: boolean, slug: string | null, url: string | null, paymentMode: BookingPaymentMode, onlinePaymentAvailable: boolean, allowedOrigins: Array<string>, logo: string | null, accentColour: string | null, defaultLocale: Locale, vatRateBasisPoints: number | null, updatedAt: string | null, texts: { en: { intro: string | null, cancellationPolicy: string | null, afterBooking: string | null }, de: { intro: string | null, cancellationPolicy: string | null, afterBooking: string | null } } }, viewer: { id: string, name: string }, bookableObjects: Array<{ id: string, name: string, published: boolean, accommodation: { name: string } }>, apiKeys: Array<{ id: string, kind: ApiKeyKind, prefix: string, publishableKey: string | null, createdAt: string, revokedAt: string | null }> };

export type DashboardSaveBookingPageMutationVariables = Exact<{
  input: BookingPageSettingsInput;
}>;


export type DashboardSaveBookingPageMutation = { updateBookingPageSettings: { saved: boolean, slug: string | null } };

export type DashboardPublishObjectsMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  published: boolean;
}>;


export type DashboardPublishObjectsMutation = { publishObjects: { objects: Array<{ id: string, published: boolean }> } };

export type DashboardCreatePublishableKeyMutationVariables = Exact<{ [key: string]: never; }>;


export type DashboardCreatePublishableKeyMutation = { createPublishableKey: { apiKey: string } };

export type DashboardRevokePublishableKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardRevokePublishableKeyMutation = { revokeApiKey: { id: string } };

export type DashboardDeviceQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeviceQuery = { device: { id: string, name: string, status: DeviceStatus, online: boolean, lastHeartbeatAt: string | null, serial: string | null, firmwareVersion: string | null, doors: Array<{ id: string, name: string }> } | null, deviceCommands: Array<{ doorId: string | null, deliveredAt: string | null, completedAt: string | null, result: unknown, error: string | null, command: { id: string, type: DeviceCommandType, status: DeviceCommandStatus, payload: unknown, created_at: string, expires_at: string } }>, doors: Array<{ id: string, name: string }> };

export type DashboardDevicesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardDevicesQuery = { devices: Array<{ id: string, name: string, status: DeviceStatus, online: boolean, lastHeartbeatAt: string | null, serial: string | null, firmwareVersion: string | null, keyPrefix: string | null, activationExpiresAt: string, createdAt: string, telemetry: { cpuPercent: number, memoryPercent: number, wifiSignalDbm: number, doorStates: Array<{ doorId: string, state: DoorLockState }> } | null, doors: Array<{ id: string, name: string, gpioPin: number }> }>, doors: Array<{ id: string, name: string }> };

export type DashboardRegisterDeviceMutationVariables = Exact<{
  name: string;
  doorIds: Array<string | number> | string | number;
}>;


export type DashboardRegisterDeviceMutation = { registerDevice: { activationCode: string, device: { id: string, name: string } } };

export type DashboardSetDeviceDoorsMutationVariables = Exact<{
  id: string | number;
  doorIds: Array<string | number> | string | number;
}>;


export type DashboardSetDeviceDoorsMutation = { setDeviceDoors: { id: string } };

export type DashboardRevokeDeviceMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardRevokeDeviceMutation = { revokeDevice: { id: string, status: DeviceStatus } };

export type DashboardQueueUnlockMutationVariables = Exact<{
  deviceId: string | number;
  doorId: string | number;
}>;


export type DashboardQueueUnlockMutation = { createDeviceCommand: { command: { id: string, status: DeviceCommandStatus, expires_at: string } } };

export type DashboardUserInvitationsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardUserInvitationsQuery = { userInvitations: Array<{ id: string, email: string, role: UserRole, invitedBy: string, createdAt: string, expiresAt: string, expired: boolean }> };

export type DashboardInviteUserMutationVariables = Exact<{
  email: string;
  role?: UserRole | null | undefined;
  locale?: Locale | null | undefined;
}>;


export type DashboardInviteUserMutation = { inviteUser: { id: string, email: string } };

export type DashboardRevokeUserInvitationMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardRevokeUserInvitationMutation = { revokeUserInvitation: { revokedInvitationId: string } };

export type DashboardNotificationSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardNotificationSettingsQuery = { notificationSettings: { emailEnabled: boolean, smsEnabled: boolean, senderName: string | null, replyTo: string | null, reminderHoursBefore: number | null, emailAvailable: boolean, smsAvailable: boolean } };

export type DashboardUpdateNotificationSettingsMutationVariables = Exact<{
  input: UpdateNotificationSettingsInput;
}>;


export type DashboardUpdateNotificationSettingsMutation = { updateNotificationSettings: { emailEnabled: boolean, smsEnabled: boolean, senderName: string | null, replyTo: string | null, reminderHoursBefore: number | null } };

export type DashboardSendTestNotificationEmailMutationVariables = Exact<{
  to: string;
}>;


export type DashboardSendTestNotificationEmailMutation = { sendTestNotificationEmail: { success: boolean, error: string | null } };

export type DashboardOAuthAppsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOAuthAppsQuery = { oauthApps: Array<{ clientId: string, name: string, redirectUris: Array<string>, scopes: Array<string>, public: boolean, createdAt: string, secretRotatedAt: string | null, authorizedTenantCount: number }> };

export type DashboardCreateOAuthAppMutationVariables = Exact<{
  name: string;
  redirectUris: Array<string> | string;
  scopes: Array<string> | string;
  public?: boolean | null | undefined;
}>;


export type DashboardCreateOAuthAppMutation = { createOAuthApp: { clientSecret: string | null, app: { clientId: string, name: string } } };

export type DashboardRotateOAuthAppSecretMutationVariables = Exact<{
  clientId: string | number;
}>;


export type DashboardRotateOAuthAppSecretMutation = { rotateOAuthAppSecret: { clientSecret: string | null, app: { clientId: string, name: string } } };

export type DashboardDeleteOAuthAppMutationVariables = Exact<{
  clientId: string | number;
}>;


export type DashboardDeleteOAuthAppMutation = { deleteOAuthApp: boolean };

export type DashboardConnectedAppsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardConnectedAppsQuery = { connectedApps: Array<{ clientId: string, name: string, ownerTenantName: string, scopes: Array<string>, authorizedAt: string, lastUsedAt: string | null }> };

export type DashboardRevokeConnectedAppMutationVariables = Exact<{
  clientId: string | number;
}>;


export type DashboardRevokeConnectedAppMutation = { revokeConnectedApp: boolean };

export type DashboardProviderCredentialsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardProviderCredentialsQuery = { providerCredentials: { stripeWebhookUrl: string, stripe: { set: boolean, hint: string | null, source: CredentialSource, updatedAt: string | null }, smtp: { set: boolean, hint: string | null, source: CredentialSource, updatedAt: string | null }, sms: { set: boolean, hint: string | null, source: CredentialSource, updatedAt: string | null } } };

export type DashboardSetStripeCredentialsMutationVariables = Exact<{
  input: StripeCredentialsInput;
}>;


export type DashboardSetStripeCredentialsMutation = { setStripeCredentials: { stripeWebhookUrl: string } };

export type DashboardSetSmtpCredentialsMutationVariables = Exact<{
  input: SmtpCredentialsInput;
}>;


export type DashboardSetSmtpCredentialsMutation = { setSmtpCredentials: { stripeWebhookUrl: string } };

export type DashboardSetSmsCredentialsMutationVariables = Exact<{
  input: SmsCredentialsInput;
}>;


export type DashboardSetSmsCredentialsMutation = { setSmsCredentials: { stripeWebhookUrl: string } };

export type DashboardClearProviderCredentialsMutationVariables = Exact<{
  provider: CredentialProvider;
}>;


export type DashboardClearProviderCredentialsMutation = { clearProviderCredentials: { stripeWebhookUrl: string } };

export type DashboardUsersQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardUsersQuery = { users: Array<{ id: string, email: string, role: UserRole, createdAt: string, passwordChangedAt: string }> };

export type DashboardCreateUserMutationVariables = Exact<{
  email: string;
  password: string;
  role?: UserRole | null | undefined;
}>;


export type DashboardCreateUserMutation = { createUser: { id: string, email: string } };

export type DashboardUpdateUserRoleMutationVariables = Exact<{
  id: string | number;
  role: UserRole;
}>;


export type DashboardUpdateUserRoleMutation = { updateUserRole: { id: string, role: UserRole } };

export type DashboardRemoveUserMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardRemoveUserMutation = { removeUser: { removedUserId: string } };

export type DashboardWebhookQueryVariables = Exact<{
  id: string | number;
  status?: WebhookDeliveryStatus | null | undefined;
}>;


export type DashboardWebhookQuery = { webhook: { id: string, url: string, events: Array<string>, active: boolean, createdAt: string } | null, webhookDeliveries: { deliveries: Array<{ id: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, lastStatusCode: number | null, lastError: string | null, lastAttemptAt: string | null, nextAttemptAt: string | null, createdAt: string, attempts: Array<{ attemptedAt: string, statusCode: number | null, durationMs: number, error: string | null, requestBody: string | null, responseBody: string | null, responseBodyTruncated: boolean, requestHeaders: Array<{ name: string, value: string }> | null, responseHeaders: Array<{ name: string, value: string }> | null }> }> } };

export type DashboardRedeliverMutationVariables = Exact<{
  webhookId: string | number;
  eventId: string | number;
}>;


export type DashboardRedeliverMutation = { redeliverWebhookEvent: { delivery: { id: string, status: WebhookDeliveryStatus } } };

export type DashboardUpdateWebhookMutationVariables = Exact<{
  webhookId: string | number;
  url?: string | null | undefined;
  events?: Array<string> | string | null | undefined;
  active?: boolean | null | undefined;
}>;


export type DashboardUpdateWebhookMutation = { updateWebhook: { webhook: { id: string } } };

export type DashboardRotateWebhookSecretMutationVariables = Exact<{
  webhookId: string | number;
}>;


export type DashboardRotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string | null, previousSecretExpiresAt: string } };

export type DashboardWebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardWebhooksQuery = { webhooks: Array<{ id: string, url: string, events: Array<string>, active: boolean, createdAt: string }> };

export type DashboardCreateWebhookMutationVariables = Exact<{
  url: string;
  events: Array<string> | string;
  secret: string;
}>;


export type DashboardCreateWebhookMutation = { createWebhook: { webhook: { id: string } } };

export type DashboardDeleteWebhookMutationVariables = Exact<{
  webhookId: string | number;
}>;


export type DashboardDeleteWebhookMutation = { deleteWebhook: { deleted: boolean } };

export type DashboardTestWebhookMutationVariables = Exact<{
  webhookId: string | number;
}>;


export type DashboardTestWebhookMutation = { testWebhook: { eventId: string, success: boolean, statusCode: number | null, durationMs: number, error: string | null } };

export type DashboardRescheduleObjectsQueryVariables = Exact<{
  accommodationId: string | number;
}>;


export type DashboardRescheduleObjectsQuery = { bookableObjects: Array<{ id: string, name: string }> };

export type DashboardBookingQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardBookingQuery = { booking: { id: string, reference: string, guestName: string, guestEmail: string, guestPhone: string | null, customerId: string | null, startTime: string, endTime: string, status: BookingStatus, totalPrice: number, currency: string, refundAmount: number | null, createdAt: string, paymentUrl: string, noShowAt: string | null, cancellationReasonCode: CancellationReasonCode | null, cancellationReason: string | null, seriesId: string | null, object: { id: string, name: string, pricePerHour: number, accommodation: { id: string, name: string, timeZone: string } } } | null };

export type DashboardBookingCredentialsQueryVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardBookingCredentialsQuery = { bookingCredentials: { validFrom: string, validUntil: string, qrCode: { svg: string }, sms: { code: string, message: string } } };

export type DashboardBookingAccessQueryVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardBookingAccessQuery = { accessLog: Array<{ id: string, deviceId: string, doorId: string, credentialType: CredentialType | null, allowed: boolean, reason: AccessDenialReason | null, checkedAt: string }> };

export type DashboardBookingWebhookDeliveriesQueryVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardBookingWebhookDeliveriesQuery = { bookingWebhookDeliveries: { deliveries: Array<{ id: string, webhookId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, lastStatusCode: number | null, lastError: string | null, createdAt: string }> } };

export type DashboardCancellationQuoteQueryVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardCancellationQuoteQuery = { cancellationQuote: { refundAmount: number, totalPrice: number, currency: string, policyName: string | null, amountPaid: number, moneyBack: number } };

export type DashboardUpdateBookingStatusMutationVariables = Exact<{
  bookingId: string | number;
  status: BookingStatus;
  reasonCode?: CancellationReasonCode | null | undefined;
  reason?: string | null | undefined;
}>;


export type DashboardUpdateBookingStatusMutation = { updateBookingStatus: { refundAmount: number | null, booking: { id: string, status: BookingStatus, cancellationReasonCode: CancellationReasonCode | null, cancellationReason: string | null, payment: { amountRefunded: number } } } };

export type DashboardMarkNoShowMutationVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardMarkNoShowMutation = { markNoShow: { booking: { id: string, status: BookingStatus, noShowAt: string | null } } };

export type DashboardBookingsQueryVariables = Exact<{
  page?: number | null | undefined;
  pageSize?: number | null | undefined;
  status?: BookingStatus | null | undefined;
  objectId?: string | number | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  guestEmail?: string | null | undefined;
  search?: string | null | undefined;
  paymentStatus?: PaymentStatus | null | undefined;
}>;


export type DashboardBookingsQuery = { bookingPage: { bookings: Array<{ id: string, reference: string, guestName: string, guestEmail: string, objectName: string, startTime: string, endTime: string, status: BookingStatus, totalPrice: number, currency: string, payment: { status: PaymentStatus }, object: { id: string, accommodation: { id: string, timeZone: string } } }>, pagination: { page: number, pageSize: number, total: number } } };

export type DashboardObjectOptionsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardObjectOptionsQuery = { bookableObjects: Array<{ id: string, name: string, accommodation: { id: string, name: string, timeZone: string } }> };

export type DashboardBookingNotificationsQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardBookingNotificationsQuery = { booking: { id: string, notifications: Array<{ id: string, channel: NotificationChannel, kind: NotificationKind, status: NotificationStatus, recipient: string, attempts: number, lastError: string | null, sentAt: string | null, nextAttemptAt: string | null, createdAt: string }> } | null };

export type DashboardResendNotificationMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardResendNotificationMutation = { resendNotification: { id: string, status: NotificationStatus } };

export type DashboardBookingPaymentQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardBookingPaymentQuery = { booking: { id: string, status: BookingStatus, totalPrice: number, currency: string, payment: { status: PaymentStatus, amountPaid: number, amountRefunded: number, currency: string, provider: string | null, paidAt: string | null } } | null, paymentRecords: Array<{ id: string, kind: string, provider: string, amount: number, currency: string, reason: string, note: string | null, actor: string, createdAt: string }> };

export type DashboardMarkBookingPaidMutationVariables = Exact<{
  id: string | number;
  amount: number;
  note?: string | null | undefined;
}>;


export type DashboardMarkBookingPaidMutation = { markBookingPaid: { id: string, status: BookingStatus, payment: { status: PaymentStatus } } };

export type DashboardBookingSeriesQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardBookingSeriesQuery = { bookingSeries: { id: string, rule: string, status: BookingSeriesStatus, occurrences: { totalCount: number, nodes: Array<{ id: string, startTime: string, endTime: string, status: BookingStatus }> } } | null };

export type DashboardCancelSeriesMutationVariables = Exact<{
  id: string | number;
  scope: BookingSeriesScope;
  fromBookingId?: string | number | null | undefined;
}>;


export type DashboardCancelSeriesMutation = { cancelBookingSeries: { series: { id: string, status: BookingSeriesStatus }, cancelled: Array<{ id: string }> } };

export type DashboardGuestLinkQueryVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardGuestLinkQuery = { guestLink: { bookingId: string, manageUrl: string } };

export type DashboardRevokeGuestLinkMutationVariables = Exact<{
  bookingId: string | number;
}>;


export type DashboardRevokeGuestLinkMutation = { revokeGuestLink: { bookingId: string, manageUrl: string } };

export type DashboardCalendarVenuesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardCalendarVenuesQuery = { accommodations: Array<{ id: string, name: string, timeZone: string, objects: Array<{ id: string, name: string, bookingRules: { minDurationMinutes: number, slotIncrementMinutes: number }, openingHours: { specialDates: Array<{ date: string, closed: boolean, reason: string }> } }> }> };

export type DashboardCalendarSlotsQueryVariables = Exact<{
  date: string;
  objectId: string | number;
}>;


export type DashboardCalendarSlotsQuery = { availability: { slots: Array<{ start: string, end: string, available: boolean }> } };

export type DashboardCalendarBookingsQueryVariables = Exact<{
  from?: string | null | undefined;
  to?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type DashboardCalendarBookingsQuery = { bookingsConnection: { edges: Array<{ node: { id: string, objectId: string, guestName: string, guestEmail: string, startTime: string, endTime: string, status: BookingStatus, totalPrice: number, currency: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DashboardDeskQuoteQueryVariables = Exact<{
  objectId: string | number;
  startTime: string;
  endTime: string;
}>;


export type DashboardDeskQuoteQuery = { priceQuote: { totalPrice: number, currency: string, breakdown: string } };

export type DashboardDeskCreateBookingMutationVariables = Exact<{
  objectId: string | number;
  guestName: string;
  guestEmail: string;
  guestPhone?: string | null | undefined;
  startTime: string;
  endTime: string;
  status?: BookingStatus | null | undefined;
}>;


export type DashboardDeskCreateBookingMutation = { createBooking: { booking: { id: string, status: BookingStatus, guestName: string, startTime: string, endTime: string, totalPrice: number, currency: string } } };

export type DashboardRescheduleBookingMutationVariables = Exact<{
  bookingId: string | number;
  startTime: string;
  endTime: string;
  objectId?: string | number | null | undefined;
}>;


export type DashboardRescheduleBookingMutation = { rescheduleBooking: { booking: { id: string, objectId: string, startTime: string, endTime: string, totalPrice: number, currency: string }, previous: { totalPrice: number } } };

export type DashboardUpdateBookingGuestMutationVariables = Exact<{
  bookingId: string | number;
  guestName?: string | null | undefined;
  guestEmail?: string | null | undefined;
  guestPhone?: string | null | undefined;
}>;


export type DashboardUpdateBookingGuestMutation = { updateBookingGuest: { booking: { id: string, guestName: string, guestEmail: string, guestPhone: string | null } } };

export type DashboardSeriesPreviewQueryVariables = Exact<{
  objectId: string | number;
  startTime: string;
  endTime: string;
  rule: string;
}>;


export type DashboardSeriesPreviewQuery = { previewBookingSeries: { rule: string, availableCount: number, conflictCount: number, totalPrice: number, occurrences: Array<{ index: number, startTime: string, endTime: string, available: boolean, conflictCode: string | null, conflictMessage: string | null, totalPrice: number, currency: string }> } };

export type DashboardCreateSeriesMutationVariables = Exact<{
  objectId: string | number;
  guestName: string;
  guestEmail: string;
  guestPhone?: string | null | undefined;
  startTime: string;
  endTime: string;
  rule: string;
  status?: BookingStatus | null | undefined;
}>;


export type DashboardCreateSeriesMutation = { createBookingSeries: { series: { id: string, rule: string }, bookings: Array<{ id: string, guestName: string, startTime: string, endTime: string, totalPrice: number, currency: string, status: BookingStatus }>, conflicts: Array<{ index: number, startTime: string }> } };

export type DashboardCatalogQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardCatalogQuery = { accommodations: Array<{ id: string, name: string, address: string, timeZone: string, objects: Array<{ id: string, name: string, pricePerHour: number }> }>, doors: Array<{ id: string, name: string, gpioPin: number, behavior: DoorBehavior, unlockDurationSeconds: number, objectIds: Array<string> }> };

export type DashboardCreateAccommodationMutationVariables = Exact<{
  name: string;
  address: string;
  timeZone: string;
}>;


export type DashboardCreateAccommodationMutation = { createAccommodation: { id: string } };

export type DashboardUpdateAccommodationMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  address?: string | null | undefined;
  timeZone?: string | null | undefined;
}>;


export type DashboardUpdateAccommodationMutation = { updateAccommodation: { id: string } };

export type DashboardDeleteAccommodationMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeleteAccommodationMutation = { deleteAccommodation: boolean };

export type DashboardCreateObjectMutationVariables = Exact<{
  accommodationId: string | number;
  name: string;
  pricePerHour: number;
}>;


export type DashboardCreateObjectMutation = { createObject: { id: string } };

export type DashboardDeleteObjectMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeleteObjectMutation = { deleteObject: boolean };

export type DashboardCreateDoorMutationVariables = Exact<{
  name: string;
  gpioPin: number;
  behavior?: string | null | undefined;
  unlockDurationSeconds?: number | null | undefined;
  objectIds?: Array<string | number> | string | number | null | undefined;
}>;


export type DashboardCreateDoorMutation = { createDoor: { id: string } };

export type DashboardUpdateDoorMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  gpioPin?: number | null | undefined;
  behavior?: string | null | undefined;
  unlockDurationSeconds?: number | null | undefined;
  objectIds?: Array<string | number> | string | number | null | undefined;
}>;


export type DashboardUpdateDoorMutation = { updateDoor: { id: string } };

export type DashboardDeleteDoorMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeleteDoorMutation = { deleteDoor: boolean };

export type DashboardObjectQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardObjectQuery = { bookableObject: { id: string, name: string, pricePerHour: number, accommodation: { id: string, name: string, timeZone: string }, openingHours: { schedule: { monday: { open: string, close: string } | null, tuesday: { open: string, close: string } | null, wednesday: { open: string, close: string } | null, thursday: { open: string, close: string } | null, friday: { open: string, close: string } | null, saturday: { open: string, close: string } | null, sunday: { open: string, close: string } | null }, specialDates: Array<{ date: string, closed: boolean, reason: string, open: string | null, close: string | null }> }, bookingRules: { minDurationMinutes: number, maxDurationMinutes: number, slotIncrementMinutes: number, minAdvanceMinutes: number, maxAdvanceDays: number, bufferMinutes: number } } | null };

export type DashboardUpdateObjectMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  pricePerHour?: number | null | undefined;
}>;


export type DashboardUpdateObjectMutation = { updateObject: { id: string } };

export type DashboardSetOpeningHoursMutationVariables = Exact<{
  objectId: string | number;
  schedule: WeeklyScheduleInput;
}>;


export type DashboardSetOpeningHoursMutation = { setOpeningHours: { specialDates: Array<{ date: string }> } };

export type DashboardSetSpecialDateMutationVariables = Exact<{
  objectId: string | number;
  date: string;
  closed: boolean;
  reason?: string | null | undefined;
  open?: string | null | undefined;
  close?: string | null | undefined;
}>;


export type DashboardSetSpecialDateMutation = { setSpecialDate: { specialDates: Array<{ date: string }> } };

export type DashboardRemoveSpecialDateMutationVariables = Exact<{
  objectId: string | number;
  date: string;
}>;


export type DashboardRemoveSpecialDateMutation = { removeSpecialDate: { specialDates: Array<{ date: string }> } };

export type DashboardSetBookingRulesMutationVariables = Exact<{
  objectId: string | number;
  rules: BookingRulesInput;
}>;


export type DashboardSetBookingRulesMutation = { setBookingRules: { minDurationMinutes: number } };

export type DashboardDeleteObjectFromPageMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeleteObjectFromPageMutation = { deleteObject: boolean };

export type DashboardCustomerQueryVariables = Exact<{
  id: string | number;
}>;


export type DashboardCustomerQuery = { customer: { id: string, name: string, email: string | null, phone: string | null, notes: string, marketingConsent: boolean, marketingConsentAt: string | null, erasedAt: string | null, createdAt: string, bookingCount: number, noShowCount: number, totalSpent: Array<{ currency: string, paid: number, refunded: number, net: number }>, bookings: { totalCount: number, nodes: Array<{ id: string, reference: string, objectName: string, startTime: string, endTime: string, status: BookingStatus, totalPrice: number, currency: string }> } } };

export type DashboardUpdateCustomerMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  notes?: string | null | undefined;
  marketingConsent?: boolean | null | undefined;
}>;


export type DashboardUpdateCustomerMutation = { updateCustomer: { id: string } };

export type DashboardMergeCustomersMutationVariables = Exact<{
  targetId: string | number;
  sourceIds: Array<string | number> | string | number;
}>;


export type DashboardMergeCustomersMutation = { mergeCustomers: { movedBookings: number, mergedIds: Array<string> } };

export type DashboardEraseCustomerMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardEraseCustomerMutation = { eraseCustomer: { id: string, erasedAt: string | null } };

export type DashboardCustomerDuplicatesQueryVariables = Exact<{
  search?: string | null | undefined;
}>;


export type DashboardCustomerDuplicatesQuery = { customers: Array<{ id: string, name: string, email: string | null, phone: string | null, bookingCount: number }> };

export type DashboardCustomersQueryVariables = Exact<{
  search?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type DashboardCustomersQuery = { customersConnection: { totalCount: number, nodes: Array<{ id: string, name: string, email: string | null, phone: string | null, bookingCount: number, noShowCount: number, erasedAt: string | null, createdAt: string, totalSpent: Array<{ currency: string, net: number }> }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DashboardCancellationPoliciesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardCancellationPoliciesQuery = { cancellationPolicies: Array<{ id: string, name: string, isDefault: boolean, tiers: Array<{ hoursBeforeStart: number, refundPercent: number }> }> };

export type DashboardCreateCancellationPolicyMutationVariables = Exact<{
  name: string;
  isDefault?: boolean | null | undefined;
  tiers: Array<CancellationTierInput> | CancellationTierInput;
}>;


export type DashboardCreateCancellationPolicyMutation = { createCancellationPolicy: { id: string } };

export type DashboardSetDefaultPolicyMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardSetDefaultPolicyMutation = { setDefaultCancellationPolicy: { id: string } };

export type DashboardDeleteCancellationPolicyMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeleteCancellationPolicyMutation = { deleteCancellationPolicy: boolean };

export type DashboardPreviewObjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardPreviewObjectsQuery = { bookableObjects: Array<{ id: string, name: string, accommodation: { id: string, name: string, timeZone: string } }> };

export type DashboardPriceQuoteQueryVariables = Exact<{
  objectId: string | number;
  startTime: string;
  endTime: string;
}>;


export type DashboardPriceQuoteQuery = { priceQuote: { basePrice: number, totalPrice: number, currency: string, breakdown: string, adjustments: Array<{ rule: string, amount: number }> } };

export type DashboardPricingRulesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardPricingRulesQuery = { pricingRules: Array<{ id: string, name: string, type: PricingRuleType, active: boolean, objectIds: Array<string>, percent: number, startTime: string | null, endTime: string | null, weekdays: Array<Weekday> | null, minDurationMinutes: number | null, minDaysInAdvance: number | null }> };

export type DashboardPricingRuleObjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardPricingRuleObjectsQuery = { accommodations: Array<{ id: string, name: string, objects: Array<{ id: string, name: string }> }> };

export type DashboardCreatePricingRuleMutationVariables = Exact<{
  name: string;
  type: string;
  percent: number;
  active?: boolean | null | undefined;
  objectIds?: Array<string | number> | string | number | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  weekdays?: Array<string> | string | null | undefined;
  minDurationMinutes?: number | null | undefined;
  minDaysInAdvance?: number | null | undefined;
}>;


export type DashboardCreatePricingRuleMutation = { createPricingRule: { pricingRule: { id: string } } };

export type DashboardUpdatePricingRuleMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  type?: string | null | undefined;
  percent?: number | null | undefined;
  active?: boolean | null | undefined;
  objectIds?: Array<string | number> | string | number | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  weekdays?: Array<string> | string | null | undefined;
  minDurationMinutes?: number | null | undefined;
  minDaysInAdvance?: number | null | undefined;
}>;


export type DashboardUpdatePricingRuleMutation = { updatePricingRule: { id: string, active: boolean } };

export type DashboardDeactivatePricingRuleMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeactivatePricingRuleMutation = { deactivatePricingRule: { id: string, active: boolean } };

export type DashboardDeletePricingRuleMutationVariables = Exact<{
  id: string | number;
}>;


export type DashboardDeletePricingRuleMutation = { deletePricingRule: boolean };

export type DashboardReportObjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardReportObjectsQuery = { bookableObjects: Array<{ id: string, name: string, accommodation: { id: string, timeZone: string } }> };

export type DashboardReportsQueryVariables = Exact<{
  from: string;
  to: string;
  period?: ReportPeriod | null | undefined;
  objectIds?: Array<string | number> | string | number | null | undefined;
  timeZone?: string | null | undefined;
  cashUpDate: string;
}>;


export type DashboardReportsQuery = { occupancyReport: { cells: Array<{ objectId: string, weekday: number, hour: number, bookedMinutes: number, openMinutes: number }>, objects: Array<{ objectId: string, objectName: string, bookedMinutes: number, openMinutes: number, occupancy: number | null }> }, revenueReport: { rows: Array<{ periodStart: string, currency: string, bookings: number, revenue: number }>, byObject: Array<{ objectId: string, objectName: string, currency: string, bookings: number, revenue: number }>, totals: Array<{ currency: string, bookings: number, revenue: number }> }, paymentsReport: { rows: Array<{ periodStart: string, currency: string, payments: number, paymentCount: number, refunds: number, refundCount: number, net: number }>, totals: Array<{ currency: string, payments: number, refunds: number, net: number }> }, cashUpReport: { date: string, lines: Array<{ currency: string, online: number, onlineCount: number, atVenue: number, atVenueCount: number, refundsOnline: number, refundsAtVenue: number, refundCount: number, net: number, cashInHand: number }> }, noShowReport: { bookings: number, noShows: number, rate: number | null, byObject: Array<{ objectId: string, objectName: string, bookings: number, noShows: number, rate: number | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const DashboardDoorNamesDocument = new TypedDocumentString(`
    query DashboardDoorNames {
  doors {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<DashboardDoorNamesQuery, DashboardDoorNamesQueryVariables>;
export const DashboardChangePasswordDocument = new TypedDocumentString(`
    mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {
  changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {
    signedOutSessions
  }
}
    `) as unknown as TypedDocumentString<DashboardChangePasswordMutation, DashboardChangePasswordMutationVariables>;
export const DashboardOverviewAccommodationsDocument = new TypedDocumentString(`
    query DashboardOverviewAccommodations {
  accommodations {
    id
    name
    timeZone
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewAccommodationsQuery, DashboardOverviewAccommodationsQueryVariables>;
export const DashboardOverviewTodayDocument = new TypedDocumentString(`
    query DashboardOverviewToday($from: String!, $to: String!) {
  bookingPage(from: $from, to: $to, pageSize: 100) {
    bookings {
      id
      guestName
      objectName
      startTime
      endTime
      status
      object {
        id
        accommodationId
      }
    }
    pagination {
      total
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewTodayQuery, DashboardOverviewTodayQueryVariables>;
export const DashboardOverviewDevicesDocument = new TypedDocumentString(`
    query DashboardOverviewDevices {
  devices {
    id
    name
    status
    online
    lastHeartbeatAt
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewDevicesQuery, DashboardOverviewDevicesQueryVariables>;
export const DashboardOverviewAccessDocument = new TypedDocumentString(`
    query DashboardOverviewAccess {
  accessLog(first: 100) {
    id
    deviceId
    doorId
    allowed
    reason
    checkedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewAccessQuery, DashboardOverviewAccessQueryVariables>;
export const DashboardOverviewWebhooksDocument = new TypedDocumentString(`
    query DashboardOverviewWebhooks {
  webhooks {
    id
    url
    active
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewWebhooksQuery, DashboardOverviewWebhooksQueryVariables>;
export const DashboardOverviewFailedDeliveriesDocument = new TypedDocumentString(`
    query DashboardOverviewFailedDeliveries($webhookId: ID!) {
  webhookDeliveries(webhookId: $webhookId, status: FAILED, first: 5) {
    deliveries {
      id
      eventType
      lastStatusCode
      lastError
      lastAttemptAt
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardOverviewFailedDeliveriesQuery, DashboardOverviewFailedDeliveriesQueryVariables>;
export const DashboardPaymentIssuesDocument = new TypedDocumentString(`
    query DashboardPaymentIssues {
  paymentIssues {
    id
    kind
    bookingId
    amount
    currency
    detail
    since
    retryable
  }
}
    `) as unknown as TypedDocumentString<DashboardPaymentIssuesQuery, DashboardPaymentIssuesQueryVariables>;
export const DashboardRetryRefundDocument = new TypedDocumentString(`
    mutation DashboardRetryRefund($bookingId: ID!) {
  retryRefund(bookingId: $bookingId) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardRetryRefundMutation, DashboardRetryRefundMutationVariables>;
export const DashboardAcknowledgePaymentIssueDocument = new TypedDocumentString(`
    mutation DashboardAcknowledgePaymentIssue($id: ID!) {
  acknowledgePaymentIssue(id: $id) {
    id
    acknowledgedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardAcknowledgePaymentIssueMutation, DashboardAcknowledgePaymentIssueMutationVariables>;
export const DashboardApiKeysDocument = new TypedDocumentString(`
    query DashboardApiKeys {
  apiKeys {
    id
    name
    prefix
    scopes
    rateLimitPerMinute
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardApiKeysQuery, DashboardApiKeysQueryVariables>;
export const DashboardCreateApiKeyDocument = new TypedDocumentString(`
    mutation DashboardCreateApiKey($name: String!, $scopes: [String!]!, $rateLimitPerMinute: Int) {
  createApiKey(
    name: $name
    scopes: $scopes
    rateLimitPerMinute: $rateLimitPerMinute
  ) {
    apiKey
    apiKeyInfo {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateApiKeyMutation, DashboardCreateApiKeyMutationVariables>;
export const DashboardRevokeApiKeyDocument = new TypedDocumentString(`
    mutation DashboardRevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardRevokeApiKeyMutation, DashboardRevokeApiKeyMutationVariables>;
export const DashboardAuditLogDocument = new TypedDocumentString(`
    query DashboardAuditLog($first: Int, $after: String) {
  auditLog(first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        occurredAt
        action
        actor {
          type
          label
        }
        targetType
        targetId
        ipAddress
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardAuditLogQuery, DashboardAuditLogQueryVariables>;
export const DashboardBookingPageDocument = new TypedDocumentString(`
    query DashboardBookingPage {
  bookingPageSettings {
    saved
    enabled
    slug
    url
    paymentMode
    onlinePaymentAvailable
    allowedOrigins
    logo
    accentColour
    defaultLocale
    vatRateBasisPoints
    updatedAt
    texts {
      en {
        intro
        cancellationPolicy
        afterBooking
      }
      de {
        intro
        cancellationPolicy
        afterBooking
      }
    }
  }
  viewer {
    id
    name
  }
  bookableObjects {
    id
    name
    published
    accommodation {
      name
    }
  }
  apiKeys {
    id
    kind
    prefix
    publishableKey
    createdAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingPageQuery, DashboardBookingPageQueryVariables>;
export const DashboardSaveBookingPageDocument = new TypedDocumentString(`
    mutation DashboardSaveBookingPage($input: BookingPageSettingsInput!) {
  updateBookingPageSettings(input: $input) {
    saved
    slug
  }
}
    `) as unknown as TypedDocumentString<DashboardSaveBookingPageMutation, DashboardSaveBookingPageMutationVariables>;
export const DashboardPublishObjectsDocument = new TypedDocumentString(`
    mutation DashboardPublishObjects($ids: [ID!]!, $published: Boolean!) {
  publishObjects(ids: $ids, published: $published) {
    objects {
      id
      published
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardPublishObjectsMutation, DashboardPublishObjectsMutationVariables>;
export const DashboardCreatePublishableKeyDocument = new TypedDocumentString(`
    mutation DashboardCreatePublishableKey {
  createPublishableKey {
    apiKey
  }
}
    `) as unknown as TypedDocumentString<DashboardCreatePublishableKeyMutation, DashboardCreatePublishableKeyMutationVariables>;
export const DashboardRevokePublishableKeyDocument = new TypedDocumentString(`
    mutation DashboardRevokePublishableKey($id: ID!) {
  revokeApiKey(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardRevokePublishableKeyMutation, DashboardRevokePublishableKeyMutationVariables>;
export const DashboardDeviceDocument = new TypedDocumentString(`
    query DashboardDevice($id: ID!) {
  device(id: $id) {
    id
    name
    status
    online
    lastHeartbeatAt
    serial
    firmwareVersion
    doors {
      id
      name
    }
  }
  deviceCommands(deviceId: $id, first: 100) {
    command {
      id
      type
      status
      payload
      created_at
      expires_at
    }
    doorId
    deliveredAt
    completedAt
    result
    error
  }
  doors {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<DashboardDeviceQuery, DashboardDeviceQueryVariables>;
export const DashboardDevicesDocument = new TypedDocumentString(`
    query DashboardDevices {
  devices {
    id
    name
    status
    online
    lastHeartbeatAt
    serial
    firmwareVersion
    keyPrefix
    activationExpiresAt
    createdAt
    telemetry {
      cpuPercent
      memoryPercent
      wifiSignalDbm
      doorStates {
        doorId
        state
      }
    }
    doors {
      id
      name
      gpioPin
    }
  }
  doors {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<DashboardDevicesQuery, DashboardDevicesQueryVariables>;
export const DashboardRegisterDeviceDocument = new TypedDocumentString(`
    mutation DashboardRegisterDevice($name: String!, $doorIds: [ID!]!) {
  registerDevice(name: $name, doorIds: $doorIds) {
    activationCode
    device {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardRegisterDeviceMutation, DashboardRegisterDeviceMutationVariables>;
export const DashboardSetDeviceDoorsDocument = new TypedDocumentString(`
    mutation DashboardSetDeviceDoors($id: ID!, $doorIds: [ID!]!) {
  setDeviceDoors(id: $id, doorIds: $doorIds) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardSetDeviceDoorsMutation, DashboardSetDeviceDoorsMutationVariables>;
export const DashboardRevokeDeviceDocument = new TypedDocumentString(`
    mutation DashboardRevokeDevice($id: ID!) {
  revokeDevice(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<DashboardRevokeDeviceMutation, DashboardRevokeDeviceMutationVariables>;
export const DashboardQueueUnlockDocument = new TypedDocumentString(`
    mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {
  createDeviceCommand(deviceId: $deviceId, type: "unlock", doorId: $doorId) {
    command {
      id
      status
      expires_at
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardQueueUnlockMutation, DashboardQueueUnlockMutationVariables>;
export const DashboardUserInvitationsDocument = new TypedDocumentString(`
    query DashboardUserInvitations {
  userInvitations {
    id
    email
    role
    invitedBy
    createdAt
    expiresAt
    expired
  }
}
    `) as unknown as TypedDocumentString<DashboardUserInvitationsQuery, DashboardUserInvitationsQueryVariables>;
export const DashboardInviteUserDocument = new TypedDocumentString(`
    mutation DashboardInviteUser($email: String!, $role: UserRole, $locale: Locale) {
  inviteUser(email: $email, role: $role, locale: $locale) {
    id
    email
  }
}
    `) as unknown as TypedDocumentString<DashboardInviteUserMutation, DashboardInviteUserMutationVariables>;
export const DashboardRevokeUserInvitationDocument = new TypedDocumentString(`
    mutation DashboardRevokeUserInvitation($id: ID!) {
  revokeUserInvitation(id: $id) {
    revokedInvitationId
  }
}
    `) as unknown as TypedDocumentString<DashboardRevokeUserInvitationMutation, DashboardRevokeUserInvitationMutationVariables>;
export const DashboardNotificationSettingsDocument = new TypedDocumentString(`
    query DashboardNotificationSettings {
  notificationSettings {
    emailEnabled
    smsEnabled
    senderName
    replyTo
    reminderHoursBefore
    emailAvailable
    smsAvailable
  }
}
    `) as unknown as TypedDocumentString<DashboardNotificationSettingsQuery, DashboardNotificationSettingsQueryVariables>;
export const DashboardUpdateNotificationSettingsDocument = new TypedDocumentString(`
    mutation DashboardUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {
  updateNotificationSettings(input: $input) {
    emailEnabled
    smsEnabled
    senderName
    replyTo
    reminderHoursBefore
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateNotificationSettingsMutation, DashboardUpdateNotificationSettingsMutationVariables>;
export const DashboardSendTestNotificationEmailDocument = new TypedDocumentString(`
    mutation DashboardSendTestNotificationEmail($to: String!) {
  sendTestNotificationEmail(to: $to) {
    success
    error
  }
}
    `) as unknown as TypedDocumentString<DashboardSendTestNotificationEmailMutation, DashboardSendTestNotificationEmailMutationVariables>;
export const DashboardOAuthAppsDocument = new TypedDocumentString(`
    query DashboardOAuthApps {
  oauthApps {
    clientId
    name
    redirectUris
    scopes
    public
    createdAt
    secretRotatedAt
    authorizedTenantCount
  }
}
    `) as unknown as TypedDocumentString<DashboardOAuthAppsQuery, DashboardOAuthAppsQueryVariables>;
export const DashboardCreateOAuthAppDocument = new TypedDocumentString(`
    mutation DashboardCreateOAuthApp($name: String!, $redirectUris: [String!]!, $scopes: [String!]!, $public: Boolean) {
  createOAuthApp(
    name: $name
    redirectUris: $redirectUris
    scopes: $scopes
    public: $public
  ) {
    clientSecret
    app {
      clientId
      name
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateOAuthAppMutation, DashboardCreateOAuthAppMutationVariables>;
export const DashboardRotateOAuthAppSecretDocument = new TypedDocumentString(`
    mutation DashboardRotateOAuthAppSecret($clientId: ID!) {
  rotateOAuthAppSecret(clientId: $clientId) {
    clientSecret
    app {
      clientId
      name
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardRotateOAuthAppSecretMutation, DashboardRotateOAuthAppSecretMutationVariables>;
export const DashboardDeleteOAuthAppDocument = new TypedDocumentString(`
    mutation DashboardDeleteOAuthApp($clientId: ID!) {
  deleteOAuthApp(clientId: $clientId)
}
    `) as unknown as TypedDocumentString<DashboardDeleteOAuthAppMutation, DashboardDeleteOAuthAppMutationVariables>;
export const DashboardConnectedAppsDocument = new TypedDocumentString(`
    query DashboardConnectedApps {
  connectedApps {
    clientId
    name
    ownerTenantName
    scopes
    authorizedAt
    lastUsedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardConnectedAppsQuery, DashboardConnectedAppsQueryVariables>;
export const DashboardRevokeConnectedAppDocument = new TypedDocumentString(`
    mutation DashboardRevokeConnectedApp($clientId: ID!) {
  revokeConnectedApp(clientId: $clientId)
}
    `) as unknown as TypedDocumentString<DashboardRevokeConnectedAppMutation, DashboardRevokeConnectedAppMutationVariables>;
export const DashboardProviderCredentialsDocument = new TypedDocumentString(`
    query DashboardProviderCredentials {
  providerCredentials {
    stripe {
      set
      hint
      source
      updatedAt
    }
    smtp {
      set
      hint
      source
      updatedAt
    }
    sms {
      set
      hint
      source
      updatedAt
    }
    stripeWebhookUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardProviderCredentialsQuery, DashboardProviderCredentialsQueryVariables>;
export const DashboardSetStripeCredentialsDocument = new TypedDocumentString(`
    mutation DashboardSetStripeCredentials($input: StripeCredentialsInput!) {
  setStripeCredentials(input: $input) {
    stripeWebhookUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardSetStripeCredentialsMutation, DashboardSetStripeCredentialsMutationVariables>;
export const DashboardSetSmtpCredentialsDocument = new TypedDocumentString(`
    mutation DashboardSetSmtpCredentials($input: SmtpCredentialsInput!) {
  setSmtpCredentials(input: $input) {
    stripeWebhookUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardSetSmtpCredentialsMutation, DashboardSetSmtpCredentialsMutationVariables>;
export const DashboardSetSmsCredentialsDocument = new TypedDocumentString(`
    mutation DashboardSetSmsCredentials($input: SmsCredentialsInput!) {
  setSmsCredentials(input: $input) {
    stripeWebhookUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardSetSmsCredentialsMutation, DashboardSetSmsCredentialsMutationVariables>;
export const DashboardClearProviderCredentialsDocument = new TypedDocumentString(`
    mutation DashboardClearProviderCredentials($provider: CredentialProvider!) {
  clearProviderCredentials(provider: $provider) {
    stripeWebhookUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardClearProviderCredentialsMutation, DashboardClearProviderCredentialsMutationVariables>;
export const DashboardUsersDocument = new TypedDocumentString(`
    query DashboardUsers {
  users {
    id
    email
    role
    createdAt
    passwordChangedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardUsersQuery, DashboardUsersQueryVariables>;
export const DashboardCreateUserDocument = new TypedDocumentString(`
    mutation DashboardCreateUser($email: String!, $password: String!, $role: UserRole) {
  createUser(email: $email, password: $password, role: $role) {
    id
    email
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateUserMutation, DashboardCreateUserMutationVariables>;
export const DashboardUpdateUserRoleDocument = new TypedDocumentString(`
    mutation DashboardUpdateUserRole($id: ID!, $role: UserRole!) {
  updateUserRole(id: $id, role: $role) {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateUserRoleMutation, DashboardUpdateUserRoleMutationVariables>;
export const DashboardRemoveUserDocument = new TypedDocumentString(`
    mutation DashboardRemoveUser($id: ID!) {
  removeUser(id: $id) {
    removedUserId
  }
}
    `) as unknown as TypedDocumentString<DashboardRemoveUserMutation, DashboardRemoveUserMutationVariables>;
export const DashboardWebhookDocument = new TypedDocumentString(`
    query DashboardWebhook($id: ID!, $status: WebhookDeliveryStatus) {
  webhook(id: $id) {
    id
    url
    events
    active
    createdAt
  }
  webhookDeliveries(webhookId: $id, status: $status, first: 50) {
    deliveries {
      id
      eventId
      eventType
      status
      attemptCount
      lastStatusCode
      lastError
      lastAttemptAt
      nextAttemptAt
      createdAt
      attempts {
        attemptedAt
        statusCode
        durationMs
        error
        requestHeaders {
          name
          value
        }
        requestBody
        responseHeaders {
          name
          value
        }
        responseBody
        responseBodyTruncated
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardWebhookQuery, DashboardWebhookQueryVariables>;
export const DashboardRedeliverDocument = new TypedDocumentString(`
    mutation DashboardRedeliver($webhookId: ID!, $eventId: ID!) {
  redeliverWebhookEvent(webhookId: $webhookId, eventId: $eventId) {
    delivery {
      id
      status
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardRedeliverMutation, DashboardRedeliverMutationVariables>;
export const DashboardUpdateWebhookDocument = new TypedDocumentString(`
    mutation DashboardUpdateWebhook($webhookId: ID!, $url: String, $events: [String!], $active: Boolean) {
  updateWebhook(
    webhookId: $webhookId
    url: $url
    events: $events
    active: $active
  ) {
    webhook {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateWebhookMutation, DashboardUpdateWebhookMutationVariables>;
export const DashboardRotateWebhookSecretDocument = new TypedDocumentString(`
    mutation DashboardRotateWebhookSecret($webhookId: ID!) {
  rotateWebhookSecret(webhookId: $webhookId) {
    secret
    previousSecretExpiresAt
  }
}
    `) as unknown as TypedDocumentString<DashboardRotateWebhookSecretMutation, DashboardRotateWebhookSecretMutationVariables>;
export const DashboardWebhooksDocument = new TypedDocumentString(`
    query DashboardWebhooks {
  webhooks {
    id
    url
    events
    active
    createdAt
  }
}
    `) as unknown as TypedDocumentString<DashboardWebhooksQuery, DashboardWebhooksQueryVariables>;
export const DashboardCreateWebhookDocument = new TypedDocumentString(`
    mutation DashboardCreateWebhook($url: String!, $events: [String!]!, $secret: String!) {
  createWebhook(url: $url, events: $events, secret: $secret) {
    webhook {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateWebhookMutation, DashboardCreateWebhookMutationVariables>;
export const DashboardDeleteWebhookDocument = new TypedDocumentString(`
    mutation DashboardDeleteWebhook($webhookId: ID!) {
  deleteWebhook(webhookId: $webhookId) {
    deleted
  }
}
    `) as unknown as TypedDocumentString<DashboardDeleteWebhookMutation, DashboardDeleteWebhookMutationVariables>;
export const DashboardTestWebhookDocument = new TypedDocumentString(`
    mutation DashboardTestWebhook($webhookId: ID!) {
  testWebhook(webhookId: $webhookId) {
    eventId
    success
    statusCode
    durationMs
    error
  }
}
    `) as unknown as TypedDocumentString<DashboardTestWebhookMutation, DashboardTestWebhookMutationVariables>;
export const DashboardRescheduleObjectsDocument = new TypedDocumentString(`
    query DashboardRescheduleObjects($accommodationId: ID!) {
  bookableObjects(accommodationId: $accommodationId) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<DashboardRescheduleObjectsQuery, DashboardRescheduleObjectsQueryVariables>;
export const DashboardBookingDocument = new TypedDocumentString(`
    query DashboardBooking($id: ID!) {
  booking(id: $id) {
    id
    reference
    guestName
    guestEmail
    guestPhone
    customerId
    startTime
    endTime
    status
    totalPrice
    currency
    refundAmount
    createdAt
    paymentUrl
    noShowAt
    cancellationReasonCode
    cancellationReason
    seriesId
    object {
      id
      name
      pricePerHour
      accommodation {
        id
        name
        timeZone
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingQuery, DashboardBookingQueryVariables>;
export const DashboardBookingCredentialsDocument = new TypedDocumentString(`
    query DashboardBookingCredentials($bookingId: ID!) {
  bookingCredentials(bookingId: $bookingId) {
    validFrom
    validUntil
    qrCode {
      svg
    }
    sms {
      code
      message
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingCredentialsQuery, DashboardBookingCredentialsQueryVariables>;
export const DashboardBookingAccessDocument = new TypedDocumentString(`
    query DashboardBookingAccess($bookingId: ID!) {
  accessLog(bookingId: $bookingId, first: 50) {
    id
    deviceId
    doorId
    credentialType
    allowed
    reason
    checkedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingAccessQuery, DashboardBookingAccessQueryVariables>;
export const DashboardBookingWebhookDeliveriesDocument = new TypedDocumentString(`
    query DashboardBookingWebhookDeliveries($bookingId: ID!) {
  bookingWebhookDeliveries(bookingId: $bookingId, first: 50) {
    deliveries {
      id
      webhookId
      eventType
      status
      attemptCount
      lastStatusCode
      lastError
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingWebhookDeliveriesQuery, DashboardBookingWebhookDeliveriesQueryVariables>;
export const DashboardCancellationQuoteDocument = new TypedDocumentString(`
    query DashboardCancellationQuote($bookingId: ID!) {
  cancellationQuote(bookingId: $bookingId) {
    refundAmount
    totalPrice
    currency
    policyName
    amountPaid
    moneyBack
  }
}
    `) as unknown as TypedDocumentString<DashboardCancellationQuoteQuery, DashboardCancellationQuoteQueryVariables>;
export const DashboardUpdateBookingStatusDocument = new TypedDocumentString(`
    mutation DashboardUpdateBookingStatus($bookingId: ID!, $status: BookingStatus!, $reasonCode: CancellationReasonCode, $reason: String) {
  updateBookingStatus(
    bookingId: $bookingId
    status: $status
    reasonCode: $reasonCode
    reason: $reason
  ) {
    refundAmount
    booking {
      id
      status
      cancellationReasonCode
      cancellationReason
      payment {
        amountRefunded
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateBookingStatusMutation, DashboardUpdateBookingStatusMutationVariables>;
export const DashboardMarkNoShowDocument = new TypedDocumentString(`
    mutation DashboardMarkNoShow($bookingId: ID!) {
  markNoShow(bookingId: $bookingId) {
    booking {
      id
      status
      noShowAt
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardMarkNoShowMutation, DashboardMarkNoShowMutationVariables>;
export const DashboardBookingsDocument = new TypedDocumentString(`
    query DashboardBookings($page: Int, $pageSize: Int, $status: BookingStatus, $objectId: ID, $from: String, $to: String, $guestEmail: String, $search: String, $paymentStatus: PaymentStatus) {
  bookingPage(
    page: $page
    pageSize: $pageSize
    status: $status
    objectId: $objectId
    from: $from
    to: $to
    guestEmail: $guestEmail
    search: $search
    paymentStatus: $paymentStatus
  ) {
    bookings {
      id
      reference
      guestName
      guestEmail
      objectName
      startTime
      endTime
      status
      totalPrice
      currency
      payment {
        status
      }
      object {
        id
        accommodation {
          id
          timeZone
        }
      }
    }
    pagination {
      page
      pageSize
      total
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingsQuery, DashboardBookingsQueryVariables>;
export const DashboardObjectOptionsDocument = new TypedDocumentString(`
    query DashboardObjectOptions {
  bookableObjects {
    id
    name
    accommodation {
      id
      name
      timeZone
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardObjectOptionsQuery, DashboardObjectOptionsQueryVariables>;
export const DashboardBookingNotificationsDocument = new TypedDocumentString(`
    query DashboardBookingNotifications($id: ID!) {
  booking(id: $id) {
    id
    notifications {
      id
      channel
      kind
      status
      recipient
      attempts
      lastError
      sentAt
      nextAttemptAt
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingNotificationsQuery, DashboardBookingNotificationsQueryVariables>;
export const DashboardResendNotificationDocument = new TypedDocumentString(`
    mutation DashboardResendNotification($id: ID!) {
  resendNotification(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<DashboardResendNotificationMutation, DashboardResendNotificationMutationVariables>;
export const DashboardBookingPaymentDocument = new TypedDocumentString(`
    query DashboardBookingPayment($id: ID!) {
  booking(id: $id) {
    id
    status
    totalPrice
    currency
    payment {
      status
      amountPaid
      amountRefunded
      currency
      provider
      paidAt
    }
  }
  paymentRecords(bookingId: $id) {
    id
    kind
    provider
    amount
    currency
    reason
    note
    actor
    createdAt
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingPaymentQuery, DashboardBookingPaymentQueryVariables>;
export const DashboardMarkBookingPaidDocument = new TypedDocumentString(`
    mutation DashboardMarkBookingPaid($id: ID!, $amount: Int!, $note: String) {
  markBookingPaid(id: $id, amount: $amount, note: $note) {
    id
    status
    payment {
      status
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardMarkBookingPaidMutation, DashboardMarkBookingPaidMutationVariables>;
export const DashboardBookingSeriesDocument = new TypedDocumentString(`
    query DashboardBookingSeries($id: ID!) {
  bookingSeries(id: $id) {
    id
    rule
    status
    occurrences(first: 100) {
      totalCount
      nodes {
        id
        startTime
        endTime
        status
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardBookingSeriesQuery, DashboardBookingSeriesQueryVariables>;
export const DashboardCancelSeriesDocument = new TypedDocumentString(`
    mutation DashboardCancelSeries($id: ID!, $scope: BookingSeriesScope!, $fromBookingId: ID) {
  cancelBookingSeries(id: $id, scope: $scope, fromBookingId: $fromBookingId) {
    series {
      id
      status
    }
    cancelled {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCancelSeriesMutation, DashboardCancelSeriesMutationVariables>;
export const DashboardGuestLinkDocument = new TypedDocumentString(`
    query DashboardGuestLink($bookingId: ID!) {
  guestLink(bookingId: $bookingId) {
    bookingId
    manageUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardGuestLinkQuery, DashboardGuestLinkQueryVariables>;
export const DashboardRevokeGuestLinkDocument = new TypedDocumentString(`
    mutation DashboardRevokeGuestLink($bookingId: ID!) {
  revokeGuestLink(bookingId: $bookingId) {
    bookingId
    manageUrl
  }
}
    `) as unknown as TypedDocumentString<DashboardRevokeGuestLinkMutation, DashboardRevokeGuestLinkMutationVariables>;
export const DashboardCalendarVenuesDocument = new TypedDocumentString(`
    query DashboardCalendarVenues {
  accommodations {
    id
    name
    timeZone
    objects {
      id
      name
      bookingRules {
        minDurationMinutes
        slotIncrementMinutes
      }
      openingHours {
        specialDates {
          date
          closed
          reason
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCalendarVenuesQuery, DashboardCalendarVenuesQueryVariables>;
export const DashboardCalendarSlotsDocument = new TypedDocumentString(`
    query DashboardCalendarSlots($date: String!, $objectId: ID!) {
  availability(date: $date, objectId: $objectId) {
    slots {
      start
      end
      available
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCalendarSlotsQuery, DashboardCalendarSlotsQueryVariables>;
export const DashboardCalendarBookingsDocument = new TypedDocumentString(`
    query DashboardCalendarBookings($from: DateTime, $to: DateTime, $after: String) {
  bookingsConnection(from: $from, to: $to, first: 100, after: $after) {
    edges {
      node {
        id
        objectId
        guestName
        guestEmail
        startTime
        endTime
        status
        totalPrice
        currency
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCalendarBookingsQuery, DashboardCalendarBookingsQueryVariables>;
export const DashboardDeskQuoteDocument = new TypedDocumentString(`
    query DashboardDeskQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {
  priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {
    totalPrice
    currency
    breakdown
  }
}
    `) as unknown as TypedDocumentString<DashboardDeskQuoteQuery, DashboardDeskQuoteQueryVariables>;
export const DashboardDeskCreateBookingDocument = new TypedDocumentString(`
    mutation DashboardDeskCreateBooking($objectId: ID!, $guestName: String!, $guestEmail: String!, $guestPhone: String, $startTime: DateTime!, $endTime: DateTime!, $status: BookingStatus) {
  createBooking(
    objectId: $objectId
    guestName: $guestName
    guestEmail: $guestEmail
    guestPhone: $guestPhone
    startTime: $startTime
    endTime: $endTime
    status: $status
  ) {
    booking {
      id
      status
      guestName
      startTime
      endTime
      totalPrice
      currency
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardDeskCreateBookingMutation, DashboardDeskCreateBookingMutationVariables>;
export const DashboardRescheduleBookingDocument = new TypedDocumentString(`
    mutation DashboardRescheduleBooking($bookingId: ID!, $startTime: DateTime!, $endTime: DateTime!, $objectId: ID) {
  rescheduleBooking(
    bookingId: $bookingId
    startTime: $startTime
    endTime: $endTime
    objectId: $objectId
  ) {
    booking {
      id
      objectId
      startTime
      endTime
      totalPrice
      currency
    }
    previous {
      totalPrice
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardRescheduleBookingMutation, DashboardRescheduleBookingMutationVariables>;
export const DashboardUpdateBookingGuestDocument = new TypedDocumentString(`
    mutation DashboardUpdateBookingGuest($bookingId: ID!, $guestName: String, $guestEmail: String, $guestPhone: String) {
  updateBookingGuest(
    bookingId: $bookingId
    guestName: $guestName
    guestEmail: $guestEmail
    guestPhone: $guestPhone
  ) {
    booking {
      id
      guestName
      guestEmail
      guestPhone
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateBookingGuestMutation, DashboardUpdateBookingGuestMutationVariables>;
export const DashboardSeriesPreviewDocument = new TypedDocumentString(`
    query DashboardSeriesPreview($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!, $rule: String!) {
  previewBookingSeries(
    objectId: $objectId
    startTime: $startTime
    endTime: $endTime
    rule: $rule
  ) {
    rule
    availableCount
    conflictCount
    totalPrice
    occurrences {
      index
      startTime
      endTime
      available
      conflictCode
      conflictMessage
      totalPrice
      currency
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardSeriesPreviewQuery, DashboardSeriesPreviewQueryVariables>;
export const DashboardCreateSeriesDocument = new TypedDocumentString(`
    mutation DashboardCreateSeries($objectId: ID!, $guestName: String!, $guestEmail: String!, $guestPhone: String, $startTime: DateTime!, $endTime: DateTime!, $rule: String!, $status: BookingStatus) {
  createBookingSeries(
    objectId: $objectId
    guestName: $guestName
    guestEmail: $guestEmail
    guestPhone: $guestPhone
    startTime: $startTime
    endTime: $endTime
    rule: $rule
    status: $status
  ) {
    series {
      id
      rule
    }
    bookings {
      id
      guestName
      startTime
      endTime
      totalPrice
      currency
      status
    }
    conflicts {
      index
      startTime
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateSeriesMutation, DashboardCreateSeriesMutationVariables>;
export const DashboardCatalogDocument = new TypedDocumentString(`
    query DashboardCatalog {
  accommodations {
    id
    name
    address
    timeZone
    objects {
      id
      name
      pricePerHour
    }
  }
  doors {
    id
    name
    gpioPin
    behavior
    unlockDurationSeconds
    objectIds
  }
}
    `) as unknown as TypedDocumentString<DashboardCatalogQuery, DashboardCatalogQueryVariables>;
export const DashboardCreateAccommodationDocument = new TypedDocumentString(`
    mutation DashboardCreateAccommodation($name: String!, $address: String!, $timeZone: String!) {
  createAccommodation(name: $name, address: $address, timeZone: $timeZone) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateAccommodationMutation, DashboardCreateAccommodationMutationVariables>;
export const DashboardUpdateAccommodationDocument = new TypedDocumentString(`
    mutation DashboardUpdateAccommodation($id: ID!, $name: String, $address: String, $timeZone: String) {
  updateAccommodation(
    id: $id
    name: $name
    address: $address
    timeZone: $timeZone
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateAccommodationMutation, DashboardUpdateAccommodationMutationVariables>;
export const DashboardDeleteAccommodationDocument = new TypedDocumentString(`
    mutation DashboardDeleteAccommodation($id: ID!) {
  deleteAccommodation(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeleteAccommodationMutation, DashboardDeleteAccommodationMutationVariables>;
export const DashboardCreateObjectDocument = new TypedDocumentString(`
    mutation DashboardCreateObject($accommodationId: ID!, $name: String!, $pricePerHour: Int!) {
  createObject(
    accommodationId: $accommodationId
    name: $name
    pricePerHour: $pricePerHour
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateObjectMutation, DashboardCreateObjectMutationVariables>;
export const DashboardDeleteObjectDocument = new TypedDocumentString(`
    mutation DashboardDeleteObject($id: ID!) {
  deleteObject(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeleteObjectMutation, DashboardDeleteObjectMutationVariables>;
export const DashboardCreateDoorDocument = new TypedDocumentString(`
    mutation DashboardCreateDoor($name: String!, $gpioPin: Int!, $behavior: String, $unlockDurationSeconds: Int, $objectIds: [ID!]) {
  createDoor(
    name: $name
    gpioPin: $gpioPin
    behavior: $behavior
    unlockDurationSeconds: $unlockDurationSeconds
    objectIds: $objectIds
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateDoorMutation, DashboardCreateDoorMutationVariables>;
export const DashboardUpdateDoorDocument = new TypedDocumentString(`
    mutation DashboardUpdateDoor($id: ID!, $name: String, $gpioPin: Int, $behavior: String, $unlockDurationSeconds: Int, $objectIds: [ID!]) {
  updateDoor(
    id: $id
    name: $name
    gpioPin: $gpioPin
    behavior: $behavior
    unlockDurationSeconds: $unlockDurationSeconds
    objectIds: $objectIds
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateDoorMutation, DashboardUpdateDoorMutationVariables>;
export const DashboardDeleteDoorDocument = new TypedDocumentString(`
    mutation DashboardDeleteDoor($id: ID!) {
  deleteDoor(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeleteDoorMutation, DashboardDeleteDoorMutationVariables>;
export const DashboardObjectDocument = new TypedDocumentString(`
    query DashboardObject($id: ID!) {
  bookableObject(id: $id) {
    id
    name
    pricePerHour
    accommodation {
      id
      name
      timeZone
    }
    openingHours {
      schedule {
        monday {
          open
          close
        }
        tuesday {
          open
          close
        }
        wednesday {
          open
          close
        }
        thursday {
          open
          close
        }
        friday {
          open
          close
        }
        saturday {
          open
          close
        }
        sunday {
          open
          close
        }
      }
      specialDates {
        date
        closed
        reason
        open
        close
      }
    }
    bookingRules {
      minDurationMinutes
      maxDurationMinutes
      slotIncrementMinutes
      minAdvanceMinutes
      maxAdvanceDays
      bufferMinutes
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardObjectQuery, DashboardObjectQueryVariables>;
export const DashboardUpdateObjectDocument = new TypedDocumentString(`
    mutation DashboardUpdateObject($id: ID!, $name: String, $pricePerHour: Int) {
  updateObject(id: $id, name: $name, pricePerHour: $pricePerHour) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateObjectMutation, DashboardUpdateObjectMutationVariables>;
export const DashboardSetOpeningHoursDocument = new TypedDocumentString(`
    mutation DashboardSetOpeningHours($objectId: ID!, $schedule: WeeklyScheduleInput!) {
  setOpeningHours(objectId: $objectId, schedule: $schedule) {
    specialDates {
      date
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardSetOpeningHoursMutation, DashboardSetOpeningHoursMutationVariables>;
export const DashboardSetSpecialDateDocument = new TypedDocumentString(`
    mutation DashboardSetSpecialDate($objectId: ID!, $date: String!, $closed: Boolean!, $reason: String, $open: String, $close: String) {
  setSpecialDate(
    objectId: $objectId
    date: $date
    closed: $closed
    reason: $reason
    open: $open
    close: $close
  ) {
    specialDates {
      date
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardSetSpecialDateMutation, DashboardSetSpecialDateMutationVariables>;
export const DashboardRemoveSpecialDateDocument = new TypedDocumentString(`
    mutation DashboardRemoveSpecialDate($objectId: ID!, $date: String!) {
  removeSpecialDate(objectId: $objectId, date: $date) {
    specialDates {
      date
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardRemoveSpecialDateMutation, DashboardRemoveSpecialDateMutationVariables>;
export const DashboardSetBookingRulesDocument = new TypedDocumentString(`
    mutation DashboardSetBookingRules($objectId: ID!, $rules: BookingRulesInput!) {
  setBookingRules(objectId: $objectId, rules: $rules) {
    minDurationMinutes
  }
}
    `) as unknown as TypedDocumentString<DashboardSetBookingRulesMutation, DashboardSetBookingRulesMutationVariables>;
export const DashboardDeleteObjectFromPageDocument = new TypedDocumentString(`
    mutation DashboardDeleteObjectFromPage($id: ID!) {
  deleteObject(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeleteObjectFromPageMutation, DashboardDeleteObjectFromPageMutationVariables>;
export const DashboardCustomerDocument = new TypedDocumentString(`
    query DashboardCustomer($id: ID!) {
  customer(id: $id) {
    id
    name
    email
    phone
    notes
    marketingConsent
    marketingConsentAt
    erasedAt
    createdAt
    bookingCount
    noShowCount
    totalSpent {
      currency
      paid
      refunded
      net
    }
    bookings(first: 50) {
      totalCount
      nodes {
        id
        reference
        objectName
        startTime
        endTime
        status
        totalPrice
        currency
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCustomerQuery, DashboardCustomerQueryVariables>;
export const DashboardUpdateCustomerDocument = new TypedDocumentString(`
    mutation DashboardUpdateCustomer($id: ID!, $name: String, $email: String, $phone: String, $notes: String, $marketingConsent: Boolean) {
  updateCustomer(
    id: $id
    name: $name
    email: $email
    phone: $phone
    notes: $notes
    marketingConsent: $marketingConsent
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdateCustomerMutation, DashboardUpdateCustomerMutationVariables>;
export const DashboardMergeCustomersDocument = new TypedDocumentString(`
    mutation DashboardMergeCustomers($targetId: ID!, $sourceIds: [ID!]!) {
  mergeCustomers(targetId: $targetId, sourceIds: $sourceIds) {
    movedBookings
    mergedIds
  }
}
    `) as unknown as TypedDocumentString<DashboardMergeCustomersMutation, DashboardMergeCustomersMutationVariables>;
export const DashboardEraseCustomerDocument = new TypedDocumentString(`
    mutation DashboardEraseCustomer($id: ID!) {
  eraseCustomer(id: $id) {
    id
    erasedAt
  }
}
    `) as unknown as TypedDocumentString<DashboardEraseCustomerMutation, DashboardEraseCustomerMutationVariables>;
export const DashboardCustomerDuplicatesDocument = new TypedDocumentString(`
    query DashboardCustomerDuplicates($search: String) {
  customers(search: $search, first: 10) {
    id
    name
    email
    phone
    bookingCount
  }
}
    `) as unknown as TypedDocumentString<DashboardCustomerDuplicatesQuery, DashboardCustomerDuplicatesQueryVariables>;
export const DashboardCustomersDocument = new TypedDocumentString(`
    query DashboardCustomers($search: String, $first: Int, $after: String) {
  customersConnection(search: $search, first: $first, after: $after) {
    totalCount
    nodes {
      id
      name
      email
      phone
      bookingCount
      noShowCount
      erasedAt
      createdAt
      totalSpent {
        currency
        net
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCustomersQuery, DashboardCustomersQueryVariables>;
export const DashboardCancellationPoliciesDocument = new TypedDocumentString(`
    query DashboardCancellationPolicies {
  cancellationPolicies {
    id
    name
    isDefault
    tiers {
      hoursBeforeStart
      refundPercent
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCancellationPoliciesQuery, DashboardCancellationPoliciesQueryVariables>;
export const DashboardCreateCancellationPolicyDocument = new TypedDocumentString(`
    mutation DashboardCreateCancellationPolicy($name: String!, $isDefault: Boolean, $tiers: [CancellationTierInput!]!) {
  createCancellationPolicy(name: $name, isDefault: $isDefault, tiers: $tiers) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardCreateCancellationPolicyMutation, DashboardCreateCancellationPolicyMutationVariables>;
export const DashboardSetDefaultPolicyDocument = new TypedDocumentString(`
    mutation DashboardSetDefaultPolicy($id: ID!) {
  setDefaultCancellationPolicy(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<DashboardSetDefaultPolicyMutation, DashboardSetDefaultPolicyMutationVariables>;
export const DashboardDeleteCancellationPolicyDocument = new TypedDocumentString(`
    mutation DashboardDeleteCancellationPolicy($id: ID!) {
  deleteCancellationPolicy(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeleteCancellationPolicyMutation, DashboardDeleteCancellationPolicyMutationVariables>;
export const DashboardPreviewObjectsDocument = new TypedDocumentString(`
    query DashboardPreviewObjects {
  bookableObjects {
    id
    name
    accommodation {
      id
      name
      timeZone
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardPreviewObjectsQuery, DashboardPreviewObjectsQueryVariables>;
export const DashboardPriceQuoteDocument = new TypedDocumentString(`
    query DashboardPriceQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {
  priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {
    basePrice
    adjustments {
      rule
      amount
    }
    totalPrice
    currency
    breakdown
  }
}
    `) as unknown as TypedDocumentString<DashboardPriceQuoteQuery, DashboardPriceQuoteQueryVariables>;
export const DashboardPricingRulesDocument = new TypedDocumentString(`
    query DashboardPricingRules {
  pricingRules {
    id
    name
    type
    active
    objectIds
    percent
    startTime
    endTime
    weekdays
    minDurationMinutes
    minDaysInAdvance
  }
}
    `) as unknown as TypedDocumentString<DashboardPricingRulesQuery, DashboardPricingRulesQueryVariables>;
export const DashboardPricingRuleObjectsDocument = new TypedDocumentString(`
    query DashboardPricingRuleObjects {
  accommodations {
    id
    name
    objects {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardPricingRuleObjectsQuery, DashboardPricingRuleObjectsQueryVariables>;
export const DashboardCreatePricingRuleDocument = new TypedDocumentString(`
    mutation DashboardCreatePricingRule($name: String!, $type: String!, $percent: Int!, $active: Boolean, $objectIds: [ID!], $startTime: String, $endTime: String, $weekdays: [String!], $minDurationMinutes: Int, $minDaysInAdvance: Int) {
  createPricingRule(
    name: $name
    type: $type
    percent: $percent
    active: $active
    objectIds: $objectIds
    startTime: $startTime
    endTime: $endTime
    weekdays: $weekdays
    minDurationMinutes: $minDurationMinutes
    minDaysInAdvance: $minDaysInAdvance
  ) {
    pricingRule {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardCreatePricingRuleMutation, DashboardCreatePricingRuleMutationVariables>;
export const DashboardUpdatePricingRuleDocument = new TypedDocumentString(`
    mutation DashboardUpdatePricingRule($id: ID!, $name: String, $type: String, $percent: Int, $active: Boolean, $objectIds: [ID!], $startTime: String, $endTime: String, $weekdays: [String!], $minDurationMinutes: Int, $minDaysInAdvance: Int) {
  updatePricingRule(
    id: $id
    name: $name
    type: $type
    percent: $percent
    active: $active
    objectIds: $objectIds
    startTime: $startTime
    endTime: $endTime
    weekdays: $weekdays
    minDurationMinutes: $minDurationMinutes
    minDaysInAdvance: $minDaysInAdvance
  ) {
    id
    active
  }
}
    `) as unknown as TypedDocumentString<DashboardUpdatePricingRuleMutation, DashboardUpdatePricingRuleMutationVariables>;
export const DashboardDeactivatePricingRuleDocument = new TypedDocumentString(`
    mutation DashboardDeactivatePricingRule($id: ID!) {
  deactivatePricingRule(id: $id) {
    id
    active
  }
}
    `) as unknown as TypedDocumentString<DashboardDeactivatePricingRuleMutation, DashboardDeactivatePricingRuleMutationVariables>;
export const DashboardDeletePricingRuleDocument = new TypedDocumentString(`
    mutation DashboardDeletePricingRule($id: ID!) {
  deletePricingRule(id: $id)
}
    `) as unknown as TypedDocumentString<DashboardDeletePricingRuleMutation, DashboardDeletePricingRuleMutationVariables>;
export const DashboardReportObjectsDocument = new TypedDocumentString(`
    query DashboardReportObjects {
  bookableObjects {
    id
    name
    accommodation {
      id
      timeZone
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardReportObjectsQuery, DashboardReportObjectsQueryVariables>;
export const DashboardReportsDocument = new TypedDocumentString(`
    query DashboardReports($from: LocalDate!, $to: LocalDate!, $period: ReportPeriod, $objectIds: [ID!], $timeZone: String, $cashUpDate: LocalDate!) {
  occupancyReport(
    from: $from
    to: $to
    objectIds: $objectIds
    timeZone: $timeZone
  ) {
    cells {
      objectId
      weekday
      hour
      bookedMinutes
      openMinutes
    }
    objects {
      objectId
      objectName
      bookedMinutes
      openMinutes
      occupancy
    }
  }
  revenueReport(
    from: $from
    to: $to
    period: $period
    objectIds: $objectIds
    timeZone: $timeZone
  ) {
    rows {
      periodStart
      currency
      bookings
      revenue
    }
    byObject {
      objectId
      objectName
      currency
      bookings
      revenue
    }
    totals {
      currency
      bookings
      revenue
    }
  }
  paymentsReport(
    from: $from
    to: $to
    period: $period
    objectIds: $objectIds
    timeZone: $timeZone
  ) {
    rows {
      periodStart
      currency
      payments
      paymentCount
      refunds
      refundCount
      net
    }
    totals {
      currency
      payments
      refunds
      net
    }
  }
  cashUpReport(date: $cashUpDate, objectIds: $objectIds, timeZone: $timeZone) {
    date
    lines {
      currency
      online
      onlineCount
      atVenue
      atVenueCount
      refundsOnline
      refundsAtVenue
      refundCount
      net
      cashInHand
    }
  }
  noShowReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {
    byObject {
      objectId
      objectName
      bookings
      noShows
      rate
    }
    bookings
    noShows
    rate
  }
}
    `) as unknown as TypedDocumentString<DashboardReportsQuery, DashboardReportsQueryVariables>;