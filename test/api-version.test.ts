import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildActiveDevice, buildDoor, buildVenue } from './builders.js';
import { API_VERSIONS, CURRENT_API_VERSION } from '../src/transport/http/api-version.js';

// Issue #44: the Portier-Version request header pins the API version; every answer echoes it
// (docs/api.md, "API versions").

const OLDEST = API_VERSIONS[0];
const LISTED = 'https://app.example.com';

let h: Harness;
let tenantId: string;
let apiKey: string;

beforeAll(async () => {
  h = await harness();
  ({ tenantId, apiKey } = await h.tenant('Versions'));
});

describe('REST', () => {
  const url = () => `/api/v1/tenants/${tenantId}/bookings`;

  it('answers with the current version when the request names none', async () => {
    const res = await h.request({ method: 'GET', url: url(), apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['portier-version']).toBe(CURRENT_API_VERSION);
    expect(CURRENT_API_VERSION).toBe('2026-12-03');
  });

  it('echoes every supported version it is asked for', async () => {
    for (const version of API_VERSIONS) {
      const res = await h.request({ method: 'GET', url: url(), apiKey, headers: { 'portier-version': version } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['portier-version']).toBe(version);
    }
  });

  it('refuses an unknown version with 400 problem+json listing the supported ones', async () => {
    const res = await h.request({ method: 'GET', url: url(), apiKey, headers: { 'portier-version': '2025-01-01' } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['portier-version']).toBe(CURRENT_API_VERSION);
    expect(res.body.code).toBe('unsupported_api_version');
    expect(res.body.detail).toContain('Portier-Version');
    expect(res.body.detail).toContain('is not a released API version');
    for (const version of API_VERSIONS) expect(res.body.detail).toContain(version);
    expect(res.body.errors).toEqual([{ field: 'Portier-Version', message: expect.stringContaining(OLDEST) }]);
  });

  it.each(['yesterday', '2026-12-3', '2026-13-01', '', '2026-12-03 ', '2026-12-03, 2026-11-24'])(
    'refuses a malformed version %j with 400',
    async (value) => {
      const res = await h.request({ method: 'GET', url: url(), apiKey, headers: { 'portier-version': value } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('unsupported_api_version');
      expect(res.body.detail).toContain('is not a date (YYYY-MM-DD)');
      expect(res.headers['portier-version']).toBe(CURRENT_API_VERSION);
    },
  );

  it('refuses the version before the credential is looked at, and echoes it on other refusals', async () => {
    const bad = await h.request({ method: 'GET', url: url(), headers: { 'portier-version': 'nope' } });
    expect(bad.status).toBe(400);
    const unauthenticated = await h.request({ method: 'GET', url: url(), headers: { 'portier-version': OLDEST } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['portier-version']).toBe(OLDEST);
    const missing = await h.request({ method: 'GET', url: '/api/v1/nowhere', apiKey });
    expect(missing.status).toBe(404);
    expect(missing.headers['portier-version']).toBe(CURRENT_API_VERSION);
  });

  it('echoes the version on a route fastify cannot route (a malformed URL)', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/%E0%A4%A/bookings`,
      apiKey,
      headers: { 'portier-version': OLDEST },
    });
    expect(res.status).toBe(400);
    expect(res.headers['portier-version']).toBe(OLDEST);
  });
});

describe('GraphQL', () => {
  const query = { query: '{ viewer { id } }' };

  it('echoes the version used', async () => {
    const current = await h.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: query });
    expect(current.status, current.text).toBe(200);
    expect(current.headers['portier-version']).toBe(CURRENT_API_VERSION);
    const pinned = await h.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: query,
      headers: { 'portier-version': OLDEST },
    });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.body.data.viewer.id).toBe(tenantId);
    expect(pinned.headers['portier-version']).toBe(OLDEST);
  });

  it('refuses an unknown version with a GraphQL error naming the header and the supported versions', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await h.request({
        method,
        url: method === 'GET' ? `/api/v1/graphql?query=${encodeURIComponent(query.query)}` : '/api/v1/graphql',
        apiKey,
        ...(method === 'POST' ? { body: query } : {}),
        headers: { 'portier-version': '2030-01-01' },
      });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['portier-version']).toBe(CURRENT_API_VERSION);
      expect(res.body.data).toBeUndefined();
      const [error] = res.body.errors;
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'unsupported_api_version' });
      expect(error.message).toContain('Portier-Version');
      expect(error.message).toContain(API_VERSIONS.join(', '));
    }
  });
});

describe('device API', () => {
  it('echoes the version on a device route and refuses an unknown one', async () => {
    const venue = await buildVenue(h);
    const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
    const { deviceId, deviceKey } = await buildActiveDevice(h, venue.tenantId, [door.id]);
    const ok = await h.request({
      method: 'GET',
      url: `/api/devices/${deviceId}/config`,
      apiKey: deviceKey,
      headers: { 'portier-version': OLDEST },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers['portier-version']).toBe(OLDEST);
    const bad = await h.request({
      method: 'GET',
      url: `/api/devices/${deviceId}/config`,
      apiKey: deviceKey,
      headers: { 'portier-version': '1999-01-01' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('unsupported_api_version');
  });
});

describe('CORS', () => {
  let withCors: OwnApp;
  beforeAll(async () => {
    withCors = await ownApp(h, { env: { corsOrigins: [LISTED] }, options: { loadShedding: { maxEventLoopDelay: 0 } } });
  });
  afterAll(async () => {
    await withCors?.close();
  });

  it('lets a listed origin read Portier-Version, also on the 400', async () => {
    const res = await withCors.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: { query: '{ __typename }' },
      headers: { origin: LISTED, 'portier-version': 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBe(LISTED);
    expect(String(res.headers['access-control-expose-headers'])).toContain('Portier-Version');
    expect(res.headers['portier-version']).toBe(CURRENT_API_VERSION);
  });
});
