import { isNonNullType, Kind, OperationTypeNode, type GraphQLField, type GraphQLSchema } from 'graphql';
import { buildOperationNodeForField, getDirectiveExtensions } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { withIdempotencyKey } from './openapi-idempotency.js';
import type { RestRoute } from './routes.js';
import { sofaExtraModels, sofaIgnore } from './ignore.js';
import type { JsonSchema, RegisteredRoute, RouteDoc } from './openapi-registry.js';
import { SchemaConverter, withHint } from './openapi-graphql.js';
import { METADATA_LIMITS } from '../../kernel/metadata.js';
import { Components, pascal, refTo } from './openapi-components.js';
import { argumentConstraints } from './openapi-hints.js';
import { webhooksSection } from './openapi-webhooks.js';
import { exampleOf, isJson, textExample } from './openapi-examples.js';
import { COMMAND_PAYLOADS, COMMAND_TYPES, type CommandType } from '../../modules/devices/index.js';
import { PROBLEM_CONTENT_TYPE } from '../../kernel/problem-schema.js';
import {
  COMMON_HEADERS,
  ERROR_RESPONSES,
  PROBLEM_SCHEMA,
  NEXT_LINK_HEADER,
  RESPONSE_HEADERS,
  VERSION_PARAMETER,
  bearerSecurity,
  errorResponses,
  securitySchemes,
} from './openapi-common.js';
import { OAUTH_ROUTES, SCOPE_WORDS } from '../../modules/oauth/index.js';
import { API_VERSION } from '../../modules/webhooks/index.js';

// The OpenAPI 3.1 document of every route the server serves: SOFA-bridged routes are described
// from REST_ROUTES and the GraphQL schema (arguments, SOFA's response selection, scopes from
// @requiresScopes); hand-written routes from their fastify schema and config.openapi.

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, unknown>;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  style?: 'deepObject';
  explode?: boolean;
  schema: JsonSchema;
}

export interface BuiltDocument {
  document: OpenApiDocument;
  /** Routes served without any documentation (a test requires none). */
  undocumented: string[];
  /** Custom scalars with no JSON type (a test requires none). */
  untypedScalars: string[];
  /** Component names two different shapes claimed (a test requires none). */
  componentConflicts: string[];
  /** Webhook event types without a data schema (a test requires none). */
  undescribedEvents: string[];
}

const TENANT_IN_PATH = "The calling key's own tenant; another tenant's id is refused (403, tenant_mismatch).";

const TAG_DESCRIPTIONS: Record<string, string> = {
  operations: 'Health, readiness and this document.',
  graphql: 'The GraphQL endpoint.',
  dashboard:
    'The dashboard at /dashboard: its pages and assets, and its sessions (cookie and CSRF token; see docs/dashboard.md).',
  bookings:
    'Bookings of the tenant’s bookable objects: create, list, read, confirm, complete, cancel, reschedule; door credentials; the CSV export.',
  'booking-series':
    'Recurring bookings: preview a rule’s occurrences (free or in conflict, with prices), create a series of real bookings, cancel this / following / all, move one occurrence (docs/bookings.md).',
  'cancellation-policies': 'The tenant’s cancellation policies (refund by notice period).',
  customers:
    'One record per guest of the tenant, matched on booking: search, update, merge duplicates, the CSV export, and the GDPR tools (one customer’s data, erasure; docs/customers.md).',
  devices:
    'Door controllers: activation, heartbeat, configuration, commands, access checks and the access log (device key), and commands sent to a device (API key).',
  oauth:
    'Portier’s OAuth 2.0 authorization server (RFC 6749, 7636, 7009, 8414): authorization code with PKCE S256, refresh, revocation (docs/oauth.md).',
  events:
    'The events feed: every event of the tenant as the envelope a webhook delivery carries, oldest first, paged without gaps or repeats (docs/events.md).',
  objects: 'Bookable objects: availability, opening hours and booking rules.',
  guest:
    'The guest’s own page of a booking behind its manage link (/b/{token}): view, calendar file, receipt, cancel and reschedule (docs/booking-page.md).',
  'payment-issues':
    'Money Portier could not settle with the payment provider by itself — failed refunds, differences the reconciliation found — until staff acknowledge them (docs/payments.md).',
  payments: 'The guest’s payment page and the payment provider’s webhook (docs/payments.md).',
  pricing: 'The price preview of a stay.',
  'provider-credentials':
    'A venue’s own Stripe, SMTP and SMS credentials: stored sealed, never shown again (whether set, a hint), the environment’s win (admin; docs/payments.md).',
  'pricing-rules': 'Pricing rules (surcharges and discounts).',
  'booking-page':
    'A venue’s public booking page, its files and the embeddable widget’s loader (no credential), and its settings: address, payment mode, allowed origins, logo, texts (API key; docs/booking-page.md).',
  public:
    'The publishable key’s routes (svc_pk_…, scope booking_page): the booking page’s public parts, published objects, their slots and prices, and PENDING bookings (docs/booking-page.md).',
  reports:
    'Occupancy by object and hour, revenue by period and object, payments and refunds, the day’s cash-up and the no-show rate, as JSON and CSV (docs/reports.md).',
  users: 'The audit log of the tenant’s users and keys (CSV export).',
  webhooks:
    'Webhook subscriptions, their deliveries, redelivery, replay and secret rotation; the events Portier sends are under `webhooks` (docs/webhooks.md).',
};

/** /tenants/:tenantId/objects/:objectId/x → /tenants/{tenantId}/objects/{objectId}/x */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
export const pathParamsOf = (url: string): string[] =>
  [...url.matchAll(/:([A-Za-z0-9_]+)/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));

/** The resource a path is about, used as its tag: /tenants/:id/objects/… → objects. */
function tagOf(url: string): string {
  const segments = url
    .replace(/^\/api(\/v\d+)?/, '')
    .split('/')
    .filter((s) => s && !s.startsWith(':'));
  return (segments[0] === 'tenants' ? segments[1] : segments[0]) ?? 'api';
}

/** Security requirements of a GraphQL root field: one alternative per scope set. */
function securityOfField(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): Record<string, string[]>[] {
  const directives = getDirectiveExtensions<{
    requiresScopes: { scopes: string[][] };
    authenticated: Record<string, never>;
  }>(field, schema);
  return bearerSecurity(directives.requiresScopes?.[0]?.scopes ?? []);
}

/** Bridged mutations that can conflict with the current state (409 besides the Idempotency-Key's): their services throw conflict(). */
const CONFLICTING_FIELDS = new Set([
  'createBooking',
  'updateBooking',
  'testWebhook',
  'redeliverWebhookEvent',
  'replayWebhookDeliveries',
  'createDeviceCommand',
  'retryRefund',
  'updateBookingPageSettings',
  'createPublicBooking',
]);

/**
 * A success body that is a bare list of a named resource (`devices` answers `[Device!]!`) gets a
 * name of its own, `<Item>List`, so a generated client has a type for the body as for every other.
 */
function listNamed(components: Components, schema: JsonSchema): JsonSchema {
  const items = schema.items as JsonSchema | undefined;
  const ref = typeof items?.$ref === 'string' ? items.$ref : undefined;
  if (schema.type !== 'array' || !ref) return schema;
  return components.add(`${ref.replace('#/components/schemas/', '')}List`, schema);
}

function bridgedOperation(
  schema: GraphQLSchema,
  converter: SchemaConverter,
  components: Components,
  route: RestRoute,
  models: string[],
): Operation {
  const [rootName, fieldName] = route.field.split('.') as ['Query' | 'Mutation', string];
  const root = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) throw new Error(`REST_ROUTES names ${route.field}, which the GraphQL schema does not have`);
  const operation = buildOperationNodeForField({
    schema,
    kind: rootName === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
    field: fieldName,
    models,
    ignore: sofaIgnore,
    circularReferenceDepth: 1,
  });
  const rootSelection = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
  const selection = rootSelection?.kind === Kind.FIELD ? rootSelection.selectionSet : undefined;

  const inPath = new Set(pathParamsOf(route.path));
  const usesBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const parameters: Parameter[] = [];
  const bodyProperties: Record<string, JsonSchema> = {};
  const bodyRequired: string[] = [];
  for (const arg of field.args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const description = arg.description ?? undefined;
    const limits = argumentConstraints(fieldName, arg.name);
    if (inPath.has(arg.name)) {
      // In a path the tenant is required (GraphQL's argument is optional and says so).
      const shown = arg.name === 'tenantId' ? TENANT_IN_PATH : description;
      parameters.push({
        name: arg.name,
        in: 'path',
        required: true,
        ...(shown ? { description: shown } : {}),
        schema: converter.inputNonNull(arg.type),
      });
    } else if (usesBody) {
      bodyProperties[arg.name] = {
        ...withHint(converter.input(arg.type), limits),
        ...(description ? { description } : {}),
      };
      if (required) bodyRequired.push(arg.name);
    } else {
      const given = withHint(converter.input(arg.type), limits);
      const types = Array.isArray(given.type) ? (given.type as unknown[]) : [given.type];
      // A filter's metadata values are strings (a query string cannot say null).
      const schema = types.includes('object')
        ? { ...given, additionalProperties: { type: 'string', maxLength: METADATA_LIMITS.maxValueLength } }
        : given;
      parameters.push({
        name: arg.name,
        in: 'query',
        required,
        ...(description ? { description } : {}),
        // An object (metadata) is sent as name[key]=value, which the bridge reads with qs.
        ...(types.includes('object') ? { style: 'deepObject' as const, explode: true } : {}),
        schema,
      });
    }
  }
  const missing = [...inPath].filter((name) => !field.args.some((a) => a.name === name));
  if (missing.length)
    throw new Error(`REST route ${route.method} ${route.path}: ${route.field} has no argument ${missing.join(', ')}`);

  const hasBody = Object.keys(bodyProperties).length > 0;
  // A missing resource named in the path is 404; the path's own tenant is never looked up (403 when it is not the key's).
  const hasResourceInPath = [...inPath].some((name) => name !== 'tenantId');
  const status = route.status ?? 200;
  const output = listNamed(components, converter.output(field.type, selection));
  // A field of a scalar type (a JSON document) gets a name too: a generated client has a type for it.
  const named = '$ref' in output ? output : components.add(`${pascal(fieldName)}Response`, output);
  // A list with cursor paging names its next page in a Link header too (docs/api.md, "Cursor paging").
  const paged = route.method === 'GET' && field.args.some((a) => a.name === 'after');
  const success =
    status === 204
      ? { description: 'Done.', headers: RESPONSE_HEADERS }
      : {
          description: 'Success.',
          headers: paged ? { ...RESPONSE_HEADERS, Link: NEXT_LINK_HEADER } : RESPONSE_HEADERS,
          content: { 'application/json': { schema: named } },
        };
  return {
    operationId: fieldName,
    summary: route.summary,
    ...(field.description ? { description: field.description } : {}),
    tags: [tagOf(route.path)],
    security: securityOfField(schema, field),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: {
              'application/json': {
                schema: components.add(`${pascal(fieldName)}Request`, {
                  type: 'object',
                  properties: bodyProperties,
                  ...(bodyRequired.length ? { required: bodyRequired } : {}),
                  additionalProperties: false,
                }),
              },
            },
          },
        }
      : {}),
    responses: {
      [status]: success,
      ...errorResponses({
        authenticated: true,
        hasBody,
        hasPathParams: inPath.size > 0,
        // The publishable key's routes answer 404 booking_page_disabled while the venue's page is off.
        notFound: hasResourceInPath || route.path.includes('/public/'),
        mutates: CONFLICTING_FIELDS.has(fieldName),
      }),
    },
  };
}

/** JSON round trip: drops TypeBox's symbol keys and shares no objects between operations. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function parametersOfSchema(schema: JsonSchema | undefined, where: 'path' | 'query', pathNames: string[]): Parameter[] {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const names = where === 'path' ? [...new Set([...pathNames, ...Object.keys(properties)])] : Object.keys(properties);
  return names.map((name) => {
    const { description, ...rest } = plain(properties[name] ?? { type: 'string' });
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^:/, 'by-'))
    .join('-')
    .split(/[^A-Za-z0-9]+/);
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/**
 * Path parameters of hand-written routes that are uuid primary keys (migrations/) but are read as
 * plain strings (the device routes check no format, to keep the door path cheap): documented
 * `format: uuid` all the same, as the bridged routes' ids are (issue #44).
 */
const UUID_PATH_PARAMETERS = new Set(['tenantId', 'deviceId', 'commandId']);

function withUuidFormat(parameter: Parameter): Parameter {
  const { schema } = parameter;
  if (parameter.in !== 'path' || !UUID_PATH_PARAMETERS.has(parameter.name)) return parameter;
  if (schema.type !== 'string' || schema.format !== undefined || schema.pattern !== undefined) return parameter;
  return { ...parameter, schema: { ...schema, format: 'uuid' } };
}

function handWrittenOperation(route: RegisteredRoute, doc: RouteDoc, components: Components): Operation {
  const pathNames = pathParamsOf(route.url);
  const operationId = doc.operationId ?? operationIdOf(route.method, route.url);
  const parameters = [
    ...parametersOfSchema(doc.params, 'path', pathNames).map(withUuidFormat),
    ...parametersOfSchema(doc.querystring, 'query', []),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(doc.responses ?? {})) {
    const key = /^\dxx$/i.test(status) ? status.toUpperCase() : status;
    const contentType = response.contentType ?? 'application/json';
    // Problem bodies (src/kernel/problem-schema.ts) are the shared component.
    const isProblem = contentType.startsWith(PROBLEM_CONTENT_TYPE);
    responses[key] = {
      description: response.description ?? (key.startsWith('2') ? 'Success.' : 'Error.'),
      headers: RESPONSE_HEADERS,
      ...(response.schema && key !== '204'
        ? {
            content: {
              [contentType]: {
                schema: isProblem
                  ? refTo('Problem')
                  : components.hoist(
                      plain(response.schema),
                      key.startsWith('2') ? `${pascal(operationId)}Response` : undefined,
                    ),
                ...(response.example !== undefined ? { example: plain(response.example) } : {}),
              },
            },
          }
        : {}),
    };
  }
  const authenticated = route.auth !== 'none';
  const security =
    route.auth === 'apiKey'
      ? bearerSecurity(route.scope ? [[route.scope]] : [])
      : route.auth === 'device'
        ? [{ deviceKey: [] }]
        : [];
  const hasBody = !!doc.body;
  const common = errorResponses({
    authenticated,
    hasBody,
    hasPathParams: pathNames.length > 0,
    // A device route's own deviceId is the key's device (another one is 403 device_mismatch), never a lookup.
    notFound: pathNames.some((name) => !(route.auth === 'device' && name === 'deviceId')),
    // A hand-written route lists a 409 among its own responses when it can conflict.
    mutates: false,
  });
  return {
    operationId,
    ...(doc.summary ? { summary: doc.summary } : {}),
    ...(doc.description ? { description: doc.description } : {}),
    tags: doc.tags ?? [tagOf(route.url)],
    security,
    ...(parameters.length ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: {
              [doc.bodyContentType ?? 'application/json']: {
                schema: components.hoist(plain(doc.body), `${pascal(operationId)}Request`),
                ...(doc.bodyExample !== undefined ? { example: plain(doc.bodyExample) } : {}),
              },
            },
          },
        }
      : {}),
    responses: { ...common, ...responses },
  };
}

/**
 * DeviceCommand and PendingDeviceCommand as one variant per command type (discriminator `type`),
 * each with its payload's shape (src/modules/devices/devices.rules.ts COMMAND_PAYLOADS).
 */
function typeCommandsByType(components: Components): void {
  for (const name of ['DeviceCommand', 'PendingDeviceCommand']) {
    const base = components.schemas[name];
    const properties = base?.properties as Record<string, JsonSchema> | undefined;
    if (!base || !properties?.type || !properties.payload) continue;
    const variant = (type: CommandType) =>
      components.add(`${pascal(type)}${name}`, {
        ...base,
        description: `${typeof base.description === 'string' ? base.description : name} (type ${type})`,
        properties: {
          ...properties,
          type: { type: 'string', const: type },
          payload: components.add(`${pascal(type)}CommandPayload`, COMMAND_PAYLOADS[type]),
        },
      });
    const variants = COMMAND_TYPES.map((type) => [type, variant(type)] as const);
    components.schemas[name] = {
      ...(base.description ? { description: base.description } : {}),
      oneOf: variants.map(([, ref]) => ref),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(variants.map(([type, ref]) => [type, ref.$ref])),
      },
    };
  }
}

/** Request bodies of bridged routes whose required fields alone say little (see openapi-examples.ts). */
const BODY_EXAMPLES: Record<string, unknown> = {
  updateBooking: { status: 'CONFIRMED' },
  updateWebhook: { active: false },
  rotateWebhookSecret: {},
  replayWebhookDeliveries: { since: '2026-12-01T00:00:00.000Z' },
};

const ACCOMMODATION_ID = 'b5d7f9b1-3d5f-4f7b-9d1f-5b7d9f1b3d8a';
const EIGHT_TO_TEN_PM = { open: '08:00', close: '22:00' };

/** Success bodies of bridged routes that a made-up example would show poorly (related ids, realistic values). */
const RESPONSE_EXAMPLES: Record<string, unknown> = {
  objectPage: {
    objects: [
      {
        id: '7a1d3e5f-2b4c-4d6e-8f0a-1b3c5d7e9f20',
        name: 'Court 1',
        pricePerHour: 2000,
        accommodationId: ACCOMMODATION_ID,
        accommodation: { id: ACCOMMODATION_ID },
        timeZone: 'Europe/Berlin',
        openingHours: {
          timeZone: 'Europe/Berlin',
          schedule: {
            monday: EIGHT_TO_TEN_PM,
            tuesday: EIGHT_TO_TEN_PM,
            wednesday: EIGHT_TO_TEN_PM,
            thursday: EIGHT_TO_TEN_PM,
            friday: EIGHT_TO_TEN_PM,
            saturday: { open: '09:00', close: '18:00' },
            sunday: null,
          },
          specialDates: [{ date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null }],
        },
        bookingRules: {
          timeZone: 'Europe/Berlin',
          minDurationMinutes: 60,
          maxDurationMinutes: 240,
          slotIncrementMinutes: 60,
          minAdvanceMinutes: 0,
          maxAdvanceDays: 365,
          bufferMinutes: 0,
        },
        createdAt: '2026-11-02T09:30:00.000Z',
        metadata: { sku: 'court-1' },
        updatedAt: '2026-11-20T16:05:00.000Z',
        livemode: true,
        published: true,
      },
    ],
    pagination: { page: 1, pageSize: 20, total: 1 },
  },
  objectAvailability: {
    date: '2026-12-04',
    objects: [
      {
        objectId: '7a1d3e5f-2b4c-4d6e-8f0a-1b3c5d7e9f20',
        objectName: 'Court 1',
        timeZone: 'Europe/Berlin',
        // issue #44: the instants, and the times in the zone asked for (timeZone=America/New_York).
        slots: [
          {
            start: '08:00',
            end: '09:00',
            available: true,
            startTime: '2026-12-04T07:00:00.000Z',
            endTime: '2026-12-04T08:00:00.000Z',
            localStart: '2026-12-04T02:00:00-05:00',
            localEnd: '2026-12-04T03:00:00-05:00',
          },
          {
            start: '09:00',
            end: '10:00',
            available: false,
            startTime: '2026-12-04T08:00:00.000Z',
            endTime: '2026-12-04T09:00:00.000Z',
            localStart: '2026-12-04T03:00:00-05:00',
            localEnd: '2026-12-04T04:00:00-05:00',
          },
          {
            start: '10:00',
            end: '11:00',
            available: true,
            startTime: '2026-12-04T09:00:00.000Z',
            endTime: '2026-12-04T10:00:00.000Z',
            localStart: '2026-12-04T04:00:00-05:00',
            localEnd: '2026-12-04T05:00:00-05:00',
          },
        ],
      },
    ],
    callerTimeZone: 'America/New_York',
  },
  // docs/events.md: one booking event as a delivery's body carries it, and the cursor of the next page.
  eventFeed: {
    events: [
      {
        id: '3320d321-8b9c-4ab7-83c5-427c5b69eece',
        type: 'booking.confirmed',
        timestamp: '2026-12-01T09:30:12.345Z',
        tenantId: '0b9e6d2c-4f1a-4e8b-a7c3-2d5f8e1b6a90',
        apiVersion: API_VERSION,
        data: {
          booking: {
            id: '5c8e2f4a-6b1d-4a3c-9e7f-0d2b4c6e8a13',
            objectId: '7a1d3e5f-2b4c-4d6e-8f0a-1b3c5d7e9f20',
            objectName: 'Court 1',
            guestName: 'Ada Lovelace',
            guestEmail: 'ada@example.org',
            guestPhone: null,
            startTime: '2026-12-04T14:00:00.000Z',
            endTime: '2026-12-04T15:00:00.000Z',
            status: 'CONFIRMED',
            totalPrice: 2000,
            currency: 'EUR',
            createdAt: '2026-12-01T09:12:40.118Z',
            metadata: { orderRef: 'A-1042' },
          },
          sequence: 2,
        },
        livemode: true,
      },
    ],
    next: 'ZXZlbnQ6ODQyMTU3fDkwMTI',
  },
};

/** Fills in the examples routes did not give: every request body and every success body gets one. */
function addExamples(paths: OpenApiDocument['paths'], components: Components): void {
  const resolve = (ref: string) => components.schemas[ref.replace('#/components/schemas/', '')];
  for (const operation of Object.values(paths).flatMap((ops) => Object.values(ops))) {
    for (const [contentType, media] of Object.entries(operation.requestBody?.content ?? {})) {
      if (media.example !== undefined) continue;
      const explicit = BODY_EXAMPLES[operation.operationId];
      const example =
        explicit ?? (isJson(contentType) ? exampleOf(media.schema, resolve, '', 0, false) : textExample(contentType));
      if (example !== undefined) media.example = example;
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      const content =
        (response as { content?: Record<string, { schema?: JsonSchema; example?: unknown }> }).content ?? {};
      for (const [contentType, media] of Object.entries(content)) {
        if (media.example !== undefined) continue;
        const explicit = isJson(contentType) ? RESPONSE_EXAMPLES[operation.operationId] : undefined;
        const example = explicit ?? (isJson(contentType) ? exampleOf(media.schema, resolve) : textExample(contentType));
        if (example !== undefined) media.example = example;
      }
    }
  }
}

/** The shared error responses some operation refers to (an unused component is noise to a client; redocly's no-unused-components). */
function usedResponses(paths: OpenApiDocument['paths']): Partial<typeof ERROR_RESPONSES> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).filter(([name]) => text.includes(`"#/components/responses/${name}"`)),
  );
}

export function buildOpenApiDocument(options: {
  schema: GraphQLSchema;
  routes: RegisteredRoute[];
  publicUrl: string;
  version: string;
}): BuiltDocument {
  const components = new Components();
  components.add('Problem', PROBLEM_SCHEMA);
  const converter = new SchemaConverter(options.schema, components);
  const models = [...createSofa({ schema: options.schema, basePath: '' }).models, ...sofaExtraModels];
  const paths: OpenApiDocument['paths'] = {};
  const undocumented: string[] = [];
  const operationIds = new Set<string>();

  for (const route of options.routes) {
    if (route.hidden) continue;
    let operation: Operation;
    if (route.restRoute) operation = bridgedOperation(options.schema, converter, components, route.restRoute, models);
    else if (route.doc) operation = handWrittenOperation(route, route.doc, components);
    else {
      undocumented.push(`${route.method} ${route.url}`);
      continue;
    }
    operation = withIdempotencyKey(route.method, route.url, operation);
    operation.parameters = [...(operation.parameters ?? []), { ...VERSION_PARAMETER }];
    if (operationIds.has(operation.operationId))
      operation.operationId = `${operation.operationId}${route.method.charAt(0)}${route.method.slice(1).toLowerCase()}`;
    operationIds.add(operation.operationId);
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation;
  }

  typeCommandsByType(components);
  addExamples(paths, components);

  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)))]
    .sort()
    .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));

  const webhooks = webhooksSection(components);
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Portier API',
      version: options.version,
      description:
        'Reservations and door access. Tenant-scoped REST routes live under /api/v1, devices and the price preview under /api. ' +
        'Errors are RFC 9457 problem+json. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id and Portier-Version. ' +
        'A Portier-Version request header (a release date) pins the API version; without it the current one serves the request.',
    },
    servers: [{ url: options.publicUrl }],
    tags,
    paths,
    webhooks: webhooks.section,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: usedResponses(paths),
      headers: COMMON_HEADERS,
      securitySchemes: securitySchemes(options.publicUrl, SCOPE_WORDS, {
        authorize: OAUTH_ROUTES.authorization,
        token: OAUTH_ROUTES.token,
      }),
    },
  };
  return {
    document,
    undocumented,
    untypedScalars: [...converter.untypedScalars],
    componentConflicts: components.conflicts,
    undescribedEvents: webhooks.undescribed,
  };
}
