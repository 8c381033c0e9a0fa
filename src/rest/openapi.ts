import { isNonNullType, Kind, OperationTypeNode, type GraphQLField, type GraphQLSchema } from 'graphql';
import { buildOperationNodeForField, getDirectiveExtensions } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { withIdempotencyKey } from './openapi-idempotency.js';
import type { RestRoute } from './routes.js';
import { sofaIgnore } from './ignore.js';
import type { JsonSchema, RegisteredRoute, RouteDoc } from './openapi-registry.js';
import { SchemaConverter, withHint } from './openapi-graphql.js';
import { Components, pascal, refTo } from './openapi-components.js';
import { argumentConstraints } from './openapi-hints.js';
import { webhooksSection } from './openapi-webhooks.js';
import { PROBLEM_CONTENT_TYPE } from '../http/problem-schema.js';
import { COMMON_HEADERS, ERROR_RESPONSES, PROBLEM_SCHEMA, RESPONSE_HEADERS, SECURITY_SCHEMES, errorResponses } from './openapi-common.js';

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
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
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
  dashboard: 'Sessions of the dashboard at /dashboard (cookie and CSRF token; see docs/dashboard.md).',
};

/** /tenants/:tenantId/objects/:objectId/x → /tenants/{tenantId}/objects/{objectId}/x */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
export const pathParamsOf = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

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
  const directives = getDirectiveExtensions<{ requiresScopes: { scopes: string[][] }; authenticated: Record<string, never> }>(field, schema);
  const sets = directives.requiresScopes?.[0]?.scopes;
  if (sets?.length) return sets.map((set) => ({ apiKey: set }));
  return [{ apiKey: [] }];
}

/** Bridged mutations that can conflict with the current state (409 besides the Idempotency-Key's): their services throw conflict(). */
const CONFLICTING_FIELDS = new Set(['createBooking', 'updateBooking', 'testWebhook', 'redeliverWebhookEvent', 'replayWebhookDeliveries', 'createDeviceCommand']);

function bridgedOperation(schema: GraphQLSchema, converter: SchemaConverter, components: Components, route: RestRoute, models: string[]): Operation {
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
      parameters.push({ name: arg.name, in: 'path', required: true, ...(shown ? { description: shown } : {}), schema: converter.inputNonNull(arg.type) });
    } else if (usesBody) {
      bodyProperties[arg.name] = { ...withHint(converter.input(arg.type), limits), ...(description ? { description } : {}) };
      if (required) bodyRequired.push(arg.name);
    } else {
      parameters.push({ name: arg.name, in: 'query', required, ...(description ? { description } : {}), schema: withHint(converter.input(arg.type), limits) });
    }
  }
  const missing = [...inPath].filter((name) => !field.args.some((a) => a.name === name));
  if (missing.length) throw new Error(`REST route ${route.method} ${route.path}: ${route.field} has no argument ${missing.join(', ')}`);

  const hasBody = Object.keys(bodyProperties).length > 0;
  // Any argument can be refused with 400 (an empty tenantId in the path too: "must not be empty").
  const hasInput = field.args.length > 0;
  // A missing resource named in the path is 404; the path's own tenant is never looked up (403 when it is not the key's).
  const hasResourceInPath = [...inPath].some((name) => name !== 'tenantId');
  const status = route.status ?? 200;
  const success =
    status === 204
      ? { description: 'Done.', headers: RESPONSE_HEADERS }
      : { description: 'Success.', headers: RESPONSE_HEADERS, content: { 'application/json': { schema: converter.output(field.type, selection) } } };
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
      ...errorResponses({ authenticated: true, hasInput, hasBody, hasPathParams: inPath.size > 0, notFound: hasResourceInPath, mutates: CONFLICTING_FIELDS.has(fieldName) }),
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

function handWrittenOperation(route: RegisteredRoute, doc: RouteDoc, components: Components): Operation {
  const pathNames = pathParamsOf(route.url);
  const operationId = doc.operationId ?? operationIdOf(route.method, route.url);
  const parameters = [...parametersOfSchema(doc.params, 'path', pathNames), ...parametersOfSchema(doc.querystring, 'query', [])];
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(doc.responses ?? {})) {
    const key = /^\dxx$/i.test(status) ? status.toUpperCase() : status;
    const contentType = response.contentType ?? 'application/json';
    // Problem bodies (src/http/problem-schema.ts) are the shared component.
    const isProblem = contentType.startsWith(PROBLEM_CONTENT_TYPE);
    responses[key] = {
      description: response.description ?? (key.startsWith('2') ? 'Success.' : 'Error.'),
      headers: RESPONSE_HEADERS,
      ...(response.schema && key !== '204'
        ? {
            content: {
              [contentType]: {
                schema: isProblem ? refTo('Problem') : components.hoist(plain(response.schema), key.startsWith('2') ? `${pascal(operationId)}Response` : undefined),
              },
            },
          }
        : {}),
    };
  }
  const authenticated = route.auth !== 'none';
  const security = route.auth === 'apiKey' ? [{ apiKey: route.scope ? [route.scope] : [] }] : route.auth === 'device' ? [{ deviceKey: [] }] : [];
  const hasBody = !!doc.body;
  const common = errorResponses({
    authenticated,
    hasInput: parameters.length > 0 || hasBody,
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
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: components.hoist(plain(doc.body), `${pascal(operationId)}Request`) } } } } : {}),
    responses: { ...common, ...responses },
  };
}

export function buildOpenApiDocument(options: { schema: GraphQLSchema; routes: RegisteredRoute[]; publicUrl: string; version: string }): BuiltDocument {
  const components = new Components();
  components.add('Problem', PROBLEM_SCHEMA);
  const converter = new SchemaConverter(options.schema, components);
  const { models } = createSofa({ schema: options.schema, basePath: '' });
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
    if (operationIds.has(operation.operationId)) operation.operationId = `${operation.operationId}${route.method.charAt(0)}${route.method.slice(1).toLowerCase()}`;
    operationIds.add(operation.operationId);
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation;
  }

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
        'Errors are RFC 9457 problem+json. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and X-Request-Id.',
    },
    servers: [{ url: options.publicUrl }],
    tags,
    paths,
    webhooks: webhooks.section,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: ERROR_RESPONSES,
      headers: COMMON_HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
  return { document, undocumented, untypedScalars: [...converter.untypedScalars], componentConflicts: components.conflicts, undescribedEvents: webhooks.undescribed };
}
