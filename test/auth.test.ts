import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildVenue } from './builders.js';

let h: Harness;
let mine: Awaited<ReturnType<typeof buildVenue>>;
let theirs: Awaited<ReturnType<typeof buildVenue>>;
beforeAll(async () => {
  h = await harness();
  mine = await buildVenue(h);
  theirs = await buildVenue(h);
});

const openingHours = (tenantId: string, objectId: string) =>
  `/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`;
const OBJECT_QUERY = `query($t: ID, $id: ID!) { bookingRules(tenantId: $t, objectId: $id) { minDurationMinutes } }`;

function expectProblem(res: TestResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    status,
    code,
    title: expect.any(String),
    type: expect.any(String),
    detail: expect.any(String),
  });
  expect(res.text).not.toMatch(/\bat \S+\.(ts|js):\d+|select |insert /i);
}

/**
 * `status` is what a request error answers; an error of one field answers 200 with the error at
 * that field's path (GraphQL over HTTP, the partial-data rule).
 */
function expectGraphQLError(res: TestResponse, status: number, code: string) {
  // A missing scope on every field asked for keeps its 403, with each refused field null at its path
  // (issue #23, finding 10); any other field error answers 200 with partial data.
  const missingScope = res.body.errors?.[0]?.extensions?.reason === 'missing_scope';
  expect(res.status).toBe(res.body.errors?.[0]?.path && !missingScope ? 200 : status);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe(code);
  const data = (res.body.data ?? null) as Record<string, unknown> | null;
  if (missingScope && data) expect(Object.values(data).every((v) => v === null)).toBe(true);
  else expect(data).toBeNull();
}

describe('REST auth outcomes', () => {
  it('401 with WWW-Authenticate: Bearer when the key is missing', async () => {
    const res = await h.request({ method: 'GET', url: openingHours(mine.tenantId, mine.object.id) });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portier"');
  });

  it.each([
    ['an unknown svc_ key', 'svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a value without the svc_ prefix', 'not-a-key'],
    ['a device-key-shaped value', 'svc_dk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('401 with WWW-Authenticate: Bearer error="invalid_token" for %s', async (_, key) => {
    const res = await h.request({ method: 'GET', url: openingHours(mine.tenantId, mine.object.id), apiKey: key });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="portier", error="invalid_token", error_description="[^"]+"$/,
    );
  });

  it('401 for a credential that is not a Bearer token', async () => {
    const res = await h.request({
      method: 'GET',
      url: openingHours(mine.tenantId, mine.object.id),
      headers: { authorization: `Basic ${mine.apiKey}` },
    });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portier"');
  });

  it("403 when the path's tenantId is not the key's tenant", async () => {
    const res = await h.request({
      method: 'GET',
      url: openingHours(theirs.tenantId, theirs.object.id),
      apiKey: mine.apiKey,
    });
    expectProblem(res, 403, 'tenant_mismatch');
    // the other tenant's data does not leak into the error
    expect(res.text).not.toContain(theirs.object.id);
  });

  it('403 when the key lacks the scope', async () => {
    const key = await h.key(mine.tenantId, ['bookings:read', 'catalog:write']);
    const res = await h.request({ method: 'GET', url: openingHours(mine.tenantId, mine.object.id), apiKey: key });
    expectProblem(res, 403, 'missing_scope');
    expect(res.body.detail).toContain('catalog:read');
  });

  it("a key without the scope on another tenant's path: the scope is checked first", async () => {
    const key = await h.key(mine.tenantId, ['bookings:read']);
    const res = await h.request({ method: 'GET', url: openingHours(theirs.tenantId, theirs.object.id), apiKey: key });
    expectProblem(res, 403, 'missing_scope');
  });

  it.each([
    ['POST', 'bookings', {}],
    ['POST', 'pricing-rules', {}],
    ['POST', 'webhooks', { url: 'not a url' }],
    ['GET', 'bookings?pageSize=abc', undefined],
  ])("403 for another tenant's path before the request is validated: %s %s", async (method, path, body) => {
    const res = await h.request({
      method: method as 'GET' | 'POST',
      url: `/api/v1/tenants/${theirs.tenantId}/${path}`,
      apiKey: mine.apiKey,
      body,
    });
    expectProblem(res, 403, 'tenant_mismatch');
  });

  it('403 for a missing scope before the request is validated', async () => {
    const key = await h.key(mine.tenantId, ['catalog:read']);
    for (const [method, path, body] of [
      ['GET', 'bookings?pageSize=abc', undefined],
      ['POST', 'bookings', {}],
    ] as const) {
      const res = await h.request({ method, url: `/api/v1/tenants/${mine.tenantId}/${path}`, apiKey: key, body });
      expectProblem(res, 403, 'missing_scope');
      expect(res.body.detail).toContain('bookings:');
    }
  });

  it("404 for another tenant's object under the key's own tenant", async () => {
    const res = await h.request({
      method: 'GET',
      url: openingHours(mine.tenantId, theirs.object.id),
      apiKey: mine.apiKey,
    });
    expectProblem(res, 404, 'not_found');
  });

  it('404 for an object id that is not a uuid', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${mine.tenantId}/objects/court-1/booking-rules`,
      apiKey: mine.apiKey,
    });
    expectProblem(res, 404, 'not_found');
  });

  it('200 with exactly the scope needed, and admin implies every scope', async () => {
    const reader = await h.key(mine.tenantId, ['catalog:read']);
    for (const key of [reader, mine.apiKey]) {
      const res = await h.request({ method: 'GET', url: openingHours(mine.tenantId, mine.object.id), apiKey: key });
      expect(res.status).toBe(200);
    }
  });
});

describe('GraphQL auth outcomes', () => {
  it('401 with WWW-Authenticate: Bearer when the key is missing', async () => {
    const res = await h.graphql(null, OBJECT_QUERY, { id: mine.object.id });
    expectGraphQLError(res, 401, 'UNAUTHENTICATED');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portier"');
  });

  it('401 with WWW-Authenticate: Bearer error="invalid_token" for an unknown key', async () => {
    const res = await h.graphql('svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', OBJECT_QUERY, {
      id: mine.object.id,
    });
    expectGraphQLError(res, 401, 'UNAUTHENTICATED');
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="portier", error="invalid_token", error_description="The API key is unknown or revoked"',
    );
  });

  it("403 when the tenantId argument is not the key's tenant", async () => {
    const res = await h.graphql(mine.apiKey, OBJECT_QUERY, { t: theirs.tenantId, id: theirs.object.id });
    expectGraphQLError(res, 403, 'FORBIDDEN');
    expect(res.body.errors[0].extensions.reason).toBe('tenant_mismatch');
  });

  it('403 when the key lacks the scope, for queries and mutations', async () => {
    const key = await h.key(mine.tenantId, ['bookings:read']);
    const read = await h.graphql(key, OBJECT_QUERY, { id: mine.object.id });
    expectGraphQLError(read, 403, 'FORBIDDEN');
    expect(read.body.errors[0].extensions.reason).toBe('missing_scope');
    const write = await h.graphql(
      await h.key(mine.tenantId, ['catalog:read']),
      `mutation { createAccommodation(name: "x", address: "y", timeZone: "UTC") { id } }`,
    );
    expectGraphQLError(write, 403, 'FORBIDDEN');
    expect(write.body.errors[0].message).toContain('catalog:write');
    expect((await h.graphql(mine.apiKey, `{ accommodations { name } }`)).body.data.accommodations).toHaveLength(1);
  });

  it('403 for the admin-only API key fields without admin', async () => {
    const key = await h.key(mine.tenantId, ['catalog:read', 'catalog:write']);
    const res = await h.graphql(key, `{ apiKeys { id } }`);
    expectGraphQLError(res, 403, 'FORBIDDEN');
  });

  it("404 for another tenant's object", async () => {
    const res = await h.graphql(mine.apiKey, OBJECT_QUERY, { id: theirs.object.id });
    expectGraphQLError(res, 404, 'NOT_FOUND');
  });

  it('a key reads only its own tenant in lists', async () => {
    const res = await h.graphql(mine.apiKey, `{ viewer { id } bookableObjects { id } doors { id } }`);
    expect(res.body.data.viewer.id).toBe(mine.tenantId);
    expect(res.body.data.bookableObjects).toEqual([{ id: mine.object.id }]);
  });

  it('introspection works with any valid key of the tenant', async () => {
    const key = await h.key(mine.tenantId, ['bookings:read']);
    const res = await h.graphql(key, `{ __schema { queryType { name } } }`);
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('API key management', () => {
  it('a created key is usable at once, is shown once and then listed without its value', async () => {
    const { apiKey } = await h.tenant();
    const created = await h.graphql(
      apiKey,
      `mutation { createApiKey(name: "Booking sync", scopes: ["catalog:read"], rateLimitPerMinute: 50) { apiKey apiKeyInfo { id name prefix scopes rateLimitPerMinute revokedAt } } }`,
    );
    const { apiKey: plain, apiKeyInfo } = created.body.data.createApiKey;
    expect(plain).toMatch(/^svc_[A-Za-z0-9_-]{43,}$/);
    expect(apiKeyInfo).toMatchObject({
      name: 'Booking sync',
      prefix: plain.slice(0, 12),
      scopes: ['catalog:read'],
      rateLimitPerMinute: 50,
      revokedAt: null,
    });

    expect((await h.graphql(plain, `{ bookableObjects { id } }`)).status).toBe(200);
    const listed = await h.graphql(apiKey, `{ apiKeys { id name prefix } }`);
    expect(listed.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual([
      'Initial admin key',
      'Booking sync',
    ]);
    expect(listed.text).not.toContain(plain);
  });

  it('a revoked key is refused with 401 at once', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const key = await h.key(tenantId, ['catalog:read']);
    const [row] = (await h.graphql(apiKey, `{ apiKeys { id scopes } }`)).body.data.apiKeys.filter(
      (k: { scopes: string[] }) => k.scopes[0] === 'catalog:read',
    );
    const revoked = await h.graphql(apiKey, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, {
      id: row.id,
    });
    expect(revoked.body.data.revokeApiKey.revokedAt).toBeTruthy();
    const res = await h.graphql(key, `{ bookableObjects { id } }`);
    expectGraphQLError(res, 401, 'UNAUTHENTICATED');
  });

  it.each([
    ['an unknown scope', ['catalog:read', 'everything'], 'scopes'],
    ['no scopes', [], 'scopes'],
  ])('refuses %s, naming the field', async (_, scopes, field) => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(apiKey, `mutation($s: [String!]!) { createApiKey(name: "k", scopes: $s) { apiKey } }`, {
      s: scopes,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  });

  it("cannot revoke another tenant's key", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const [bKey] = (await h.graphql(b.apiKey, `{ apiKeys { id } }`)).body.data.apiKeys;
    const res = await h.graphql(a.apiKey, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: bKey.id });
    expectGraphQLError(res, 404, 'NOT_FOUND');
    expect((await h.graphql(b.apiKey, `{ viewer { id } }`)).status).toBe(200);
  });
});

describe('updateApiKey: a key narrowed (or renamed) without rotating it', () => {
  const UPDATE = `mutation($id: ID!, $name: String, $scopes: [String!]) {
    updateApiKey(id: $id, name: $name, scopes: $scopes) { id name prefix scopes revokedAt }
  }`;
  const keyOf = async (admin: string, tenantId: string, scopes: string[]) => {
    const plain = await h.key(tenantId, scopes);
    const listed = await h.graphql(admin, `{ apiKeys { id prefix } }`);
    const row = listed.body.data.apiKeys.find((k: { prefix: string }) => plain.startsWith(k.prefix));
    return { plain, id: row.id as string };
  };

  it('narrows at once in the answering process; the value stays; a scope lost is refused (403)', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const key = await keyOf(apiKey, tenantId, ['catalog:read', 'bookings:read']);
    expect((await h.graphql(key.plain, `{ bookings(first: 1) { id } }`)).status).toBe(200);

    const res = await h.graphql(apiKey, UPDATE, { id: key.id, scopes: ['catalog:read', 'catalog:read'] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateApiKey).toMatchObject({ id: key.id, scopes: ['catalog:read'], revokedAt: null });

    expectGraphQLError(await h.graphql(key.plain, `{ bookings(first: 1) { id } }`), 403, 'FORBIDDEN');
    expect((await h.graphql(key.plain, `{ bookableObjects { id } }`)).status).toBe(200);

    const renamed = await h.graphql(apiKey, UPDATE, { id: key.id, name: '  Lobby screen  ' });
    expect(renamed.body.data.updateApiKey).toMatchObject({ name: 'Lobby screen', scopes: ['catalog:read'] });
  });

  it.each([
    ['nothing to change', {}, 'scopes'],
    ['nulls only', { name: null, scopes: null }, 'scopes'],
    ['an unknown scope', { scopes: ['catalog:read', 'everything'] }, 'scopes'],
    ['no scopes', { scopes: [] }, 'scopes'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name'],
  ])('refuses %s, naming the field', async (_, change, field) => {
    const { tenantId, apiKey } = await h.tenant();
    const key = await keyOf(apiKey, tenantId, ['catalog:read']);
    const res = await h.graphql(apiKey, UPDATE, { id: key.id, ...change });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].extensions.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  });

  it('refuses a revoked key (409), an unknown id and another tenant’s key (404), and a key without admin (403)', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const key = await keyOf(a.apiKey, a.tenantId, ['catalog:read']);
    await h.graphql(a.apiKey, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: key.id });
    const revoked = await h.graphql(a.apiKey, UPDATE, { id: key.id, scopes: ['admin'] });
    expectGraphQLError(revoked, 409, 'CONFLICT');
    expect(revoked.body.errors[0].extensions.reason).toBe('api_key_revoked');

    const [bKey] = (await h.graphql(b.apiKey, `{ apiKeys { id } }`)).body.data.apiKeys;
    expectGraphQLError(await h.graphql(a.apiKey, UPDATE, { id: bKey.id, scopes: ['catalog:read'] }), 404, 'NOT_FOUND');
    expectGraphQLError(await h.graphql(a.apiKey, UPDATE, { id: 'not-a-uuid', scopes: ['admin'] }), 404, 'NOT_FOUND');
    expect((await h.graphql(b.apiKey, `{ apiKeys { scopes } }`)).body.data.apiKeys[0].scopes).toEqual(['admin']);

    const plain = await h.key(a.tenantId, ['catalog:read', 'catalog:write']);
    const other = await keyOf(a.apiKey, a.tenantId, ['catalog:read']);
    expectGraphQLError(await h.graphql(plain, UPDATE, { id: other.id, scopes: ['admin'] }), 403, 'FORBIDDEN');
  });
});
