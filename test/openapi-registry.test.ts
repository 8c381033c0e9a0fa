import { MODULES } from '../src/app/modules.js';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { Type as T } from '@sinclair/typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import { RouteRegistry } from '../src/transport/rest/openapi-registry.js';
import { buildOpenApiDocument } from '../src/transport/rest/openapi.js';
import { buildSchema } from '../src/transport/graphql/schema.js';
import { dereference } from './openapi-helpers.js';
import { Components } from '../src/transport/rest/openapi-components.js';
import { VERSION_PARAMETER } from '../src/transport/rest/openapi-common.js';

// How a hand-written route (devices, price preview) shows up in the document: from its fastify
// schema and config, with nothing to register by hand.

async function documentOf(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  const registry = new RouteRegistry();
  registry.attach(app);
  register(app);
  await app.ready();
  const built = buildOpenApiDocument({
    schema: buildSchema(MODULES),
    routes: registry.routes,
    publicUrl: 'http://portier.test',
    version: 'test',
  });
  await app.close();
  return built;
}

describe('hand-written routes in the OpenAPI document', () => {
  it('are described from their TypeBox schemas, auth and scope', async () => {
    const Preview = T.Object({
      objectId: T.String({ format: 'uuid' }),
      startTime: T.String({ format: 'date-time' }),
      endTime: T.String({ format: 'date-time' }),
    });
    const Result = T.Object({
      basePrice: T.Integer(),
      adjustments: T.Array(T.Object({ rule: T.String(), amount: T.Integer() })),
      totalPrice: T.Integer(),
      currency: T.Literal('EUR'),
      breakdown: T.String(),
    });
    const built = await documentOf((app) => {
      app.post(
        '/api/pricing/preview',
        {
          config: { auth: 'apiKey', scope: 'pricing:read' },
          schema: {
            operationId: 'previewPrice',
            summary: 'Preview a price',
            tags: ['pricing'],
            body: Preview,
            response: { 200: Result },
          },
        },
        async () => ({}),
      );
      app.post(
        '/api/devices/:deviceId/heartbeat',
        {
          config: { auth: 'device' },
          schema: {
            params: T.Object({ deviceId: T.String({ format: 'uuid' }) }),
            body: T.Object({ cpu_percent: T.Integer() }),
            response: { 200: T.Object({ status: T.Literal('ok') }) },
          },
        },
        async () => ({}),
      );
      app.get(
        '/pay/:token',
        {
          config: {
            auth: 'none',
            openapi: {
              operationId: 'paymentPage',
              responses: { 200: { contentType: 'text/html', schema: { type: 'string' } } },
            },
          },
        },
        async () => '',
      );
      app.get('/internal', { config: { openapi: false } }, async () => '');
      app.get('/forgotten', async () => '');
    });
    const { paths } = built.document;

    const preview = paths['/api/pricing/preview'].post;
    expect(preview).toMatchObject({
      operationId: 'previewPrice',
      summary: 'Preview a price',
      tags: ['pricing'],
      security: [{ apiKey: ['pricing:read'] }, { oauth2: ['pricing:read'] }],
    });
    // Named components ($ref), each with the route's schema: <OperationId>Request and <OperationId>Response.
    expect(preview.requestBody!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PreviewPriceRequest',
    });
    expect(dereference(preview.requestBody!.content['application/json'].schema, built.document)).toEqual(
      JSON.parse(JSON.stringify(Preview)),
    );
    const previewResult = (preview.responses['200'] as { content: Record<string, { schema: unknown }> }).content[
      'application/json'
    ].schema;
    expect(previewResult).toEqual({ $ref: '#/components/schemas/PreviewPriceResponse' });
    expect(dereference(previewResult, built.document)).toEqual(JSON.parse(JSON.stringify(Result)));
    // 409 and 422 come with the Idempotency-Key header (docs/idempotency.md).
    expect(Object.keys(preview.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '503',
    ]);

    const heartbeat = paths['/api/devices/{deviceId}/heartbeat'].post;
    expect(heartbeat.security).toEqual([{ deviceKey: [] }]);
    expect(heartbeat.operationId).toBe('postApiDevicesByDeviceIdHeartbeat');
    expect(heartbeat.parameters).toEqual([
      { name: 'deviceId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      VERSION_PARAMETER,
    ]);

    expect(paths['/pay/{token}'].get).toMatchObject({ operationId: 'paymentPage', security: [] });
    expect(paths['/pay/{token}'].get.parameters).toEqual([
      { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
      VERSION_PARAMETER,
    ]);
    expect(paths['/internal']).toBeUndefined();
    // A route with no description at all is reported (and the route-equality test fails on it).
    expect(built.undocumented).toEqual(['GET /forgotten']);

    const result = await new Validator().validate(structuredClone(built.document) as never);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('bridged mutations in the OpenAPI document', () => {
  it('take path parameters from the path only and the other arguments from a flat body', async () => {
    const built = await documentOf((app) => {
      app.patch(
        '/api/v1/tenants/:tenantId/objects/:objectId/booking-rules',
        {
          config: {
            auth: 'apiKey',
            restRoute: {
              field: 'Mutation.setBookingRules',
              method: 'PATCH',
              path: '/tenants/:tenantId/objects/:objectId/booking-rules',
              summary: 'Set booking rules',
            },
          },
        },
        async () => ({}),
      );
      app.post(
        '/api/v1/tenants/:tenantId/accommodations',
        {
          config: {
            auth: 'apiKey',
            restRoute: {
              field: 'Mutation.createAccommodation',
              method: 'POST',
              path: '/tenants/:tenantId/accommodations',
              status: 201,
              summary: 'Create an accommodation',
            },
          },
        },
        async () => ({}),
      );
    });
    const rules = built.document.paths['/api/v1/tenants/{tenantId}/objects/{objectId}/booking-rules'].patch;
    expect(rules.operationId).toBe('setBookingRules');
    expect(rules.security).toEqual([{ apiKey: ['catalog:write'] }, { oauth2: ['catalog:write'] }]);
    expect(rules.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:tenantId',
      'path:objectId',
      'header:Idempotency-Key',
      'header:Portier-Version',
    ]);
    expect(rules.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/SetBookingRulesRequest' },
          example: expect.any(Object),
        },
      },
    });
    expect(built.document.components.schemas).toHaveProperty('SetBookingRulesRequest', {
      type: 'object',
      properties: { rules: { $ref: '#/components/schemas/BookingRulesInput', description: 'The rules to change.' } },
      required: ['rules'],
      additionalProperties: false,
    });
    expect(built.document.components.schemas).toHaveProperty('BookingRulesInput.properties.bufferMinutes', {
      type: ['integer', 'null'],
      format: 'int32',
      description: 'Minutes kept free between bookings, 0–1440.',
    });

    const create = built.document.paths['/api/v1/tenants/{tenantId}/accommodations'].post;
    const body = dereference(create.requestBody!.content['application/json'].schema, built.document) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(body.properties).sort()).toEqual(['address', 'name', 'timeZone']);
    expect(body.required.sort()).toEqual(['address', 'name', 'timeZone']);
    const created = dereference(
      (create.responses['201'] as { content: Record<string, { schema: unknown }> }).content['application/json'].schema,
      built.document,
    ) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(created.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(created.required).toEqual(expect.arrayContaining(['id', 'name', 'address', 'timeZone', 'createdAt']));
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '429']),
    );
    // Only the tenant is in the path, and a wrong one is 403: nothing here can be 404.
    expect(Object.keys(create.responses)).not.toContain('404');

    const result = await new Validator().validate(structuredClone(built.document) as never);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('component names', () => {
  it('stores one shape once per name and reports a second shape claiming a taken name', () => {
    const components = new Components();
    expect(components.add('Thing', { type: 'object', properties: { id: { type: 'string' } } })).toEqual({
      $ref: '#/components/schemas/Thing',
    });
    expect(components.add('Thing', { type: 'object', properties: { id: { type: 'string' } } })).toEqual({
      $ref: '#/components/schemas/Thing',
    });
    expect(components.conflicts).toEqual([]);
    expect(components.add('Thing', { type: 'object', properties: { name: { type: 'string' } } })).toEqual({
      $ref: '#/components/schemas/Thing2',
    });
    expect(components.conflicts).toEqual(['Thing']);
  });
});
