import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

// GraphQL over HTTP: a field error answers 200 with partial data; request errors keep their 4xx
// (docs/schema.md, "GraphQL over HTTP").
let h: Harness;
let tenant: { tenantId: string; apiKey: string };

beforeAll(async () => {
  h = await harness();
  tenant = await h.tenant('GraphQL over HTTP');
});

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

async function post(query: string, accept?: string, apiKey: string | null = tenant.apiKey) {
  return h.request({
    method: 'POST',
    url: '/api/v1/graphql',
    apiKey,
    body: { query },
    headers: accept ? { accept } : {},
  });
}

describe('field errors answer 200 with partial data', () => {
  for (const accept of [undefined, 'application/json', GRAPHQL_RESPONSE]) {
    it(`an unknown booking next to viewer: 200, viewer present, NOT_FOUND at ["booking"] (Accept: ${accept ?? 'none'})`, async () => {
      const res = await post(`{ booking(id: "${randomUUID()}") { id } viewer { name } }`, accept);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ booking: null, viewer: { name: 'GraphQL over HTTP' } });
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].path).toEqual(['booking']);
      expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect(res.body.errors[0].extensions.http).toBeUndefined();
      expect(res.headers['content-type']).toContain(
        accept === GRAPHQL_RESPONSE ? GRAPHQL_RESPONSE : 'application/json',
      );
    });
  }

  it('another tenant on one field: 200 with FORBIDDEN at that field (a non-null field takes its parent, here data, to null)', async () => {
    const other = await h.tenant('someone else');
    const res = await post(`{ bookings(tenantId: "${other.tenantId}") { id } viewer { name } }`);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0]).toMatchObject({
      path: ['bookings'],
      extensions: { code: 'FORBIDDEN', reason: 'tenant_mismatch' },
    });
  });

  it('bad input to one mutation: 200 with BAD_USER_INPUT naming the field, data null for that field', async () => {
    const res = await post(`mutation { createAccommodation(name: "", address: "x", timeZone: "Mars/Olympus") { id } }`);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].path).toEqual(['createAccommodation']);
  });
});

describe('request errors keep their 4xx', () => {
  it('no key: 401', async () => {
    const res = await post('{ viewer { name } }', undefined, null);
    expect(res.status).toBe(401);
  });

  it('a syntax error: 400 with application/graphql-response+json', async () => {
    const res = await post('{ viewer { name }', GRAPHQL_RESPONSE);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/Syntax Error/);
  });

  it('an unknown field: 400 with application/graphql-response+json', async () => {
    const res = await post('{ viewer { nope } }', GRAPHQL_RESPONSE);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/nope/);
  });

  it('a null for a required variable: 400 naming it', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey: tenant.apiKey,
      body: { query: 'query ($id: ID!) { booking(id: $id) { id } }', variables: { id: null } },
      headers: { accept: GRAPHQL_RESPONSE },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/\$id/);
  });
});

describe('REST keeps its statuses', () => {
  it('an unknown booking over REST is still 404 problem+json', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenant.tenantId}/bookings/${randomUUID()}`,
      apiKey: tenant.apiKey,
    });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});
