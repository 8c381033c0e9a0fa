import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';
import { rateLimitKey, rateLimitOf } from '../src/transport/http/rate-limit.js';
import { openLimiterStore } from '../src/kernel/limits/index.js';

let h: Harness;
let limited: OwnApp;

beforeAll(async () => {
  h = await harness();
  // The contract's default: 100 requests per minute.
  limited = await ownApp(h, { env: { rateLimitPerMinute: 100 } });
});
afterAll(async () => {
  await limited?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

function expectRateLimitHeaders(res: TestResponse, limit: number) {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(Number.isInteger(reset) && reset >= 0 && reset <= 60).toBe(true);
}

describe('rate-limit headers on every response', () => {
  it('are on successes, errors, 404s, GraphQL and public routes', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const other = await h.tenant();
    const responses = {
      success: await limited.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
        apiKey,
      }),
      missingKey: await limited.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
      }),
      unknownKey: await limited.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
        apiKey: 'svc_unknown0000000000000000',
      }),
      otherTenant: await limited.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
        apiKey: other.apiKey,
      }),
      missingResource: await limited.request({
        method: 'GET',
        url: `/api/v1/tenants/${tenantId}/objects/${crypto.randomUUID()}/booking-rules`,
        apiKey,
      }),
      unknownRoute: await limited.request({ method: 'GET', url: '/api/v1/nowhere', apiKey }),
      graphql: await limited.graphql(apiKey, '{ viewer { id } }'),
      graphqlError: await limited.graphql(apiKey, '{ nope }'),
      docs: await limited.request({ method: 'GET', url: '/api/openapi.json' }),
      malformed: await limited.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: '{"query":' }),
      badUrl: await limited.request({ method: 'GET', url: '/api/v1/%zz' }),
    };
    expect(Object.fromEntries(Object.entries(responses).map(([k, r]) => [k, r.status]))).toEqual({
      success: 200,
      missingKey: 401,
      unknownKey: 401,
      otherTenant: 403,
      missingResource: 404,
      unknownRoute: 404,
      graphql: 200,
      graphqlError: 200,
      docs: 200,
      malformed: 400,
      badUrl: 400,
    });
    for (const res of Object.values(responses)) expectRateLimitHeaders(res, 100);
  });

  it('are on the responses of every documented route, device routes included', async () => {
    // Without credentials (401) or with them: either way the headers are there. Device routes
    // (POST /api/devices/…) are in the document as soon as their module registers them.
    const document = limited.app.openapi().document;
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      if (HEALTH_CHECKS.includes(path)) continue;
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
        const res = await limited.request({
          method: method.toUpperCase() as 'GET',
          url,
          body: method === 'get' ? undefined : {},
          remoteAddress: '10.9.9.9',
        });
        expectRateLimitHeaders(res, 100);
        expect(res.headers['x-request-id']).toBeTruthy();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('the limit', () => {
  it('answers the 101st request in a window with 429, and the count resets with the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T10:00:00Z'));
    const { tenantId, apiKey, object } = await buildVenue(h);
    const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`;
    for (let i = 1; i <= 100; i += 1) {
      const res = await limited.request({ method: 'GET', url, apiKey });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(100 - i));
    }
    const refused = await limited.request({ method: 'GET', url, apiKey });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', title: 'Too Many Requests' });
    expect(refused.headers['x-ratelimit-limit']).toBe('100');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    // GraphQL spends the same budget: the same status, and an error coded RATE_LIMITED.
    const graphql = await limited.graphql(apiKey, '{ viewer { id } }');
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(graphql.body.data).toBeUndefined();
    expect(graphql.headers['retry-after']).toBeDefined();

    // Thirty seconds later the window is still the same one.
    vi.setSystemTime(new Date('2026-11-20T10:00:30Z'));
    const stillRefused = await limited.request({ method: 'GET', url, apiKey });
    expect(stillRefused.status).toBe(429);
    expect(Number(stillRefused.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(30);

    vi.setSystemTime(new Date('2026-11-20T10:01:00Z'));
    const again = await limited.request({ method: 'GET', url, apiKey });
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('99');
    expect(again.headers['x-ratelimit-reset']).toBe('60');
  });

  it('is counted per API key, and a key can carry its own limit', async () => {
    const { tenantId, object } = await buildVenue(h);
    const small = await h.key(tenantId, ['catalog:read'], 3);
    const sibling = await h.key(tenantId, ['catalog:read']);
    const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await limited.request({ method: 'GET', url, apiKey: small });
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another key of the same tenant has its own budget, at the server default.
    const res = await limited.request({ method: 'GET', url, apiKey: sibling });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('counts requests without a valid credential per client address, 401s and 404s included', async () => {
    const few = await ownApp(h, { env: { rateLimitPerMinute: 3 } });
    try {
      const { tenantId, apiKey, object } = await buildVenue(h);
      const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`;
      const fromA = [
        await few.request({ method: 'GET', url, remoteAddress: '203.0.113.7' }),
        await few.request({ method: 'GET', url: '/nowhere', remoteAddress: '203.0.113.7' }),
        await few.request({
          method: 'GET',
          url,
          apiKey: 'svc_wrong00000000000000000000',
          remoteAddress: '203.0.113.7',
        }),
        await few.request({ method: 'GET', url: '/api/openapi.json', remoteAddress: '203.0.113.7' }),
      ];
      expect(fromA.map((r) => r.status)).toEqual([401, 404, 401, 429]);
      expect(fromA.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
      // Another address has its own budget; a valid key from the exhausted address spends the key's.
      expect(
        (await few.request({ method: 'GET', url: '/api/openapi.json', remoteAddress: '198.51.100.1' })).status,
      ).toBe(200);
      const withKey = await few.request({ method: 'GET', url, apiKey, remoteAddress: '203.0.113.7' });
      expect(withKey.status).toBe(200);
      expect(withKey.headers['x-ratelimit-remaining']).toBe('2');
    } finally {
      await few.close();
    }
  });
});

const HEALTH_CHECKS = ['/healthz', '/readyz'];

describe('health checks (issue 12, finding 4)', () => {
  it('are never rate limited: after 100 bad-key requests from one address, /healthz and /readyz still answer 200', async () => {
    const { tenantId, object } = await buildVenue(h);
    const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`;
    const address = '203.0.113.44';
    for (let i = 0; i < 100; i += 1) {
      await limited.request({ method: 'GET', url, apiKey: 'svc_wrong00000000000000000000', remoteAddress: address });
    }
    expect((await limited.request({ method: 'GET', url, remoteAddress: address })).status).toBe(429);
    for (const path of HEALTH_CHECKS) {
      const res = await limited.request({ method: 'GET', url: path, remoteAddress: address });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      // Not counted either: no budget is spent or shown.
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('the Redis store', () => {
  it('must be reachable at start-up when REDIS_URL is set', async () => {
    await expect(openLimiterStore('redis://127.0.0.1:1', h.deps.log)).rejects.toThrow(
      /REDIS_URL is set but Redis cannot be reached/,
    );
  });
});

describe('whose budget a request spends', () => {
  const request = (principal: FastifyRequest['principal'], ip = '192.0.2.1') => ({ principal, ip }) as FastifyRequest;

  it('is the API key, the device, or the client address', () => {
    expect(
      rateLimitKey(request({ kind: 'apiKey', keyId: 'k1', tenantId: 't', scopes: [], rateLimitPerMinute: null })),
    ).toBe('key:k1');
    expect(rateLimitKey(request({ kind: 'device', deviceId: 'd1', tenantId: 't' }))).toBe('device:d1');
    expect(rateLimitKey(request(null))).toBe('ip:192.0.2.1');
    // IPv6 clients are grouped by their /64, as one host usually owns it.
    expect(rateLimitKey(request(null, '2001:db8:1:2:aaaa::1'))).toBe(
      rateLimitKey(request(null, '2001:db8:1:2:bbbb::2')),
    );
  });

  it('uses the key’s own limit, else the server default', () => {
    expect(
      rateLimitOf(request({ kind: 'apiKey', keyId: 'k', tenantId: 't', scopes: [], rateLimitPerMinute: 7 }), 100),
    ).toBe(7);
    expect(
      rateLimitOf(request({ kind: 'apiKey', keyId: 'k', tenantId: 't', scopes: [], rateLimitPerMinute: null }), 100),
    ).toBe(100);
    expect(rateLimitOf(request({ kind: 'device', deviceId: 'd', tenantId: 't' }), 100)).toBe(100);
    expect(rateLimitOf(request(null), 100)).toBe(100);
  });
});
