import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { operationsOf } from './openapi-helpers.js';
import { readEnv } from '../src/kernel/env.js';

// Issue 12, finding 7: POST /api/v1/graphql echoed any Origin with Access-Control-Allow-Credentials.
// CORS is off unless CORS_ORIGINS lists the origin; credentials are never allowed cross-origin.

const LISTED = 'https://app.example.com';
const EVIL = 'https://evil.example';

let h: Harness;
let withCors: OwnApp;
let plain: OwnApp;

beforeAll(async () => {
  h = await harness();
  // Load shedding off: on a busy machine it would answer 503 at random (CORS headers are still there).
  withCors = await ownApp(h, { env: { corsOrigins: [LISTED] }, options: { loadShedding: { maxEventLoopDelay: 0 } } });
  plain = await ownApp(h, { env: { corsOrigins: [] }, options: { loadShedding: { maxEventLoopDelay: 0 } } });
});
afterAll(async () => {
  await withCors?.close();
  await plain?.close();
});

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

describe('without CORS_ORIGINS', () => {
  it('GraphQL answers any origin without CORS headers (the reported case)', async () => {
    const { apiKey } = await h.tenant();
    const res = await plain.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: { query: '{ __typename }' },
      headers: { origin: EVIL },
    });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual({});
  });

  it('a preflight is not answered with CORS headers', async () => {
    const res = await plain.request({
      method: 'OPTIONS',
      url: '/api/v1/graphql',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(corsHeaders(res.headers)).toEqual({});
  });
});

describe('with CORS_ORIGINS', () => {
  it('echoes a listed origin, never with credentials, also on a refusal', async () => {
    const { apiKey } = await h.tenant();
    const ok = await withCors.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: { query: '{ __typename }' },
      headers: { origin: LISTED },
    });
    expect(ok.headers['access-control-allow-origin']).toBe(LISTED);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(ok.headers['access-control-expose-headers'])).toMatch(/X-Request-Id/);
    const refused = await withCors.request({
      method: 'POST',
      url: '/api/v1/graphql',
      body: { query: '{ __typename }' },
      headers: { origin: LISTED },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(LISTED);
  });

  it('answers a listed origin’s preflight', async () => {
    const res = await withCors.request({
      method: 'OPTIONS',
      url: '/api/v1/graphql',
      headers: {
        origin: LISTED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(LISTED);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('an unlisted origin gets no CORS header on any route', async () => {
    const document = withCors.app.openapi().document;
    const { apiKey } = await h.tenant();
    let checked = 0;
    for (const op of operationsOf(document)) {
      const url = op.url.replace(/:[A-Za-z0-9_]+/g, () => crypto.randomUUID());
      for (const origin of [EVIL, `${LISTED}.evil.example`, 'null', LISTED.replace('https', 'http')]) {
        const res = await withCors.request({
          method: op.method as 'GET',
          url,
          apiKey,
          headers: { origin },
          body: op.method === 'GET' ? undefined : {},
        });
        expect(corsHeaders(res.headers), `${op.method} ${op.url} from ${origin}`).toEqual({});
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
    const preflight = await withCors.request({
      method: 'OPTIONS',
      url: '/api/v1/graphql',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(corsHeaders(preflight.headers)).toEqual({});
  });
});

describe('CORS_ORIGINS', () => {
  it('is a comma-separated list of exact origins, empty by default', () => {
    expect(readEnv({}).corsOrigins).toEqual([]);
    expect(readEnv({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(() => readEnv({ CORS_ORIGINS: 'https://a.example/app' })).toThrow(/exact origins/);
    expect(() => readEnv({ CORS_ORIGINS: '*' })).toThrow(/exact origins/);
  });
});
