import type { JsonSchema } from './openapi-registry.js';
import type { Components } from './openapi-components.js';
import { refTo } from './openapi-components.js';
import { API_VERSION, EVENT_TYPES } from '../../modules/webhooks/index.js';

// The OpenAPI 3.1 `webhooks` section: one entry per event type Portier POSTs to a subscription
// (src/modules/webhooks/outbox.ts EVENT_TYPES and the test event), each with
// the Standard Webhooks signature headers and the envelope of src/modules/webhooks/signing.ts
// signedRequest(); data shapes as the modules record them (docs/webhooks.md).

const ISO: JsonSchema = { type: 'string', format: 'date-time' };
const UUID: JsonSchema = { type: 'string', format: 'uuid' };

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (the envelope’s id): the same on every attempt and redelivery. Deduplicate on it.',
    schema: UUID,
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in Unix seconds. Refuse attempts more than 5 minutes off your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the subscription’s secret (the base64 key after `whsec_`, else the secret’s UTF-8 bytes). During a secret rotation two signatures, space-separated; accept any that matches (Standard Webhooks).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

const COMMAND_DATA: JsonSchema = {
  type: 'object',
  properties: {
    device: { type: 'object', properties: { id: UUID }, required: ['id'] },
    command: {
      type: 'object',
      properties: {
        id: UUID,
        type: { type: 'string', enum: ['unlock'] },
        doorId: { type: ['string', 'null'], format: 'uuid' },
        payload: { type: 'object', description: 'As queued (unlock: gpio_pin, duration_seconds).' },
        status: { type: 'string', enum: ['executed', 'failed'] },
        result: { description: 'What the device reported with it (any JSON), or null.' },
        error: { type: ['string', 'null'] },
        createdAt: ISO,
        deliveredAt: { type: ['string', 'null'], format: 'date-time' },
        completedAt: ISO,
      },
      required: [
        'id',
        'type',
        'doorId',
        'payload',
        'status',
        'result',
        'error',
        'createdAt',
        'deliveredAt',
        'completedAt',
      ],
    },
  },
  required: ['device', 'command'],
};

const BOOKING_SNAPSHOT: JsonSchema = {
  type: 'object',
  description: 'The booking right after the change.',
  properties: {
    id: UUID,
    objectId: UUID,
    objectName: { type: 'string' },
    guestName: { type: 'string' },
    guestEmail: { type: 'string', format: 'email' },
    guestPhone: { type: ['string', 'null'] },
    startTime: ISO,
    endTime: ISO,
    status: { type: 'string', enum: ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] },
    totalPrice: { type: 'integer', description: 'Cents.' },
    currency: { type: 'string' },
    createdAt: ISO,
    refundAmount: { type: 'integer', description: 'Cents refunded; only on a cancellation with a refund.' },
    noShowAt: { ...ISO, description: 'When it was marked a no-show; only on a booking marked so.' },
    cancellationReasonCode: {
      type: 'string',
      enum: ['GUEST_REQUEST', 'NO_PAYMENT', 'WEATHER', 'MAINTENANCE', 'DUPLICATE', 'VENUE_CLOSED', 'OTHER'],
      description: 'Why it was cancelled; only on a booking cancelled with a reason.',
    },
    cancellationReason: {
      type: ['string', 'null'],
      description: 'The cancellation’s free text (with cancellationReasonCode).',
    },
    guestLocale: {
      type: 'string',
      enum: ['EN', 'DE'],
      description: 'The language the guest chose (booking page or publishable key); only when one was chosen.',
    },
    metadata: {
      type: 'object',
      description:
        'The booking’s metadata (your own keys and values; {} when none). Absent in events recorded before metadata existed.',
      additionalProperties: { type: 'string' },
    },
  },
  required: [
    'id',
    'objectId',
    'objectName',
    'guestName',
    'guestEmail',
    'guestPhone',
    'startTime',
    'endTime',
    'status',
    'totalPrice',
    'currency',
    'createdAt',
  ],
};

const PAYMENT_SNAPSHOT: JsonSchema = {
  type: 'object',
  description: 'The booking’s payment right after the change (as Booking.payment).',
  properties: {
    status: { type: 'string', enum: ['UNPAID', 'PAID', 'REFUNDED', 'PARTIALLY_REFUNDED'] },
    amountPaid: { type: 'integer', description: 'Cents received.' },
    amountRefunded: { type: 'integer', description: 'Cents given back.' },
    currency: { type: 'string' },
    provider: { type: ['string', 'null'], enum: ['stripe', 'venue', null] },
    paidAt: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['status', 'amountPaid', 'amountRefunded', 'currency', 'provider', 'paidAt'],
};

const SEQUENCE: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description:
    'The booking’s event number: 1 for its first event, one more for each following one. Drop an event with a lower sequence than one seen: it is stale.',
};

const bookingData = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  properties: { booking: refTo('WebhookBookingSnapshot'), sequence: SEQUENCE, ...extra },
  required: ['booking', 'sequence', ...Object.keys(extra)],
});

/** Device presence events (src/modules/devices/presence.ts presenceData()). */
const deviceData = (extra: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties: {
    device: {
      type: 'object',
      description: 'The controller and the doors it drives.',
      properties: { id: UUID, name: { type: 'string' }, doorIds: { type: 'array', items: UUID } },
      required: ['id', 'name', 'doorIds'],
    },
    lastSeenAt: {
      ...ISO,
      description: 'device.offline: the last heartbeat before the silence; device.online: the heartbeat that ended it.',
    },
    ...extra,
    sequence: {
      type: 'integer',
      minimum: 1,
      description:
        'The device’s event number (per device). Drop an event with a lower sequence than one seen: it is stale.',
    },
  },
  required: ['device', 'lastSeenAt', ...Object.keys(extra), 'sequence'],
});

/** Recurring bookings' events (src/modules/series/series.service.ts seriesEventData()). */
const SERIES_SNAPSHOT: JsonSchema = {
  type: 'object',
  description: 'The series right after the change.',
  properties: {
    id: UUID,
    objectId: UUID,
    rule: { type: 'string', description: 'The RRULE value, canonical (FREQ=WEEKLY;BYDAY=TU;COUNT=10).' },
    timeZone: { type: 'string' },
    startTime: { ...ISO, description: 'The first occurrence’s start (DTSTART).' },
    durationMinutes: { type: 'integer' },
    guestName: { type: 'string' },
    guestEmail: { type: 'string', format: 'email' },
    status: { type: 'string', enum: ['ACTIVE', 'CANCELLED'] },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    createdAt: ISO,
    updatedAt: ISO,
  },
  required: ['id', 'objectId', 'rule', 'timeZone', 'startTime', 'durationMinutes', 'guestName', 'guestEmail', 'status'],
};

const seriesChange = (extra: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties: { series: refTo('WebhookSeriesSnapshot'), ...extra },
  required: ['series', ...required],
});

const SERIES_CANCEL_CHANGE = {
  change: { type: 'string', enum: ['cancelled', 'rescheduled'] },
  scope: { type: 'string', enum: ['THIS', 'FOLLOWING', 'ALL'], description: 'For change cancelled.' },
  bookingIds: { type: 'array', items: UUID, description: 'For change cancelled: the occurrences cancelled.' },
  bookingId: { ...UUID, description: 'For change rescheduled: the occurrence moved.' },
  previous: {
    type: 'object',
    properties: { startTime: ISO, endTime: ISO },
    description: 'For change rescheduled: its times before.',
  },
  startTime: { ...ISO, description: 'For change rescheduled: its new start.' },
  endTime: { ...ISO, description: 'For change rescheduled: its new end.' },
} satisfies Record<string, JsonSchema>;

/** Customers' events (src/modules/customers/customers.service.ts customerEventData()). */
const CUSTOMER_SNAPSHOT: JsonSchema = {
  type: 'object',
  description: 'The customer right after the change.',
  properties: {
    id: UUID,
    name: { type: 'string' },
    email: { type: ['string', 'null'], format: 'email' },
    phone: { type: ['string', 'null'], description: 'E.164.' },
    marketingConsent: { type: 'boolean' },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    createdAt: ISO,
    updatedAt: ISO,
  },
  required: ['id', 'name', 'email', 'phone', 'marketingConsent', 'metadata', 'createdAt', 'updatedAt'],
};

const customerChange = (extra: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties: { customer: refTo('WebhookCustomerSnapshot'), ...extra },
  required: ['customer', ...required],
});

const DATA: Record<string, { summary: string; component: string; schema: JsonSchema }> = {
  'customer.created': {
    summary:
      'A booking brought a new guest, made a customer (opt-in: written only while an active subscription lists customer.created; docs/webhooks.md).',
    component: 'CustomerCreatedData',
    schema: customerChange({}, []),
  },
  'customer.updated': {
    summary: 'Staff changed a customer (updateCustomer); `changed` names the fields.',
    component: 'CustomerUpdatedData',
    schema: customerChange(
      { changed: { type: 'array', items: { type: 'string' }, description: 'The fields changed.' } },
      ['changed'],
    ),
  },
  'customer.merged': {
    summary: 'Duplicates were merged into this customer (mergeCustomers); their bookings moved to it.',
    component: 'CustomerMergedData',
    schema: customerChange(
      {
        mergedIds: { type: 'array', items: UUID, description: 'The customers merged in (they no longer exist).' },
        movedBookings: { type: 'integer', description: 'How many bookings moved to this customer.' },
      },
      ['mergedIds', 'movedBookings'],
    ),
  },
  'customer.erased': {
    summary:
      'A customer was erased (GDPR Art. 17): its personal fields and its bookings’ guest fields anonymised; the bookings stay.',
    component: 'CustomerErasedData',
    schema: {
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          properties: { id: UUID, erasedAt: ISO },
          required: ['id', 'erasedAt'],
        },
      },
      required: ['customer'],
    },
  },
  'series.created': {
    summary:
      'A recurring booking was created; each booked occurrence also has its own booking.created (before this event).',
    component: 'SeriesCreatedData',
    schema: seriesChange(
      {
        occurrences: {
          type: 'array',
          description: 'Every occurrence of the rule: bookingId when booked, conflictCode when skipped.',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              startTime: ISO,
              endTime: ISO,
              bookingId: UUID,
              conflictCode: { type: 'string' },
            },
            required: ['index', 'startTime', 'endTime'],
          },
        },
      },
      ['occurrences'],
    ),
  },
  'series.updated': {
    summary:
      'Occurrences of a series were cancelled (THIS or FOLLOWING) or one was moved (cancelBookingSeries, rescheduleBookingSeriesOccurrence); the bookings have their own events.',
    component: 'SeriesUpdatedData',
    schema: seriesChange(SERIES_CANCEL_CHANGE, ['change']),
  },
  'series.cancelled': {
    summary: 'A series has no occurrence left to take place (cancelBookingSeries ALL, or the last ones).',
    component: 'SeriesCancelledData',
    schema: seriesChange(SERIES_CANCEL_CHANGE, ['change']),
  },
  'booking.created': {
    summary: 'A booking was created (REST or GraphQL; not the catalog import).',
    component: 'BookingEventData',
    schema: bookingData(),
  },
  'booking.confirmed': {
    summary: 'A booking’s status became CONFIRMED.',
    component: 'BookingEventData',
    schema: bookingData(),
  },
  'booking.cancelled': {
    summary:
      'A booking’s status became CANCELLED (refundAmount: what the policy grants; money given back follows as booking.refunded).',
    component: 'BookingCancelledData',
    schema: {
      type: 'object',
      properties: {
        booking: refTo('WebhookBookingSnapshot'),
        sequence: SEQUENCE,
        reason: {
          type: 'string',
          enum: ['payment_expired'],
          description:
            'Present when Portier cancelled it: payment_expired (the tenant’s pendingExpiryMinutes hold ended unpaid).',
        },
        cancellationReason: {
          type: 'object',
          description: 'Present when the cancellation gave a reason (docs/bookings.md, "Cancellation reasons").',
          properties: {
            code: {
              type: 'string',
              enum: ['GUEST_REQUEST', 'NO_PAYMENT', 'WEATHER', 'MAINTENANCE', 'DUPLICATE', 'VENUE_CLOSED', 'OTHER'],
            },
            text: { type: ['string', 'null'], maxLength: 500 },
          },
          required: ['code', 'text'],
        },
      },
      required: ['booking', 'sequence'],
    },
  },
  'booking.paid': {
    summary:
      'Money arrived for a booking: a Stripe Checkout payment, or staff marked it paid at the venue (markBookingPaid).',
    component: 'BookingPaidData',
    schema: bookingData({
      payment: refTo('WebhookPaymentSnapshot'),
      amount: { type: 'integer', minimum: 1, description: 'Cents this payment added.' },
    }),
  },
  'booking.refunded': {
    summary:
      'Money went back: a cancellation’s refund by the policy, or a payment that arrived for a cancelled booking (in full).',
    component: 'BookingRefundedData',
    schema: bookingData({
      payment: refTo('WebhookPaymentSnapshot'),
      refund: {
        type: 'object',
        properties: {
          amount: { type: 'integer', minimum: 1, description: 'Cents given back by this refund.' },
          reason: { type: 'string', enum: ['cancellation', 'cancelled_before_payment'] },
        },
        required: ['amount', 'reason'],
      },
    }),
  },
  'booking.no_show': {
    summary:
      'Staff marked a CONFIRMED booking a no-show after its start (markNoShow); its status stays CONFIRMED and booking.noShowAt is set.',
    component: 'BookingEventData',
    schema: bookingData(),
  },
  'booking.completed': {
    summary: 'A booking’s status became COMPLETED.',
    component: 'BookingEventData',
    schema: bookingData(),
  },
  'booking.rescheduled': {
    summary: 'A booking moved to another slot or object (never a cancellation plus a creation).',
    component: 'BookingRescheduledData',
    schema: bookingData({
      previous: {
        type: 'object',
        description: 'The slot and price before the reschedule.',
        properties: {
          objectId: UUID,
          startTime: ISO,
          endTime: ISO,
          totalPrice: { type: 'integer', description: 'Cents.' },
        },
        required: ['objectId', 'startTime', 'endTime', 'totalPrice'],
      },
    }),
  },
  'webhook.disabled': {
    summary: 'Another subscription of the tenant was disabled after 5 days of failed deliveries.',
    component: 'WebhookDisabledData',
    schema: {
      type: 'object',
      properties: {
        webhook: {
          type: 'object',
          properties: {
            id: UUID,
            url: { type: 'string', format: 'uri' },
            events: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } },
            active: { type: 'boolean', const: false },
            createdAt: ISO,
          },
          required: ['id', 'url', 'events', 'active', 'createdAt'],
        },
        reason: { type: 'string' },
        failingSince: ISO,
      },
      required: ['webhook', 'reason', 'failingSince'],
    },
  },
  'webhook.test': {
    summary: 'Sent by POST /webhooks/{webhookId}/test to that one subscription only (never retried).',
    component: 'WebhookTestData',
    schema: {
      type: 'object',
      properties: { webhookId: UUID, message: { type: 'string' } },
      required: ['webhookId', 'message'],
    },
  },
  'device.offline': {
    summary: 'A device missed three heartbeats (its last one is more than offlineAfterSeconds old).',
    component: 'DeviceOfflineData',
    schema: deviceData({
      offlineAfterSeconds: {
        type: 'integer',
        description: 'The silence that counts as offline (3 heartbeat intervals).',
      },
    }),
  },
  'device.command.executed': {
    summary: 'A device reported a command executed (its first report; a repeated one sends nothing).',
    component: 'DeviceCommandEventData',
    schema: COMMAND_DATA,
  },
  'device.command.failed': {
    summary: 'A device reported that it could not execute a command (its first report).',
    component: 'DeviceCommandEventData',
    schema: COMMAND_DATA,
  },
  'access.decided': {
    summary:
      'A door decided a scan, online or (reported later) offline. Opt-in and high volume: written only while a subscription of the tenant lists it.',
    component: 'AccessDecidedData',
    schema: {
      type: 'object',
      description: 'The access-log entry (the accessDecided subscription’s entry).',
      properties: {
        id: { ...UUID, description: 'The access-log entry.' },
        deviceId: UUID,
        doorId: UUID,
        bookingId: { type: ['string', 'null'], format: 'uuid' },
        credentialType: { type: ['string', 'null'], enum: ['qr', 'sms', null] },
        allowed: { type: 'boolean' },
        reason: { type: ['string', 'null'], description: 'Why it was denied; null when allowed.' },
        checkedAt: ISO,
        mode: { type: 'string', enum: ['online', 'offline'] },
        tokenId: { type: ['string', 'null'], description: 'The signed token’s id, when one was scanned.' },
      },
      required: [
        'id',
        'deviceId',
        'doorId',
        'bookingId',
        'credentialType',
        'allowed',
        'reason',
        'checkedAt',
        'mode',
        'tokenId',
      ],
    },
  },
  'device.online': {
    summary: 'A device that got a device.offline heartbeated again.',
    component: 'DeviceOnlineData',
    schema: deviceData({
      offlineSince: {
        ...ISO,
        description: 'The last heartbeat before the silence (the lastSeenAt of the matching device.offline).',
      },
    }),
  },
};

/** Every event type the section describes, in order. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, 'webhook.test'];

const envelopeName = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('') + 'Event';

/** The section, and the event types it has no data schema for (a test requires none). */
export function webhooksSection(components: Components): { section: Record<string, unknown>; undescribed: string[] } {
  components.add('WebhookBookingSnapshot', BOOKING_SNAPSHOT);
  components.add('WebhookPaymentSnapshot', PAYMENT_SNAPSHOT);
  components.add('WebhookSeriesSnapshot', SERIES_SNAPSHOT);
  components.add('WebhookCustomerSnapshot', CUSTOMER_SNAPSHOT);
  const section: Record<string, unknown> = {};
  const undescribed: string[] = [];
  for (const type of WEBHOOK_EVENT_TYPES) {
    const entry = DATA[type] ?? { summary: type, component: '', schema: { type: 'object' } };
    if (!DATA[type]) undescribed.push(type);
    const data = entry.component ? components.add(entry.component, entry.schema) : entry.schema;
    const envelope = components.add(envelopeName(type), {
      type: 'object',
      description: `The body of a ${type} delivery.`,
      properties: {
        id: { ...UUID, description: 'The event id (= webhook-id).' },
        type: { type: 'string', const: type },
        timestamp: { ...ISO, description: 'When the event happened (UTC).' },
        tenantId: UUID,
        apiVersion: {
          type: 'string',
          format: 'date',
          const: API_VERSION,
          description: 'The payload version; it changes only with a breaking change of the payload.',
        },
        data,
        livemode: {
          type: 'boolean',
          description: "False for a sandbox tenant's event (test mode, docs/test-mode.md); true for live data.",
        },
      },
      required: ['id', 'type', 'timestamp', 'tenantId', 'apiVersion', 'data', 'livemode'],
    });
    section[type] = {
      post: {
        operationId: `webhook${envelopeName(type)}`,
        summary: entry.summary,
        description:
          'Portier POSTs this to each active subscription of the event type, signed per Standard Webhooks (docs/webhooks.md).',
        tags: ['webhooks'],
        // Portier is the caller here: no credential of the receiver's is sent; the request is
        // authenticated by the signature headers instead.
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: envelope } } },
        responses: {
          '2XX': { description: 'Received. Any 2xx counts as delivered.' },
          '410': { description: 'Gone: the subscription is disabled at once.' },
          default: {
            description:
              'Any other answer (or none within the timeout) is retried with backoff; A Retry-After is honoured.',
          },
        },
      },
    };
  }
  return { section, undescribed };
}
