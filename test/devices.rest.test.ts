import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildDoor, buildVenue } from './builders.js';
import { dereference } from './openapi-helpers.js';
import type { OpenApiDocument } from '../src/transport/rest/openapi.js';

// The devices' REST routes (issue #44: a `Device` schema in the OpenAPI document): list and
// register, bridged to their GraphQL fields, the device they return described as
// components/schemas/Device.

let h: Harness;
let document: OpenApiDocument;
beforeAll(async () => {
  h = await harness();
  document = (await h.request({ method: 'GET', url: '/api/openapi.json' })).body as OpenApiDocument;
});

const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/devices`;

describe('the Device schema in the OpenAPI document', () => {
  it('is a component with the device fields, and the device routes that return a device refer to it', () => {
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas.Device?.properties ?? {}).sort()).toEqual(
      [
        'activatedAt',
        'activationExpiresAt',
        'createdAt',
        'doors',
        'firmwareVersion',
        'id',
        'keyPrefix',
        'lastHeartbeatAt',
        'livemode',
        'name',
        'online',
        'revokedAt',
        'serial',
        'status',
        'telemetry',
      ].sort(),
    );
    const ref = { $ref: '#/components/schemas/Device' };
    const success = (method: string, status: string) =>
      (
        document.paths['/api/v1/tenants/{tenantId}/devices']?.[method]?.responses[status] as {
          content: { 'application/json': { schema: Record<string, unknown> } };
        }
      ).content['application/json'].schema;
    expect(success('get', '200')).toEqual({ $ref: '#/components/schemas/DeviceList' });
    expect(schemas.DeviceList).toEqual({ type: 'array', items: ref });
    const registered = success('post', '201');
    const payload = dereference(registered, document) as { properties: Record<string, unknown> };
    expect(JSON.stringify(registered)).toContain('#/components/schemas/RegisterDevicePayload');
    expect(payload.properties.device).toEqual(dereference(ref, document));
    expect(document.paths['/api/v1/tenants/{tenantId}/devices']?.get?.security).toEqual([
      { apiKey: ['devices:read'] },
      { oauth2: ['devices:read'] },
    ]);
  });
});

describe('devices over REST', () => {
  it('register and list; the answers have the documented fields', async () => {
    const { apiKey, object, tenantId } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const registered = await h.request({
      method: 'POST',
      url: base(tenantId),
      apiKey,
      body: { name: 'Side gate', doorIds: [door.id] },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.activationCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){6}$/);
    const id = registered.body.device.id as string;
    expect(registered.body.device).toMatchObject({
      id,
      name: 'Side gate',
      status: 'PENDING_ACTIVATION',
      online: false,
      doors: [{ id: door.id }],
      revokedAt: null,
    });
    const list = await h.request({ method: 'GET', url: base(tenantId), apiKey });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([registered.body.device]);
  });

  it('refuses what is wrong with a problem naming it: another tenant 403, missing scope 403, bad doors 400', async () => {
    const venue = await buildVenue(h);
    const other = await buildVenue(h);
    const foreign = await h.request({ method: 'GET', url: base(venue.tenantId), apiKey: other.apiKey });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(foreign.body)).toContain('tenant_mismatch');

    const readOnly = await h.key(venue.tenantId, ['bookings:read']);
    const noScope = await h.request({ method: 'GET', url: base(venue.tenantId), apiKey: readOnly });
    expect(noScope.status).toBe(403);
    expect(JSON.stringify(noScope.body)).toContain('devices:read');

    const badDoors = await h.request({
      method: 'POST',
      url: base(venue.tenantId),
      apiKey: venue.apiKey,
      body: { name: 'Gate', doorIds: 'not-a-list' },
    });
    expect(badDoors.status).toBe(400);
    expect(JSON.stringify(badDoors.body)).toContain('doorIds');
    const foreignDoor = await buildDoor(h, other.tenantId, [other.object.id]);
    const notOurs = await h.request({
      method: 'POST',
      url: base(venue.tenantId),
      apiKey: venue.apiKey,
      body: { name: 'Gate', doorIds: [foreignDoor.id] },
    });
    expect(notOurs.status).toBeGreaterThanOrEqual(400);
    expect(notOurs.status).toBeLessThan(500);
    expect(JSON.stringify(notOurs.body)).toContain(foreignDoor.id);
  });
});
