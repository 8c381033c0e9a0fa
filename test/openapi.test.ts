import { MODULES } from '../src/app/modules.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import { harness, type Harness } from './harness.js';
import { buildDoor, buildVenue, slotInDays } from './builders.js';
import { dereference, operationsOf, schemaNodes, servedRoutes } from './openapi-helpers.js';
import { REST_ROUTES } from '../src/transport/rest/routes.js';
import { buildSchema } from '../src/transport/graphql/schema.js';
import type { OpenApiDocument } from '../src/transport/rest/openapi.js';
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
    // Less the routes kept out on purpose (`config.openapi: false`: /dashboard/, the same page as /dashboard).
    const hidden = new Set(h.app.routes.routes.filter((r) => r.hidden).map((r) => `${r.method} ${r.url}`));
    expect([...hidden]).toEqual(['GET /dashboard/']);
    // Less the CORS preflight route (@fastify/cors answers preflights in its hook; docs/booking-page.md).
    expect(documented).toEqual(
      servedRoutes(h.app.fastify).filter((route) => !hidden.has(route) && route !== 'OPTIONS *'),
    );
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
      // A step of a browser flow (the OAuth authorization endpoint, the server root sending a browser
      // to the dashboard) succeeds with a redirect.
      const successes = Object.entries(operation.responses).filter(
        ([status]) => status.startsWith('2') || status === '302' || status === '303',
      );
      expect(successes.length, `${method} ${url} has a 2xx response`).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        if (status === '204' || status === '302' || status === '303') continue;
        const content = (response as { content?: Record<string, { schema?: unknown }> }).content ?? {};
        expect(Object.keys(content).length, `${method} ${url} ${status} has content`).toBeGreaterThan(0);
        for (const media of Object.values(content))
          expect(media.schema, `${method} ${url} ${status} schema`).toBeDefined();
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
      const body = dereference(operation.requestBody?.content['application/json']?.schema, document) as
        { properties?: Record<string, unknown> } | undefined;
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
        ...Object.entries(operation.requestBody?.content ?? {}).map(
          ([type, media]) => [`body ${type}`, media.schema] as [string, unknown],
        ),
        ...Object.entries(operation.responses).flatMap(([status, response]) =>
          Object.entries(
            (dereference(response, document) as { content?: Record<string, { schema: unknown }> }).content ?? {},
          ).map(([type, media]) => [`${status} ${type}`, media.schema] as [string, unknown]),
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
    const schema = buildSchema(MODULES);
    for (const route of REST_ROUTES) {
      const [root, name] = route.field.split('.');
      const field = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
      const sets =
        getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ??
        [];
      const operation =
        document.paths[`/api/v1${route.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][route.method.toLowerCase()];
      // An API key or an OAuth access token, each with the same scopes.
      expect(operation.security).toEqual(
        (sets.length ? sets : [[]]).flatMap((set) => [{ apiKey: set }, { oauth2: set }]),
      );
      // REST_ROUTES' own `scope` (when given) must agree with the schema.
      if (route.scope) expect(sets.some((set) => set.includes(route.scope!))).toBe(true);
    }
  });

  it('describes what the bridged routes really return', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const { tenantId, apiKey, accommodation, object } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    // The booking page on, so that the publishable key's routes answer (an admin key holds booking_page).
    await h.graphql(
      apiKey,
      'mutation($s: String!) { updateBookingPageSettings(input: {enabled: true, slug: $s}) { slug } }',
      {
        s: `openapi-${tenantId.slice(0, 8)}`,
      },
    );
    // A recurring booking, for GET /booking-series/:id.
    const slot = slotInDays(3);
    const series = await h.graphql(
      apiKey,
      'mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBookingSeries(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e, rule: "FREQ=DAILY;COUNT=2") { series { id } } }',
      { o: object.id, s: slot.startTime, e: slot.endTime },
    );
    const ids: Record<string, string> = {
      tenantId,
      objectId: object.id,
      accommodationId: accommodation.id,
      doorId: door.id,
      id: series.body.data.createBookingSeries.series.id,
    };
    // The series' guest is a customer: /customers/:id names that one (the other `:id`s the series).
    const customer = await h.deps.database.db
      .selectFrom('customers')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    const idOf = (path: string, name: string) =>
      name === 'id' && path.includes('/customers/') ? customer.id : ids[name];
    // Routes whose query needs one of several forms: each form is asked and checked.
    const queries: Record<string, string[]> = {
      '/api/v1/tenants/:tenantId/objects/availability': ['date=2026-11-21', 'from=2026-11-21&to=2026-11-23'],
    };
    let checked = 0;
    for (const { method, url: path, operation } of operationsOf(document)) {
      if (method !== 'GET' || !path.startsWith('/api/v1/tenants/')) continue;
      const names = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      if (!names.every((n) => ids[n]) || (operation.parameters ?? []).some((p) => p.in === 'query' && p.required))
        continue;
      for (const query of queries[path] ?? ['']) {
        const url = `${path}${query ? `?${query}` : ''}`;
        const res = await h.request({
          method: 'GET',
          url: url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => idOf(path, n)),
          apiKey,
        });
        expect(res.status, `${url}: ${res.text}`).toBe(200);
        const content = (operation.responses['200'] as { content: Record<string, { schema: unknown }> }).content;
        if (!content['application/json']) {
          // A download (the CSV exports): the answer has the documented media type.
          expect(
            Object.keys(content).some((type) => String(res.headers['content-type']).startsWith(type)),
            `${method} ${url}`,
          ).toBe(true);
          continue;
        }
        const schema = dereference(content['application/json'].schema, document);
        const validate = ajv.compile(schema as object);
        expect(validate(res.body) ? [] : validate.errors, `${method} ${url}`).toEqual([]);
        checked += 1;
      }
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
      'AvailabilityRange',
      'AvailabilityResult',
      'ObjectPage',
      'BookableObject',
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
          .map(
            ([, r]) => (r as { content?: Record<string, { schema: unknown }> }).content?.['application/json']?.schema,
          ),
      ].filter(Boolean) as { $ref?: string }[];
      for (const body of bodies)
        expect(body.$ref ?? `${method} ${url}: ${JSON.stringify(body).slice(0, 200)}`).toMatch(
          /^#\/components\/schemas\/[A-Z][A-Za-z]+$/,
        );
    }
    // A list item has its own name, the same shape as the resource.
    expect(schemas().BookingListItem.$ref).toBe('#/components/schemas/Booking');
    expect(dereference(schemas().BookingPage, document)).toHaveProperty(
      'properties.bookings.items.properties.status.enum',
      ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'],
    );
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
    expect(rule.properties.weekdays).toMatchObject({
      items: { enum: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] },
    });
    expect(rule.properties.percent).toMatchObject({ minimum: -100, maximum: 1000 });
    const hook = schemas().CreateWebhookRequest as { properties: Record<string, Record<string, unknown>> };
    expect(hook.properties.url).toMatchObject({ format: 'uri', maxLength: 2048 });
    expect(hook.properties.secret).toMatchObject({ minLength: 16, maxLength: 512 });
    expect(hook.properties.events).toMatchObject({
      minItems: 1,
      items: { enum: expect.arrayContaining(['booking.created', 'booking.rescheduled']) },
    });
    expect(schemas().UnlockDeviceCommand).toHaveProperty('properties.status.enum', [
      'pending',
      'delivered',
      'executed',
      'failed',
      'expired',
    ]);
    expect(
      document.paths['/api/v1/tenants/{tenantId}/objects/availability'].get.parameters!.find((p) => p.name === 'date')!
        .schema,
    ).toMatchObject({ format: 'date' });
  });

  it('lists the error statuses each route can give, as problem+json', () => {
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    // Only the tenant in the path (a wrong one is 403, an empty one 400): no 404. Every route can
    // also be cut off before it runs: 408 (the request did not arrive in time), 431 (headers too large).
    expect(statuses('/api/v1/tenants/{tenantId}/webhooks', 'get')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '408',
      '414',
      '429',
      '431',
      '503',
    ]);
    // A resource in the path: 404. A create that can overlap: 409 (and 422 for a reused Idempotency-Key).
    expect(statuses('/api/v1/tenants/{tenantId}/bookings/{bookingId}', 'get')).toContain('404');
    expect(statuses('/api/v1/tenants/{tenantId}/bookings', 'post')).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', '422', '429', '503']),
    );
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
        const content =
          (dereference(response, document) as { content?: Record<string, { schema: unknown }> }).content ?? {};
        expect(Object.keys(content), `${method} ${url} ${status}`).toEqual(['application/problem+json']);
      }
    }
  });

  it('describes every webhook event, its envelope and the signature headers (OpenAPI 3.1 webhooks)', () => {
    expect(h.app.openapi().undescribedEvents).toEqual([]);
    const webhooks = document.webhooks as Record<
      string,
      { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: unknown }> } } }
    >;
    expect(Object.keys(webhooks)).toEqual(
      expect.arrayContaining([...EVENT_TYPES, 'webhook.test', 'device.offline', 'device.online']),
    );
    for (const [type, item] of Object.entries(webhooks)) {
      expect(item.post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const envelope = dereference(item.post.requestBody.content['application/json'].schema, document) as {
        properties: Record<string, { const?: unknown }>;
        required: string[];
      };
      expect(envelope.required).toEqual(['id', 'type', 'timestamp', 'tenantId', 'apiVersion', 'data', 'livemode']);
      expect(envelope.properties.type.const).toBe(type);
    }
    const rescheduled = dereference(
      webhooks['booking.rescheduled'].post.requestBody.content['application/json'].schema,
      document,
    ) as {
      properties: { data: { required: string[] } };
    };
    expect(rescheduled.properties.data.required).toEqual(['booking', 'sequence', 'previous']);
    const offline = dereference(
      webhooks['device.offline'].post.requestBody.content['application/json'].schema,
      document,
    ) as { properties: { data: { required: string[] } } };
    expect(offline.properties.data.required).toEqual(['device', 'lastSeenAt', 'offlineAfterSeconds', 'sequence']);
  });
});

describe('the API reference page', () => {
  // Rendered in the browser by Scalar (test/e2e/api-reference.test.ts looks at it in Chromium).
  it('loads the renderer and the document from this host only, under a CSP without inline script', async () => {
    const res = await h.request({ method: 'GET', url: '/api/docs' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.text;
    expect([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1])).toEqual(['/api/docs/scalar.js']);
    expect(html).toContain('data-url="/api/openapi.json"');
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
    const configuration = JSON.parse(
      /data-configuration="([^"]*)"/.exec(html)?.[1]?.replaceAll('&quot;', '"') ?? '{}',
    ) as Record<string, unknown>;
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/https?:|\*|'unsafe-eval'/);
    const bundle = await h.request({ method: 'GET', url: '/api/docs/scalar.js' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
  });
});

describe('the OpenAPI document for generated clients (issue #27)', () => {
  type Media = { schema?: unknown; example?: unknown };
  const contentOf = (holder: unknown) => (holder as { content?: Record<string, Media> } | undefined)?.content ?? {};
  const schemas = () => document.components.schemas as Record<string, Record<string, unknown>>;

  it('gives every operation an example request body (when it takes one) and an example success body, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const missing: string[] = [];
    const invalid: string[] = [];
    const check = (where: string, contentType: string, media: Media) => {
      if (media.example === undefined) return missing.push(`${where} ${contentType}`);
      if (!/json/.test(contentType)) return;
      const validate = ajv.compile({ ...(media.schema as object), components: document.components });
      if (!validate(media.example)) invalid.push(`${where} ${contentType}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const { method, url, operation } of operationsOf(document)) {
      for (const [type, media] of Object.entries(contentOf(operation.requestBody)))
        check(`${method} ${url} request`, type, media);
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      // A step of a browser flow answers only with a redirect (no body to show); every other operation has a 2xx.
      if (!successes.length)
        expect(
          Object.keys(operation.responses).some((s) => s === '302' || s === '303'),
          `${method} ${url}`,
        ).toBe(true);
      for (const [status, response] of successes) {
        const content = contentOf(response);
        if (status !== '204') expect(Object.keys(content).length, `${method} ${url} ${status}`).toBeGreaterThan(0);
        for (const [type, media] of Object.entries(content)) check(`${method} ${url} ${status}`, type, media);
      }
    }
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it('offers an oauth2 scheme (authorization code, Portier’s URLs and scopes) on every operation that takes an API key, with the same scopes', () => {
    const scheme = (document.components.securitySchemes as Record<string, Record<string, unknown>>).oauth2;
    expect(scheme).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'http://portier.test/oauth/authorize',
          tokenUrl: 'http://portier.test/oauth/token',
        },
      },
    });
    const scopes = Object.keys(
      (scheme.flows as { authorizationCode: { scopes: Record<string, string> } }).authorizationCode.scopes,
    );
    expect(scopes).toEqual(expect.arrayContaining(['bookings:read', 'bookings:write', 'admin']));
    expect(scopes).not.toContain('openid');
    let withKey = 0;
    for (const { method, url, operation } of operationsOf(document)) {
      const keyed = operation.security.filter((r) => 'apiKey' in r);
      if (!keyed.length) continue;
      withKey += 1;
      expect(
        operation.security.filter((r) => 'oauth2' in r).map((r) => r.oauth2),
        `${method} ${url}`,
      ).toEqual(keyed.map((r) => r.apiKey));
    }
    expect(withKey).toBeGreaterThan(20);
    expect(document.paths['/api/v1/tenants/{tenantId}/bookings'].get.security).toEqual([
      { apiKey: ['bookings:read'] },
      { oauth2: ['bookings:read'] },
    ]);
  });

  it('types the OAuth token and revocation requests, the token answer, the metadata and the JWKS', () => {
    const token = document.paths['/oauth/token'].post;
    const form = token.requestBody?.content['application/x-www-form-urlencoded'];
    expect(form?.schema).toEqual({ $ref: '#/components/schemas/OAuthTokenRequest' });
    expect(contentOf(token.responses['200'])['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OAuthTokenResponse',
    });
    // One object, not a oneOf per grant: orval's form encoder reads every variant's fields off the union.
    expect(schemas().OAuthTokenRequest).toMatchObject({
      type: 'object',
      required: ['grant_type'],
      properties: { grant_type: { enum: ['authorization_code', 'refresh_token'] } },
    });
    expect(schemas().OAuthTokenRequest).not.toHaveProperty('oneOf');
    expect(schemas().OAuthTokenResponse).toMatchObject({
      required: expect.arrayContaining(['access_token', 'token_type', 'expires_in', 'refresh_token']),
    });
    expect(
      document.paths['/oauth/revoke'].post.requestBody?.content['application/x-www-form-urlencoded'].schema,
    ).toEqual({ $ref: '#/components/schemas/OAuthRevocationRequest' });
    expect(
      contentOf(document.paths['/.well-known/oauth-authorization-server'].get.responses['200'])['application/json']
        .schema,
    ).toEqual({
      $ref: '#/components/schemas/OAuthServerMetadata',
    });
    expect(contentOf(document.paths['/oauth/jwks'].get.responses['200'])['application/jwk-set+json'].schema).toEqual({
      $ref: '#/components/schemas/JsonWebKeySet',
    });
  });

  it('types GraphQL variables as an object of any values, command payloads per command type and the pending command’s type as an enum', () => {
    const body = dereference(
      document.paths['/api/v1/graphql'].post.requestBody?.content['application/json'].schema,
      document,
    ) as { properties: Record<string, unknown> };
    expect(body.properties.variables).toMatchObject({ type: ['object', 'null'], additionalProperties: true });
    for (const name of ['DeviceCommand', 'PendingDeviceCommand']) {
      expect(schemas()[name], name).toMatchObject({
        oneOf: [{ $ref: `#/components/schemas/Unlock${name}` }],
        discriminator: { propertyName: 'type', mapping: { unlock: `#/components/schemas/Unlock${name}` } },
      });
      expect(schemas()[`Unlock${name}`], name).toMatchObject({
        properties: { type: { const: 'unlock' }, payload: { $ref: '#/components/schemas/UnlockCommandPayload' } },
      });
    }
    expect(schemas().UnlockCommandPayload).toMatchObject({ required: ['gpio_pin', 'duration_seconds'] });
  });

  it('passes redocly’s recommended rules that need no tool: webhooks declare security, no trailing slash, every tag described', () => {
    for (const [type, entry] of Object.entries(document.webhooks ?? {}))
      expect((entry as { post: { security?: unknown } }).post.security, type).toEqual([]);
    expect(Object.keys(document.paths).filter((p) => p.length > 1 && p.endsWith('/'))).toEqual([]);
    expect(document.tags.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });
});
