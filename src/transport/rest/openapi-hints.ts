import type { TSchema } from '@sinclair/typebox';
import type { JsonSchema } from './openapi-registry.js';
import { CreateBooking, ListBookings, UpdateBookingStatus } from '../../modules/bookings/index.js';
import { COMMAND_TYPES, CreateDeviceCommand } from '../../modules/devices/index.js';
import { ListObjects } from '../../modules/catalog/index.js';
import {
  EVENT_TYPES,
  EventFeed,
  MAX_URL_LENGTH,
  SECRET_MAX_LENGTH,
  SECRET_MIN_LENGTH,
} from '../../modules/webhooks/index.js';
import {
  MAX_OBJECT_IDS,
  MIN_DAYS_RANGE,
  MIN_DURATION_RANGE,
  PERCENT_RANGE,
  PRICING_RULE_TYPES,
} from '../../modules/pricing/index.js';
import { CONNECTION_PAGE, PAGE_SIZES, REST_CURSOR_PAGE, type PageLimits } from '../../kernel/paging.js';
import { WEEKDAYS } from '../../kernel/validation.js';
import type { DeviceCommandStatus } from '../../kernel/db/types.js';

// What the GraphQL types alone do not say about the REST shapes: formats and closed sets of
// String fields (their wire values, taken from the constants the code checks them with), and the
// limits the validators enforce on bridged routes' inputs (read from the modules' TypeBox commands
// where they have one, else from the constants of their hand-written checks). Nothing here is
// invented: each entry names the code it comes from.

/** Every GraphQL ID on the REST routes is a PostgreSQL uuid (migrations/: `uuid` primary keys). */
export const ID_SCHEMA: JsonSchema = { type: 'string', format: 'uuid' };

const COMMAND_STATUSES: readonly DeviceCommandStatus[] = ['pending', 'delivered', 'executed', 'failed', 'expired'];
/** Event types a delivery may carry: the subscribable ones and the test event (outbox.ts EventType). */
export const DELIVERY_EVENT_TYPES = [...EVENT_TYPES, 'webhook.test'] as const;

const LOCAL_DATE: JsonSchema = { format: 'date' };
const HHMM: JsonSchema = { pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'Local time HH:MM.' };
const DATE_OR_INSTANT: JsonSchema = {
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time' },
  ],
  description:
    'An ISO 8601 date (YYYY-MM-DD, midnight UTC) or a timestamp with an offset, such as 2026-11-20T10:00:00Z.',
};
const cursorLimit = (limits: PageLimits): JsonSchema => ({ minimum: 1, maximum: limits.max, default: limits.default });
const enumOf = (values: readonly string[]): JsonSchema => ({ enum: [...values] });

/**
 * Hints for String fields of output types and arguments, by `Type.field` (outputs, input fields)
 * or `field(argument)` (root field arguments). For list fields the hint applies to the items.
 */
export const STRING_HINTS: Record<string, JsonSchema> = {
  // Formats
  'Booking.guestEmail': { format: 'email' },
  'Booking.paymentUrl': { format: 'uri' },
  'Webhook.url': { format: 'uri' },
  'createWebhook(url)': { format: 'uri', maxLength: MAX_URL_LENGTH },
  'updateWebhook(url)': { format: 'uri', maxLength: MAX_URL_LENGTH },
  'bookingPage(guestEmail)': { format: 'email' },
  // bookings.commands.ts Boundary: a date (midnight UTC) or a timestamp with an offset
  'bookingPage(from)': DATE_OR_INSTANT,
  'bookingPage(to)': DATE_OR_INSTANT,
  'createBooking(guestEmail)': { format: 'email' },
  'objectAvailability(date)': LOCAL_DATE,
  'objectAvailability(from)': LOCAL_DATE,
  'objectAvailability(to)': LOCAL_DATE,
  'AvailabilityByObject.date': LOCAL_DATE,
  'AvailabilityRange.from': LOCAL_DATE,
  'AvailabilityRange.to': LOCAL_DATE,
  'SpecialDate.date': LOCAL_DATE,
  // Closed sets (wire values as the routes send them)
  'Webhook.events': enumOf(EVENT_TYPES),
  'createWebhook(events)': enumOf(EVENT_TYPES),
  'updateWebhook(events)': enumOf(EVENT_TYPES),
  'WebhookDelivery.eventType': enumOf(DELIVERY_EVENT_TYPES),
  'Event.type': enumOf(EVENT_TYPES),
  'eventFeed(types)': enumOf(EVENT_TYPES),
  'PricingRule.type': enumOf(PRICING_RULE_TYPES),
  'createPricingRule(type)': enumOf(PRICING_RULE_TYPES),
  'PricingRule.weekdays': enumOf(WEEKDAYS),
  'createPricingRule(weekdays)': enumOf(WEEKDAYS),
  'PricingRule.startTime': HHMM,
  'PricingRule.endTime': HHMM,
  'createPricingRule(startTime)': HHMM,
  'createPricingRule(endTime)': HHMM,
  'DeviceCommand.status': enumOf(COMMAND_STATUSES),
  'DeviceCommand.type': enumOf(COMMAND_TYPES),
  'createDeviceCommand(type)': enumOf(COMMAND_TYPES),
  // Secrets: signing.ts secretProblem()
  'createWebhook(secret)': { minLength: SECRET_MIN_LENGTH, maxLength: SECRET_MAX_LENGTH },
  'rotateWebhookSecret(secret)': { minLength: SECRET_MIN_LENGTH, maxLength: SECRET_MAX_LENGTH },
};

/** Limits of non-string arguments without a TypeBox command (rule-input.ts, webhooks.service.ts). */
const ARGUMENT_LIMITS: Record<string, JsonSchema> = {
  'createPricingRule(percent)': { minimum: PERCENT_RANGE[0], maximum: PERCENT_RANGE[1] },
  'createPricingRule(minDurationMinutes)': { minimum: MIN_DURATION_RANGE[0], maximum: MIN_DURATION_RANGE[1] },
  'createPricingRule(minDaysInAdvance)': { minimum: MIN_DAYS_RANGE[0], maximum: MIN_DAYS_RANGE[1] },
  'createPricingRule(objectIds)': { maxItems: MAX_OBJECT_IDS },
  'createPricingRule(name)': { minLength: 1, maxLength: 200 },
  'createWebhook(events)': { minItems: 1 },
  'webhookDeliveries(first)': {
    minimum: 1,
    maximum: PAGE_SIZES.webhookDeliveries.max,
    default: PAGE_SIZES.webhookDeliveries.default,
  },
  'eventFeed(limit)': { default: PAGE_SIZES.events.default },
  'bookingPage(page)': { default: 1 },
  'bookingPage(pageSize)': { default: PAGE_SIZES.bookings.default },
  'objectPage(page)': { default: 1 },
  'objectPage(pageSize)': { default: PAGE_SIZES.objects.default },
  // Cursor paging (docs/api.md, "Cursor paging"): `limit` beside the page numbers of every list.
  'bookingPage(limit)': cursorLimit(PAGE_SIZES.bookings),
  'objectPage(limit)': cursorLimit(PAGE_SIZES.objects),
  'webhookDeliveries(limit)': cursorLimit(PAGE_SIZES.webhookDeliveries),
  'customerList(limit)': cursorLimit(CONNECTION_PAGE),
  'webhookList(limit)': cursorLimit(REST_CURSOR_PAGE),
  'pricingRuleList(limit)': cursorLimit(REST_CURSOR_PAGE),
  'cancellationPolicyList(limit)': cursorLimit(REST_CURSOR_PAGE),
  'publicObjectList(limit)': cursorLimit(REST_CURSOR_PAGE),
  'paymentIssueList(limit)': cursorLimit(REST_CURSOR_PAGE),
  'devices(limit)': cursorLimit(REST_CURSOR_PAGE),
};

/** The TypeBox command that checks a bridged root field's arguments. */
const COMMANDS: Record<string, TSchema> = {
  createBooking: CreateBooking,
  bookingPage: ListBookings,
  objectPage: ListObjects,
  updateBooking: UpdateBookingStatus,
  createDeviceCommand: CreateDeviceCommand,
  eventFeed: EventFeed,
};

const KEPT = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'minItems',
  'maxItems',
] as const;
/** TypeBox formats of src/kernel/commands.ts that are JSON Schema formats too. */
const STANDARD_FORMATS = new Set(['uuid', 'email', 'date-time', 'date', 'uri']);

/** The constraints of a command property: its limits, standard format and closed set; null and Date alternatives unwrapped. */
export function constraintsOf(schema: TSchema | undefined): JsonSchema {
  if (!schema) return {};
  const node = schema as JsonSchema;
  const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    const literals = variants.filter((v) => 'const' in v).map((v) => v.const);
    if (literals.length && literals.length === variants.filter((v) => v.type !== 'null').length)
      return { enum: literals };
    const real = variants.filter(
      (v) =>
        v.type !== 'null' &&
        v.type !== 'Date' &&
        !(typeof v.format === 'string' && v.format.startsWith('portier-') && v.format !== 'portier-text'),
    );
    return real.length === 1 ? constraintsOf(real[0] as TSchema) : {};
  }
  const result: JsonSchema = {};
  for (const key of KEPT) if (key in node) result[key] = node[key];
  if (typeof node.format === 'string' && STANDARD_FORMATS.has(node.format)) result.format = node.format;
  // Text(): non-empty after trimming (src/kernel/commands.ts), at most maxLength.
  if (node.format === 'portier-text') result.minLength = 1;
  return result;
}

/** The extra constraints of argument `argument` of root field `field`, from its command or hand-written checks. */
export function argumentConstraints(field: string, argument: string): JsonSchema {
  const command = COMMANDS[field] as (TSchema & { properties?: Record<string, TSchema> }) | undefined;
  return {
    ...constraintsOf(command?.properties?.[argument]),
    ...STRING_HINTS[`${field}(${argument})`],
    ...ARGUMENT_LIMITS[`${field}(${argument})`],
  };
}
