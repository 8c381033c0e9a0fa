import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import { harness, type Harness } from './harness.js';
import { buildDoor, buildVenue } from './builders.js';
import { dereference, operationsOf, schemaNodes, servedRoutes } from './openapi-helpers.js';
import { REST_ROUTES } from '../src/rest/routes.js';
import { buildSchema } from '../src/graphql/schema.js';
import type { OpenApiDocument } from '../src/rest/openapi.js';
import { EVENT_TYPES } from '../src/modules/webhooks/index.js';

let h: Harness;
let document: OpenApiDocument;

beforeAll(async () => {
  h = await harness();
  const res = await h.request({ method: 'GET', url: '/api/openapi.json' });
  expect(res.status).toBe(200);
  document = res.body;
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents exactly the routes fastify serves', () => {
    const documented = operationsOf(document)
      .map((op) => `${op.method} ${op.url}`)
      .sort();
    expect(documented).toEqual(servedRoutes(h.app.fastify));
    expect(h.app.openapi().undocumented).toEqual([]);
    // Every bridged route is among them.
    for (const route of REST_ROUTES) expect(documented).toContain(`${route.method} /api/v1${route.path}`);
  });

  it('gives each operation a unique operationId, security and a success response with a schema', () => {
    const ids = operationsOf(document).map((op) => op.operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, url, operation } of operationsOf(document)) {
      expect(Array.isArray(operation.security), `${method} ${url} security`).toBe(true);
      // A step of a browser flow (the OAuth authorization endpoint) succeeds with a redirect.
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2') || status === '303');
      expect(successes.length, `${method} ${url} has a 2xx response`).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        if (status === '204' || status === '303') continue;
        const content = (response as { content?: Record<string, { schema?: unknown }> }).content ?? {};
        expect(Object.keys(content).length, `${method} ${url} ${status} has content`).toBeGreaterThan(0);
        for (const media of Object.values(content)) expect(media.schema, `${method} ${url} ${status} schema`).toBeDefined();
      }
    }
  });

  it('declares each path parameter once, in the path only', () => {
    for (const { method, url, operation } of operationsOf(document)) {
      const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const parameters = operation.parameters ?? [];
      const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath.sort(), `${method} ${url}`).toEqual([...names].sort());
      expect(parameters.every((p) => p.in !== 'path' || p.required)).toBe(true);
      const queryNames = parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const body = dereference(operation.requestBody?.content['application/json']?.schema, document) as { properties?: Record<string, unknown> } | undefined;
      const bodyNames = Object.keys(body?.properties ?? {});
      for (const name of names) {
        expect(queryNames, `${method} ${url}: ${name} repeated in the query`).not.toContain(name);
        expect(bodyNames, `${method} ${url}: ${name} repeated in the body`).not.toContain(name);
      }
    }
  });

  it('types every scalar', () => {
    expect(h.app.openapi().untypedScalars).toEqual([]);
    const untyped: string[] = [];
    for (const { method, url, operation } of operationsOf(document)) {
      const roots: [string, unknown][] = [
        ...(operation.parameters ?? []).map((p) => [`${p.in} ${p.name}`, p.schema] as [string, unknown]),
        ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [`body ${type}`, media.schema] as [string, unknown]),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries((dereference(response, document) as { content?: Record<string, { schema: unknown }> }).content ?? {}).map(
            ([type, media]) => [`${status} ${type}`, media.schema] as [string, unknown],
          ),
        ),
      ];
      for (const [where, schema] of roots) {
        for (const [path, node] of schemaNodes(schema, document, `${method} ${url} ${where}`)) {
          const structured = ['type', 'const', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref'].some((k) => k in node);
          const anyJson = typeof node.description === 'string' && node.description.startsWith('Any JSON value');
          if (!structured && !anyJson) untyped.push(path);
        }
      }
    }
    expect(untyped).toEqual([]);
  });

  it('names, for bridged routes, the scopes their GraphQL field requires', () => {
    const schema = buildSchema();
    for (const route of REST_ROUTES) {
      const [root, name] = route.field.split('.');
      const field = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
      const sets = getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ?? [];
      const operation = document.paths[`/api/v1${route.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][route.method.toLowerCase()];
      expect(operation.security).toEqual(sets.length ? sets.map((set) => ({ apiKey: set })) : [{ apiKey: [] }]);
      // REST_ROUTES' own `scope` (when given) must agree with the schema.
      if (route.scope) expect(sets.some((set) => set.includes(route.scope!))).toBe(true);
    }
  });

  it('describes what the bridged routes really return', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const { tenantId, apiKey, accommodation, object } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const ids: Record<string, string> = { tenantId, objectId: object.id, accommodationId: accommodation.id, doorId: door.id, id: object.id };
    let checked = 0;
    for (const { method, url, operation } of operationsOf(document)) {
      if (method !== 'GET' || !url.startsWith('/api/v1/tenants/')) continue;
      const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      if (!names.every((n) => ids[n]) || (operation.parameters ?? []).some((p) => p.in === 'query' && p.required)) continue;
      const res = await h.request({ method: 'GET', url: url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => ids[n]), apiKey });
      expect(res.status, `${url}: ${res.text}`).toBe(200);
      const schema = dereference((operation.responses['200'] as { content: Record<string, { schema: unknown }> }).content['application/json'].schema, document);
      const validate = ajv.compile(schema as object);
      expect(validate(res.body) ? [] : validate.errors, `${method} ${url}`).toEqual([]);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});

describe('the OpenAPI document for SDK generators', () => {
  const schemas = () => document.components.schemas as Record<string, Record<string, unknown>>;

  it('names every resource, payload and request body as a component and refers to it with $ref', () => {
    // One shape per name: no component had to be renamed <Name>2.
    expect(h.app.openapi().componentConflicts).toEqual([]);
    for (const name of [
      'Booking',
      'BookingListItem',
      'BookingPage',
      'Pagination',
      'BookingCredentials',
      'Webhook',
      'WebhookDelivery',
      'DeviceCommand',
      'PendingDeviceCommand',
      'DeviceConfig',
      'AccessDecision',
      'AccessCheckRequest',
      'PricePreview',
      'PricePreviewRequest',
      'PricingRule',
      'CancellationPolicy',
      'AvailabilityByObject',
      'Problem',
      'CreateBookingRequest',
      'UpdateBookingRequest',
      'CreateWebhookRequest',
      'CreatePricingRuleRequest',
    ]) {
      expect(schemas(), name).toHaveProperty(name);
    }
    // JSON bodies of the API (requests and successes) are $refs: a generated client has a named type for each.
    for (const { method, url, operation } of operationsOf(document)) {
      if (!url.startsWith('/api/') || url === '/api/openapi.json') continue;
      const bodies = [
        operation.requestBody?.content['application/json']?.schema,
        ...Object.entries(operation.responses)
          .filter(([status]) => status.startsWith('2'))
          .map(([, r]) => (r as { content?: Record<string, { schema: unknown }> }).content?.['application/json']?.schema),
      ].filter(Boolean) as { $ref?: string }[];
      for (const body of bodies) expect(body.$ref, `${method} ${url}`).toMatch(/^#\/components\/schemas\/[A-Z][A-Za-z]+$/);
    }
    // A list item has its own name, the same shape as the resource.
    expect(schemas().BookingListItem.$ref).toBe('#/components/schemas/Booking');
    expect(dereference(schemas().BookingPage, document)).toHaveProperty('properties.bookings.items.properties.status.enum', ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED']);
  });

  it("gives formats, closed sets, defaults and the validators' limits", () => {
    const list = document.paths['/api/v1/tenants/{tenantId}/bookings'].get;
    const param = (name: string) => list.parameters!.find((p) => p.name === name)!.schema;
    expect(param('tenantId')).toEqual({ type: 'string', format: 'uuid' });
    expect(param('page')).toMatchObject({ minimum: 1, default: 1 });
    expect(param('pageSize')).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(param('guestEmail')).toMatchObject({ format: 'email' });
    const booking = schemas().Booking as { properties: Record<string, Record<string, unknown>> };
    expect(booking.properties.id).toMatchObject({ format: 'uuid' });
    expect(booking.properties.guestEmail).toMatchObject({ format: 'email' });
    expect(booking.properties.paymentUrl).toMatchObject({ format: 'uri' });
    expect(booking.properties.startTime).toMatchObject({ format: 'date-time' });
    const create = schemas().CreateBookingRequest as { properties: Record<string, Record<string, unknown>> };
    expect(create.properties.guestName).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(create.properties.objectId).toMatchObject({ format: 'uuid' });
    const rule = schemas().CreatePricingRuleRequest as { properties: Record<string, Record<string, unknown>> };
    expect(rule.properties.type.enum).toEqual(['time_based', 'day_based', 'duration_based', 'early_bird']);
    expect(rule.properties.weekdays).toMatchObject({ items: { enum: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] } });
    expect(rule.properties.percent).toMatchObject({ minimum: -100, maximum: 1000 });
    const hook = schemas().CreateWebhookRequest as { properties: Record<string, Record<string, unknown>> };
    expect(hook.properties.url).toMatchObject({ format: 'uri', maxLength: 2048 });
    expect(hook.properties.secret).toMatchObject({ minLength: 16, maxLength: 512 });
    expect(hook.properties.events).toMatchObject({ minItems: 1, items: { enum: expect.arrayContaining(['booking.created', 'booking.rescheduled']) } });
    expect(schemas().DeviceCommand).toHaveProperty('properties.status.enum', ['pending', 'delivered', 'executed', 'failed', 'expired']);
    expect(document.paths['/api/v1/tenants/{tenantId}/objects/availability'].get.parameters!.find((p) => p.name === 'date')!.schema).toMatchObject({ format: 'date' });
  });

  it('lists the error statuses each route can give, as problem+json', () => {
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    // Only the tenant in the path (a wrong one is 403, an empty one 400): no 404.
    expect(statuses('/api/v1/tenants/{tenantId}/webhooks', 'get')).toEqual(['200', '400', '401', '403', '414', '429', '503']);
    // A resource in the path: 404. A create that can overlap: 409 (and 422 for a reused Idempotency-Key).
    expect(statuses('/api/v1/tenants/{tenantId}/bookings/{bookingId}', 'get')).toContain('404');
    expect(statuses('/api/v1/tenants/{tenantId}/bookings', 'post')).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', '422', '429', '503']));
    expect(statuses('/api/v1/tenants/{tenantId}/bookings', 'post')).not.toContain('404');
    expect(statuses('/api/v1/tenants/{tenantId}/webhooks/{webhookId}', 'delete')).not.toContain('409');
    // A device names itself in the path: another device is 403, so only a command lookup can be 404.
    expect(statuses('/api/devices/{deviceId}/heartbeat', 'post')).not.toContain('404');
    expect(statuses('/api/devices/{deviceId}/commands/{commandId}', 'patch')).toContain('404');
    // The REST and device routes answer errors as problem+json (GraphQL, OAuth and HTML pages document their own).
    for (const { method, url, operation } of operationsOf(document)) {
      if (!/^\/api\/(v1\/tenants|devices|pricing)\//.test(url)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        const content = (dereference(response, document) as { content?: Record<string, { schema: unknown }> }).content ?? {};
        expect(Object.keys(content), `${method} ${url} ${status}`).toEqual(['application/problem+json']);
      }
    }
  });

  it('describes every webhook event, its envelope and the signature headers (OpenAPI 3.1 webhooks)', () => {
    expect(h.app.openapi().undescribedEvents).toEqual([]);
    const webhooks = document.webhooks as Record<string, { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: unknown }> } } }>;
    expect(Object.keys(webhooks)).toEqual(expect.arrayContaining([...EVENT_TYPES, 'webhook.test', 'device.offline', 'device.online']));
    for (const [type, item] of Object.entries(webhooks)) {
      expect(item.post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const envelope = dereference(item.post.requestBody.content['application/json'].schema, document) as { properties: Record<string, { const?: unknown }>; required: string[] };
      expect(envelope.required).toEqual(['id', 'type', 'timestamp', 'tenantId', 'apiVersion', 'data']);
      expect(envelope.properties.type.const).toBe(type);
    }
    const rescheduled = dereference(webhooks['booking.rescheduled'].post.requestBody.content['application/json'].schema, document) as {
      properties: { data: { required: string[] } };
    };
    expect(rescheduled.properties.data.required).toEqual(['booking', 'sequence', 'previous']);
    const offline = dereference(webhooks['device.offline'].post.requestBody.content['application/json'].schema, document) as { properties: { data: { required: string[] } } };
    expect(offline.properties.data.required).toEqual(['device', 'lastSeenAt', 'offlineAfterSeconds', 'sequence']);
  });
});

/** Just enough DOM to run the page's script outside a browser. */
class FakeElement {
  readonly children: FakeElement[] = [];
  readonly attributes: Record<string, string> = {};
  text = '';
  constructor(readonly tag: string) {}
  setAttribute(name: string, value: string) {
    this.attributes[name] = value;
  }
  appendChild(child: FakeElement) {
    this.children.push(child);
    return child;
  }
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join('');
  }
  *all(): Generator<FakeElement> {
    yield this;
    for (const child of this.children) yield* child.all();
  }
}

function renderWithFakeDom(html: string) {
  const json = /<script type="application\/json" id="openapi">([\s\S]*?)<\/script>/.exec(html)![1];
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
  const byId: Record<string, FakeElement> = { nav: new FakeElement('nav'), main: new FakeElement('main'), openapi: new FakeElement('script') };
  byId.openapi.text = json; // a browser's textContent: the raw text, \u003c escapes included
  const fakeDocument = {
    getElementById: (id: string) => byId[id],
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeElement('#text'), { text }),
  };
  new Function('document', script)(fakeDocument);
  return byId;
}

describe('the API reference page', () => {
  it('renders every operation with its parameters, body and responses', async () => {
    const html = (await h.request({ method: 'GET', url: '/api/docs' })).text;
    const { main, nav } = renderWithFakeDom(html);
    const sections = [...main.all()].filter((e) => e.attributes.class === 'op');
    const operations = operationsOf(document);
    expect(sections.map((s) => s.attributes.id).sort()).toEqual(operations.map((o) => o.operation.operationId).sort());
    expect([...nav.all()].filter((e) => e.tag === 'a')).toHaveLength(operations.length);
    const rules = sections.find((s) => s.attributes.id === 'bookingRules')!.textContent;
    expect(rules).toContain('/api/v1/tenants/{tenantId}/objects/{objectId}/booking-rules');
    expect(rules).toContain('catalog:read');
    expect(rules).toContain('minDurationMinutes: integer (int32)');
    expect(rules).toContain('429');
  });

  it('is one self-contained HTML page that loads nothing from elsewhere', async () => {
    const res = await h.request({ method: 'GET', url: '/api/docs' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
    // The document is embedded, so the page renders without another request.
    const embedded = /<script type="application\/json" id="openapi">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(embedded!)).toEqual(document);
    // The CSP allows the page's own inline script and style, by hash, and no other source.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(csp).not.toMatch(/https?:|'unsafe-inline'|\*/);
  });
});
