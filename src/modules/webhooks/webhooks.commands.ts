import { FormatRegistry, Type, type StaticDecode } from '@sinclair/typebox';
import { Flag, Id, Instant, Nullable, OneOf, parseCommand } from '../../kernel/commands.js';
import { MICROSECOND_INSTANT } from '../../kernel/db/keyset.js';
import { CONNECTION_PAGE, PAGE_SIZES, PageSize, UUID_PART, decodeCursor } from '../../kernel/paging.js';
import { EVENT_TYPES } from './outbox.js';
import { secretProblem } from './signing.js';
import { eventsProblem, urlOf } from './subscription.rules.js';

// The webhooks module's commands (docs/architecture.md, "Typed commands"): checked in the
// resolvers (and so the REST bridge); the services trust them.

FormatRegistry.Set('portier-webhook-url', (value) => 'url' in urlOf(value));
FormatRegistry.Set('portier-event-type', (value) => (EVENT_TYPES as readonly string[]).includes(value));

FormatRegistry.Set('portier-webhook-secret', (value) => secretProblem(value) === null);

const urlMessage = (value: unknown) =>
  'error' in urlOf(value) ? (urlOf(value) as { error: string }).error : 'must be an absolute http(s) URL';
const eventsMessage = (value: unknown) => eventsProblem(value) ?? 'must be a non-empty list of event types';
const refusingNull = (message: (value: unknown) => string, ofNull: string) => (value: unknown) =>
  value === null ? ofNull : message(value);

/** The receiver: an absolute http(s) URL with a host and no fragment (the SSRF check of its host needs DNS: the service). */
const WebhookUrl = (message = urlMessage) => Type.String({ format: 'portier-webhook-url', message });

/** Known event types (not webhook.test), at least one, duplicates dropped. */
const EventTypes = (message = eventsMessage) =>
  Type.Transform(Type.Array(Type.String({ format: 'portier-event-type' }), { minItems: 1, message }))
    .Decode((events) => [...new Set(events)])
    .Encode((events) => events);

/** A signing secret: 16–512 characters, or whsec_ and base64; the message says which rule it breaks. */
const Secret = () =>
  Type.String({
    format: 'portier-webhook-secret',
    message: (value: unknown) => secretProblem(value) ?? 'must be a string',
  });

export const CreateWebhook = Type.Object({
  url: WebhookUrl(),
  events: EventTypes(),
  secret: Secret(),
});
export type CreateWebhook = StaticDecode<typeof CreateWebhook>;
export const parseCreateWebhook = (input: unknown): CreateWebhook => parseCommand(CreateWebhook, input);

/** A change of a subscription: null is refused (leaving a field out keeps it), every given field is checked as on creation. */
export const UpdateWebhook = Type.Object({
  url: Type.Optional(WebhookUrl(refusingNull(urlMessage, 'must not be null; leave it out to keep the current one'))),
  events: Type.Optional(
    EventTypes(refusingNull(eventsMessage, 'must not be null; leave it out to keep the current ones')),
  ),
  active: Nullable(Flag()),
});
export type UpdateWebhook = StaticDecode<typeof UpdateWebhook>;

export const parseUpdateWebhook = (input: unknown): UpdateWebhook => parseCommand(UpdateWebhook, input);

/** A new signing secret, or none: Portier generates one. */
export const RotateWebhookSecret = Type.Object({ secret: Nullable(Secret()) });
export type RotateWebhookSecret = StaticDecode<typeof RotateWebhookSecret>;
export const parseRotateWebhookSecret = (input: unknown): RotateWebhookSecret =>
  parseCommand(RotateWebhookSecret, input);

export const ReplayWebhookDeliveries = Type.Object({
  since: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset, such as 2026-11-20T10:00:00Z' }),
});
export type ReplayWebhookDeliveries = StaticDecode<typeof ReplayWebhookDeliveries>;
export const parseReplayWebhookDeliveries = (input: unknown): ReplayWebhookDeliveries =>
  parseCommand(ReplayWebhookDeliveries, input);

const STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

export const ListDeliveries = Type.Object({
  first: PageSize(PAGE_SIZES.webhookDeliveries),
  status: Nullable(OneOf(STATUSES, { message: `must be one of ${STATUSES.join(', ')}` })),
});
export type ListDeliveries = { first: number; status: (typeof STATUSES)[number] | null };

/** One subscription's deliveries: the page size (absent: the listing's default) and a status. */
export function parseListDeliveries(input: unknown): ListDeliveries {
  const { first, status } = parseCommand(ListDeliveries, input);
  return { first: first ?? PAGE_SIZES.webhookDeliveries.default, status: status ?? null };
}

export const ListBookingDeliveries = Type.Object({
  first: PageSize(PAGE_SIZES.bookingWebhookDeliveries),
  bookingId: Id({ message: 'must be a booking id (uuid)' }),
});
export type ListBookingDeliveries = { bookingId: string; first: number };

/** One booking's deliveries: the booking and the page size (absent: the listing's default). */
export function parseListBookingDeliveries(input: unknown): ListBookingDeliveries {
  const { bookingId, first } = parseCommand(ListBookingDeliveries, input);
  return { bookingId, first: first ?? PAGE_SIZES.bookingWebhookDeliveries.default };
}

export const DELIVERY_CURSOR = 'delivery';

export const DeliveriesConnection = Type.Object({
  first: PageSize(CONNECTION_PAGE),
  after: Nullable(Type.String({ message: 'is not a cursor this connection returned' })),
  webhookId: Nullable(Id({ message: 'must be a webhook id (uuid)' })),
  bookingId: Nullable(Id({ message: 'must be a booking id (uuid)' })),
  status: Nullable(OneOf(STATUSES, { message: `must be one of ${STATUSES.join(', ')}` })),
});

/** A page of the delivery log: its size, the cursor it follows and that cursor's sort key, the filters. */
export interface DeliveriesConnectionCommand {
  first: number;
  after: string | null;
  key: { at: string; id: string } | null;
  webhookId: string | null;
  bookingId: string | null;
  status: (typeof STATUSES)[number] | null;
}

/** The sort key of a delivery cursor (the connection's `after`, the REST list's `after`). */
export function deliveryKeyOf(cursor: string): { at: string; id: string } {
  const [at = '', id = ''] = decodeCursor(DELIVERY_CURSOR, cursor, [MICROSECOND_INSTANT, UUID_PART]);
  return { at, id };
}

export function parseDeliveriesConnection(input: unknown): DeliveriesConnectionCommand {
  const { first, after, webhookId, bookingId, status } = parseCommand(DeliveriesConnection, input);
  let key: DeliveriesConnectionCommand['key'] = null;
  if (after != null) {
    const [at = '', id = ''] = decodeCursor(DELIVERY_CURSOR, after, [MICROSECOND_INSTANT, UUID_PART]);
    key = { at, id };
  }
  return {
    first: first ?? CONNECTION_PAGE.default,
    after: after ?? null,
    key,
    webhookId: webhookId ?? null,
    bookingId: bookingId ?? null,
    status: status ?? null,
  };
}
