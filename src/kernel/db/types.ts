import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { DB as GeneratedDB } from './schema.generated.js';
import type { Locale } from '../i18n.js';

// Row types of every table. Feature modules add their tables here as their migrations add them.

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;
/** An integrator's own keys and values on a booking or an object (src/kernel/metadata.ts checks them). */
export type Metadata = Record<string, string>;

export interface TenantsTable {
  id: Generated<string>;
  name: string;
  created_at: CreatedAt;
  /** False for a sandbox tenant (test mode, docs/test-mode.md). */
  livemode: Generated<boolean>;
  /** A sandbox's live tenant; null for a live tenant. */
  live_tenant_id: string | null;
}

export interface ApiKeysTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: string[];
  rate_limit_per_minute: number | null;
  created_at: CreatedAt;
  revoked_at: NullableTimestamp;
  /** Refreshed at most once a minute (LAST_USED_RESOLUTION_MS). */
  last_used_at: NullableTimestamp;
  /** secret (svc_…) or publishable (svc_pk_…, the booking_page scope only; docs/booking-page.md). */
  kind: Generated<ApiKeyKind>;
  /** A publishable key's value (safe in a browser, shown again); null for a secret key. */
  publishable_key: string | null;
}

export type ApiKeyKind = 'secret' | 'publishable';

export interface AccommodationsTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  address: string;
  time_zone: string;
  created_at: CreatedAt;
}

export interface DayHours {
  open: string;
  close: string;
}
export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export type WeeklySchedule = Partial<Record<Weekday, DayHours>>;

export interface ObjectsTable {
  id: Generated<string>;
  tenant_id: string;
  accommodation_id: string;
  name: string;
  price_per_hour: number;
  opening_hours: Json<WeeklySchedule>;
  min_duration_minutes: Generated<number>;
  max_duration_minutes: Generated<number>;
  slot_increment_minutes: Generated<number>;
  min_advance_minutes: Generated<number>;
  max_advance_days: Generated<number>;
  buffer_minutes: Generated<number>;
  created_at: CreatedAt;
  /** The integrator's own string→string map (src/kernel/metadata.ts). */
  metadata: ColumnType<Metadata, string | undefined, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Shown on the venue's public booking page (booking_pages; docs/booking-page.md). */
  published: Generated<boolean>;
}

export interface SpecialDatesTable {
  tenant_id: string;
  object_id: string;
  date: string;
  closed: boolean;
  reason: Generated<string>;
  open: string | null;
  close: string | null;
}

export interface DoorsTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  gpio_pin: number;
  behavior: Generated<string>;
  unlock_duration_seconds: Generated<number>;
  created_at: CreatedAt;
}

export interface DoorObjectsTable {
  tenant_id: string;
  door_id: string;
  object_id: string;
}

export type BookingStatus = 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';

export interface BookingsTable {
  id: Generated<string>;
  tenant_id: string;
  object_id: string;
  guest_name: string;
  guest_email: string;
  guest_phone: string | null;
  start_time: Timestamp;
  end_time: Timestamp;
  blocked_until: Timestamp;
  status: BookingStatus;
  total_price: number;
  currency: Generated<string>;
  refund_amount: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The last data.sequence given to one of the booking's events. */
  event_sequence: Generated<number>;
  payment_status: Generated<PaymentStatus>;
  /** Cents received (the payments ledger's sum of payments). */
  amount_paid: Generated<number>;
  /** Cents given back (the ledger's sum of refunds); never more than amount_paid. */
  amount_refunded: Generated<number>;
  payment_provider: PaymentProvider | null;
  paid_at: Timestamp | null;
  /** The integrator's own string→string map (src/kernel/metadata.ts). */
  metadata: ColumnType<Metadata, string | undefined, string>;
  /** The manage link's (/b/{token}) version: raising it revokes every link given out so far. */
  guest_link_version: Generated<number>;
  /** `PRT-7KQ2M`: unique per tenant, filled by the bookings_reference trigger when an insert leaves it out. */
  reference: Generated<string>;
  /** The language the guest chose (en|de); null: the venue's default_locale, else en. */
  guest_locale: ColumnType<Locale | null, Locale | null | undefined, Locale | null>;
  /** When staff marked the CONFIRMED booking a no-show (after its start); null: not a no-show. */
  no_show_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Why it was cancelled (CancellationReasonCode); null when not cancelled or no reason was given. */
  cancellation_reason_code: ColumnType<
    CancellationReasonCode | null,
    CancellationReasonCode | null | undefined,
    CancellationReasonCode | null
  >;
  /** The cancellation's free text, at most 500 characters. */
  cancellation_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The series this booking is an occurrence of (migration 202612030200); null for a single booking. */
  series_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The occurrence's start as the series' rule made it (its RECURRENCE-ID); null outside a series. */
  series_start: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The customer the booking was matched to (src/modules/customers, docs/customers.md); null: none yet. */
  customer_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Why a booking was cancelled (docs/bookings.md, "Cancellation reasons"). */
export type CancellationReasonCode =
  'GUEST_REQUEST' | 'NO_PAYMENT' | 'WEATHER' | 'MAINTENANCE' | 'DUPLICATE' | 'VENUE_CLOSED' | 'OTHER';

export type PaymentStatus = 'UNPAID' | 'PAID' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
export type PaymentProvider = 'stripe' | 'venue';

/** The payments ledger: one row per charge or refund (docs/payments.md). */
export interface PaymentsTable {
  id: Generated<string>;
  tenant_id: string;
  booking_id: string;
  kind: 'payment' | 'refund';
  provider: PaymentProvider;
  amount: number;
  currency: string;
  /** Why: checkout, venue, cancellation, cancelled_before_payment. */
  reason: string;
  /** The provider event applied (unique per provider): an event applies at most once. */
  provider_event_id: string | null;
  /** The provider's id of the charge (payment intent) or refund. */
  provider_reference: string | null;
  note: string | null;
  actor_label: string;
  created_at: CreatedAt;
}

/** The Checkout Session a booking's paymentUrl opened, reused while it has not expired. */
export interface CheckoutSessionsTable {
  session_id: string;
  tenant_id: string;
  booking_id: string;
  url: string;
  amount: number;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** The refund outbox: a refund the worker gives back through the provider (docs/payments.md, "Refunds"). */
export interface RefundIntentsTable {
  id: Generated<string>;
  tenant_id: string;
  booking_id: string;
  amount: number;
  currency: string;
  provider: 'stripe';
  /** The payment intent refunded. */
  payment_reference: string;
  /** cancellation, cancelled_before_payment. */
  reason: string;
  idempotency_key: string;
  status: Generated<RefundIntentStatus>;
  attempts: Generated<number>;
  /** When the next attempt may start; a claim moves it past the call's deadline (the lease). */
  next_attempt_at: Timestamp;
  last_error: string | null;
  provider_refund_id: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** A failed refund staff settled by hand (acknowledgePaymentIssue); null while it is flagged. */
  acknowledged_at: NullableTimestamp;
  acknowledged_by: string | null;
}
export type RefundIntentStatus = 'pending' | 'succeeded' | 'failed';

export type BookingPagePaymentMode = 'online_required' | 'online_optional' | 'at_venue';

/** A venue's own guest-facing texts per language (docs/booking-page.md). */
export type BookingPageTexts = Partial<Record<'en' | 'de', Record<string, string>>>;

/** A venue's own Stripe, SMTP and SMS credentials, sealed (src/modules/credentials). */
export interface ProviderCredentialsTable {
  tenant_id: string;
  kind: 'stripe' | 'smtp' | 'sms';
  /** JSON sealed with AES-256-GCM (ServerSecret.sealerFor('provider-credentials')); never the clear value. */
  sealed: string;
  /** What may be shown again: a key's last 4 characters, the SMTP host. */
  hint: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BookingPagesTable {
  tenant_id: string;
  enabled: Generated<boolean>;
  /** The page's address: /book/{slug}; unique across tenants. */
  slug: string;
  payment_mode: Generated<BookingPagePaymentMode>;
  /** Origins the widget may be embedded in (scheme://host[:port]). */
  allowed_origins: Generated<string[]>;
  /** A data: URL (PNG, JPEG, WebP or SVG), at most 200,000 characters. */
  logo: string | null;
  /** #rrggbb */
  accent_colour: string | null;
  default_locale: Generated<'en' | 'de'>;
  texts: ColumnType<BookingPageTexts, string | undefined, string>;
  /** VAT printed on receipts, in basis points (1900 = 19 %); null: no VAT line. */
  vat_rate_basis_points: number | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A difference with the provider, kept for the dashboard's notice (docs/payments.md, "Payment issues"). */
export interface PaymentDiscrepanciesTable {
  id: Generated<string>;
  tenant_id: string;
  booking_id: string;
  provider: 'stripe';
  /** refund_not_at_provider, refund_not_recordable, session_not_applied, checkout_amount_mismatch. */
  kind: string;
  /** The provider's object (a refund or a Checkout Session id): one row per object and kind. */
  reference: string;
  amount: number;
  currency: string;
  detail: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  acknowledged_at: NullableTimestamp;
  acknowledged_by: string | null;
}

export interface TenantSettingsTable {
  tenant_id: string;
  confirm_on_payment: Generated<boolean>;
  pending_expiry_minutes: number | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface EventsTable {
  id: Generated<string>;
  tenant_id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  fanned_out_at: NullableTimestamp;
  /** The id of the transaction that wrote the event (xid8, as text): the feed's order (docs/events.md). */
  xact_id: Generated<string>;
  /** Increases within a transaction: the feed's order among one transaction's events (int8, as text). */
  seq: Generated<string>;
}

export type PricingRuleType = 'time_based' | 'day_based' | 'duration_based' | 'early_bird';

export interface PricingRulesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  type: PricingRuleType;
  active: Generated<boolean>;
  object_ids: ColumnType<string[], string[] | undefined, string[]>;
  percent: number;
  start_time: string | null;
  end_time: string | null;
  weekdays: Weekday[] | null;
  min_duration_minutes: number | null;
  min_days_in_advance: number | null;
  created_at: CreatedAt;
  /** Creation order (identity). */
  position: Generated<number>;
}

export interface CancellationTier {
  hoursBeforeStart: number;
  refundPercent: number;
}

export interface CancellationPoliciesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  is_default: Generated<boolean>;
  tiers: Json<CancellationTier[]>;
  created_at: CreatedAt;
  /** Creation order (identity). */
  position: Generated<number>;
}

export interface WebhooksTable {
  id: Generated<string>;
  tenant_id: string;
  url: string;
  events: string[];
  secret_sealed: string;
  active: Generated<boolean>;
  deactivated_at: NullableTimestamp;
  deactivated_reason: string | null;
  created_at: CreatedAt;
  /** The secret a rotation replaced, sealed; it signs too until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: NullableTimestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  status: WebhookDeliveryStatus;
  attempt_count: Generated<number>;
  retry_step: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  completed_at: NullableTimestamp;
  /** The event's booking (or device) id when it carries a sequence: deliveries of one key go in order. */
  order_key: string | null;
  /** The event's data.sequence, the order within order_key. */
  order_sequence: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  tenant_id: string;
  delivery_id: string;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The headers sent (JSON object of strings), and the body; null on attempts made before they were kept. */
  request_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  request_body: string | null;
  /** The receiver's headers, and the first 4 KiB of its body; null when no response arrived. */
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  response_body_truncated: Generated<boolean>;
}

export interface NotificationSettingsTable {
  tenant_id: string;
  email_enabled: Generated<boolean>;
  sms_enabled: Generated<boolean>;
  sender_name: string | null;
  reply_to: string | null;
  reminder_hours_before: number | null;
  updated_at: Timestamp;
}

export type NotificationChannel = 'email' | 'sms';
export type NotificationKind =
  'confirmed' | 'rescheduled' | 'cancelled' | 'reminder' | 'payment_due' | 'receipt' | 'series_confirmed';
export type NotificationStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'unknown' | 'cancelled';

/** What a notification tells, as it was when the change committed (docs/notifications.md). */
export interface NotificationData {
  booking: {
    id: string;
    objectName: string;
    guestName: string;
    startTime: string;
    endTime: string;
    totalPrice: number;
    currency: string;
    refundAmount: number | null;
    /** Cents still to pay when a payment_due message was queued. */
    amountDue?: number;
  };
  accommodation: { name: string; address: string; timeZone: string };
  /** The payment a receipt is for: its cents and when the booking was paid. */
  payment?: { amount: number; paidAt: string };
  /**
   * A series_confirmed mail's series (its `booking` is the first booked occurrence): the booked
   * occurrences, the rule's starts that were skipped (conflicts), the total of the booked ones and
   * the recurring invite (.ics, METHOD:REQUEST) as it was when the series was created.
   */
  series?: {
    id: string;
    rule: string;
    booked: { bookingId: string; startTime: string; endTime: string }[];
    skipped: { startTime: string; endTime: string }[];
    totalPrice: number;
    invite: string;
  };
}

export interface NotificationsTable {
  id: Generated<string>;
  tenant_id: string;
  booking_id: string | null;
  channel: NotificationChannel;
  kind: NotificationKind;
  sequence: number;
  recipient: string;
  data: Json<NotificationData>;
  status: Generated<NotificationStatus>;
  attempts: Generated<number>;
  resends: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_error: string | null;
  sent_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface DeviceTelemetryData {
  cpu_percent: number;
  memory_percent: number;
  wifi_signal_dbm: number;
  door_states: Record<string, 'locked' | 'unlocked'>;
}

export interface DevicesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  activation_code_hash: string;
  activation_expires_at: Timestamp;
  activated_at: NullableTimestamp;
  serial: string | null;
  firmware_version: string | null;
  key_hash: string | null;
  key_prefix: string | null;
  revoked_at: NullableTimestamp;
  last_heartbeat_at: NullableTimestamp;
  telemetry: ColumnType<DeviceTelemetryData | null, string | null, string | null>;
  created_at: CreatedAt;
  /** Set (to the last heartbeat before the silence) when device.offline is written; null while online or never seen. */
  offline_since: NullableTimestamp;
  /** The last `data.sequence` given to an event of the device (device.offline / device.online). */
  event_sequence: Generated<number>;
}

export interface DeviceDoorsTable {
  tenant_id: string;
  device_id: string;
  door_id: string;
}

export type DeviceCommandStatus = 'pending' | 'delivered' | 'executed' | 'failed' | 'expired';

export interface DeviceCommandsTable {
  id: Generated<string>;
  tenant_id: string;
  device_id: string;
  door_id: string | null;
  type: string;
  payload: Json<Record<string, unknown>>;
  status: DeviceCommandStatus;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
  completed_at: NullableTimestamp;
}

export type CredentialType = 'qr' | 'sms';

export interface AccessLogTable {
  id: Generated<string>;
  tenant_id: string;
  device_id: string;
  door_id: string;
  booking_id: string | null;
  credential_type: CredentialType | null;
  allowed: boolean;
  reason: string | null;
  checked_at: Timestamp;
  /** online: decided by Portier's access check; offline: decided by the door and reported later. */
  mode: ColumnType<AccessMode, AccessMode | undefined, AccessMode>;
  /** The signed token's id (jti), when the token was one. */
  token_id: string | null;
  /** Idempotency key of a reported offline decision. */
  offline_key: string | null;
}

export type AccessMode = 'online' | 'offline';

export interface BookingCredentialsTable {
  tenant_id: string;
  booking_id: string;
  /** SHA-256 of a legacy opaque QR token; null for credentials issued as signed tokens only. */
  qr_token_hash: string | null;
  /** The signed QR token's id (jti), key id and window; null on legacy rows not yet upgraded. */
  token_id: string | null;
  key_id: string | null;
  valid_from: NullableTimestamp;
  valid_until: NullableTimestamp;
  /** The object the signed token opens (its `obj` claim). */
  object_id: string | null;
  sms_code_hash: string;
  sms_nonce: number;
  created_at: CreatedAt;
}

export interface DoorSigningKeysTable {
  kid: string;
  tenant_id: string;
  public_jwk: ColumnType<Record<string, string>, string, string>;
  /** The PKCS#8 private key, sealed with PORTIER_SECRET. */
  private_key_sealed: string;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
}

export interface RevokedTokensTable {
  tenant_id: string;
  token_id: string;
  booking_id: string;
  revoked_at: Timestamp;
  /** The revoked token's own expiry: after it the revocation no longer matters. */
  expires_at: Timestamp;
  /** The start of the revoked token's window (null for tokens revoked before it was kept). */
  valid_from: NullableTimestamp;
}

export interface DoorOfflinePoliciesTable {
  tenant_id: string;
  max_offline_seconds: number;
  updated_at: Timestamp;
}

export interface OAuthAppsTable {
  client_id: string;
  tenant_id: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  public: boolean;
  secret_hash: string | null;
  secret_rotated_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface OAuthGrantsTable {
  grant_id: string;
  tenant_id: string;
  client_id: string;
  user_id: string;
  scopes: string[];
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
  expires_at: Timestamp;
}

export interface OAuthStoreTable {
  model: string;
  id_hash: string;
  grant_id: string | null;
  uid_hash: string | null;
  payload: string;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

export interface UsersTable {
  id: Generated<string>;
  tenant_id: string;
  email: string;
  role: 'admin' | 'staff';
  password_hash: string;
  created_at: CreatedAt;
  password_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserSessionsTable {
  id: Generated<string>;
  token_hash: string;
  tenant_id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  ip: string | null;
  user_agent: string | null;
}

/** A user's pending password reset (issue #43): the mailed link's SHA-256; deleted when used. */
export interface PasswordResetsTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A pending invitation to become a user of the tenant (issue #43); deleted when accepted or revoked. */
export interface UserInvitationsTable {
  id: Generated<string>;
  tenant_id: string;
  email: string;
  role: 'admin' | 'staff';
  locale: ColumnType<Locale, Locale | undefined, Locale>;
  token_hash: string;
  /** Who invited, as the audit log labels them (kept as it was). */
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  /** bigint: arrives as a string. */
  id: ColumnType<string, never, never>;
  tenant_id: string;
  occurred_at: Timestamp;
  actor_type: 'user' | 'apiKey' | 'oauth' | 'cli' | 'system' | 'anonymous' | 'guest';
  actor_id: string | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Json<Record<string, unknown>>;
  ip: string | null;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  credential: string;
  key: string;
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: NullableTimestamp;
  status_code: number | null;
  headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A tenant's bookings of one status, as last folded (migration 202611300101_booking_counts). */
export interface BookingCountsTable {
  tenant_id: string;
  status: string;
  n: ColumnType<string, string | number | bigint, string | number | bigint>;
}

/** A change to a count not folded into booking_counts yet (+1, -1), written by the bookings' trigger. */
export interface BookingCountDeltasTable {
  tenant_id: string;
  status: string;
  delta: number;
}

/** A recurring booking (migration 202612030200, src/modules/series): the rule its occurrences follow. */
export interface BookingSeriesTable {
  id: Generated<string>;
  tenant_id: string;
  object_id: string;
  /** The RRULE value (FREQ=WEEKLY;BYDAY=TU;COUNT=10), as src/modules/series/series.rules.ts writes it. */
  rule: string;
  /** The zone the rule's local start time is kept in (the object's accommodation's). */
  time_zone: string;
  /** The first occurrence's start (DTSTART). */
  first_start: Timestamp;
  duration_minutes: number;
  guest_name: string;
  guest_email: string;
  guest_phone: string | null;
  status: ColumnType<'ACTIVE' | 'CANCELLED', 'ACTIVE' | 'CANCELLED' | undefined, 'ACTIVE' | 'CANCELLED'>;
  metadata: ColumnType<Metadata, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One guest of a tenant (migration 202612030301_customers, docs/customers.md). */
export interface CustomersTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  /** Unique per tenant compared lower-cased and trimmed; null once erased. */
  email: string | null;
  /** E.164. */
  phone: string | null;
  notes: Generated<string>;
  /** The integrator's own string→string map (src/kernel/metadata.ts). */
  metadata: ColumnType<Metadata, string | undefined, string>;
  marketing_consent: Generated<boolean>;
  marketing_consent_at: NullableTimestamp;
  /** When the customer was erased (GDPR); null while not. */
  erased_at: NullableTimestamp;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface DB {
  booking_series: BookingSeriesTable;
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  accommodations: AccommodationsTable;
  objects: ObjectsTable;
  special_dates: SpecialDatesTable;
  doors: DoorsTable;
  door_objects: DoorObjectsTable;
  bookings: BookingsTable;
  events: EventsTable;
  pricing_rules: PricingRulesTable;
  cancellation_policies: CancellationPoliciesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  devices: DevicesTable;
  device_doors: DeviceDoorsTable;
  device_commands: DeviceCommandsTable;
  access_log: AccessLogTable;
  booking_credentials: BookingCredentialsTable;
  door_signing_keys: DoorSigningKeysTable;
  revoked_tokens: RevokedTokensTable;
  door_offline_policies: DoorOfflinePoliciesTable;
  oauth_apps: OAuthAppsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_store: OAuthStoreTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  password_resets: PasswordResetsTable;
  user_invitations: UserInvitationsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  payments: PaymentsTable;
  checkout_sessions: CheckoutSessionsTable;
  tenant_settings: TenantSettingsTable;
  booking_pages: BookingPagesTable;
  provider_credentials: ProviderCredentialsTable;
  refund_intents: RefundIntentsTable;
  payment_discrepancies: PaymentDiscrepanciesTable;
  notification_settings: NotificationSettingsTable;
  notifications: NotificationsTable;
  booking_counts: BookingCountsTable;
  booking_count_deltas: BookingCountDeltasTable;
  customers: CustomersTable;
}

export type TenantRow = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccommodationRow = Selectable<AccommodationsTable>;
export type ObjectRow = Selectable<ObjectsTable>;
export type NewObject = Insertable<ObjectsTable>;
export type ObjectUpdate = Updateable<ObjectsTable>;
export type SpecialDateRow = Selectable<SpecialDatesTable>;
export type DoorRow = Selectable<DoorsTable>;
export type BookingRow = Selectable<BookingsTable>;
export type BookingSeriesRow = Selectable<BookingSeriesTable>;
/** What the Booking type shows: a listing reads only these columns. */
export type BookingView = Omit<BookingRow, 'tenant_id' | 'blocked_until' | 'event_sequence' | 'guest_link_version'>;
export const BOOKING_VIEW_COLUMNS = [
  'id',
  'object_id',
  'guest_name',
  'guest_email',
  'guest_phone',
  'start_time',
  'end_time',
  'status',
  'total_price',
  'currency',
  'refund_amount',
  'created_at',
  'payment_status',
  'amount_paid',
  'amount_refunded',
  'payment_provider',
  'paid_at',
  'metadata',
  'updated_at',
  'reference',
  'no_show_at',
  'cancellation_reason_code',
  'cancellation_reason',
  'series_id',
  'series_start',
  'customer_id',
  'guest_locale',
] as const satisfies readonly (keyof BookingView)[];
export type CustomerRow = Selectable<CustomersTable>;
export type EventRow = Selectable<EventsTable>;
export type PricingRuleRow = Selectable<PricingRulesTable>;
export type CancellationPolicyRow = Selectable<CancellationPoliciesTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type DeviceCommandRow = Selectable<DeviceCommandsTable>;
export type AccessLogRow = Selectable<AccessLogTable>;
export type BookingCredentialRow = Selectable<BookingCredentialsTable>;
export type DoorSigningKeyRow = Selectable<DoorSigningKeysTable>;
export type OAuthAppRow = Selectable<OAuthAppsTable>;
export type OAuthGrantRow = Selectable<OAuthGrantsTable>;
export type UserRow = Selectable<UsersTable>;
export type UserSessionRow = Selectable<UserSessionsTable>;
export type PasswordResetRow = Selectable<PasswordResetsTable>;
export type UserInvitationRow = Selectable<UserInvitationsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type RefundIntentRow = Selectable<RefundIntentsTable>;
export type PaymentDiscrepancyRow = Selectable<PaymentDiscrepanciesTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;
export type TenantSettingsRow = Selectable<TenantSettingsTable>;
export type BookingPageRow = Selectable<BookingPagesTable>;
export type NotificationSettingsRow = Selectable<NotificationSettingsTable>;
export type NotificationRow = Selectable<NotificationsTable>;

// The tables and columns above must be the ones the migrations make: src/kernel/db/schema.generated.ts is
// generated from a freshly migrated database (`npm run db:types`, checked in CI). The hand-written
// types refine the generated ones (JSON shapes, insert defaults, unions of allowed values); this
// fails the type-check when a migration adds, drops or renames a table or column they do not follow.
type Missing<A, B> = Exclude<keyof B, keyof A>;
type SameKeys<A, B> = [Missing<A, B>, Missing<B, A>] extends [never, never]
  ? true
  : { missingHere: Missing<A, B>; notInDatabase: Missing<B, A> };
type ColumnMismatches = {
  [T in keyof DB & keyof GeneratedDB]: SameKeys<DB[T], GeneratedDB[T]> extends true
    ? never
    : { table: T; columns: SameKeys<DB[T], GeneratedDB[T]> };
}[keyof DB & keyof GeneratedDB];
type AssertTrue<T extends true> = T;
export type TablesFollowMigrations = AssertTrue<SameKeys<DB, GeneratedDB>>;
export type ColumnsFollowMigrations = AssertTrue<[ColumnMismatches] extends [never] ? true : ColumnMismatches>;
