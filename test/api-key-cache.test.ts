import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { ApiKeyCache } from '../src/modules/tenants/index.js';

// API key lookups are reused for API_KEY_CACHE_MS (docs/api.md, "API key format"). Two apps
// on one database stand for two processes: each has its own cache, as each process has.

const LIST = `/api/v1/graphql?query=${encodeURIComponent('{ bookings(first: 1) { id } }')}`;

describe('API key lookups reused for a moment', () => {
  let h: Harness;
  let other: OwnApp;
  /** The other process's cache clock, in ms, moved by hand. */
  const time = { now: 0 };

  beforeAll(async () => {
    h = await harness();
    other = await ownApp(h, {
      env: { rateLimitPerMinute: 1_000_000, loadSheddingMaxEventLoopDelayMs: 0 },
      options: { loadShedding: { maxEventLoopDelay: 0 } },
      setup: (_fastify, deps) => {
        deps.apiKeys = new ApiKeyCache(1_000, () => time.now);
      },
    });
  });

  afterAll(async () => {
    await other?.close();
  });

  const revoke = async (admin: string, keyId: string) => {
    const res = await h.graphql(admin, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, { id: keyId });
    expect(res.body.data.revokeApiKey.revokedAt).toBeTruthy();
  };
  const keyIdOf = async (admin: string, scope: string) => {
    const res = await h.graphql(admin, '{ apiKeys { id scopes } }');
    return (
      (res.body.data.apiKeys as { id: string; scopes: string[] }[]).find((k) => k.scopes.join() === scope)?.id ?? ''
    );
  };

  it('the process that revokes a key refuses it at once, though it has just used it', async () => {
    const { tenantId, apiKey: admin } = await h.tenant();
    const key = await h.key(tenantId, ['bookings:read']);
    for (let i = 0; i < 3; i += 1)
      expect((await h.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
    await revoke(admin, await keyIdOf(admin, 'bookings:read'));
    const refused = await h.request({ method: 'GET', url: LIST, apiKey: key });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('The API key is unknown or revoked');
  });

  it('another process refuses it once its lookup is API_KEY_CACHE_MS old, and not before', async () => {
    const { tenantId, apiKey: admin } = await h.tenant();
    const key = await h.key(tenantId, ['bookings:read']);
    time.now = 0;
    expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
    await revoke(admin, await keyIdOf(admin, 'bookings:read'));
    time.now = 999;
    expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
    time.now = 1_000;
    expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(401);
    // And it stays refused: an unknown or revoked key is never kept.
    time.now = 1_001;
    expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(401);
  });

  it('with API_KEY_CACHE_MS=0 another process refuses a revoked key at once', async () => {
    const uncached = await ownApp(h, {
      env: { rateLimitPerMinute: 1_000_000, loadSheddingMaxEventLoopDelayMs: 0, apiKeyCacheMs: 0 },
      options: { loadShedding: { maxEventLoopDelay: 0 } },
    });
    try {
      const { tenantId, apiKey: admin } = await h.tenant();
      const key = await h.key(tenantId, ['bookings:read']);
      expect((await uncached.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
      await revoke(admin, await keyIdOf(admin, 'bookings:read'));
      expect((await uncached.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(401);
    } finally {
      await uncached.close();
    }
  });

  it('a key created a moment after its first refused use works at once (refusals are not kept)', async () => {
    const { tenantId } = await h.tenant();
    const unknown = 'svc_' + 'x'.repeat(43);
    expect((await h.request({ method: 'GET', url: LIST, apiKey: unknown })).status).toBe(401);
    const key = await h.key(tenantId, ['bookings:read']);
    expect((await h.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
  });

  it('a use served from the cache still records the key’s last use once a minute', async () => {
    const { tenantId } = await h.tenant();
    const key = await h.key(tenantId, ['bookings:read']);
    const lastUsed = async () =>
      (
        await h.deps.database.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('tenant_id', '=', tenantId)
          .where('name', '=', 'test bookings:read')
          .executeTakeFirst()
      )?.last_used_at ?? null;
    const until = async (ok: (d: Date | null) => boolean) => {
      for (let waited = 0; waited < 10_000; waited += 25) {
        const seen = await lastUsed();
        if (ok(seen)) return seen;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the last use was not recorded');
    };
    time.now = 0;
    const first = new Date('2026-03-02T10:00:00Z');
    h.clock.set(first);
    try {
      expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
      expect((await until((d) => d !== null))?.toISOString()).toBe(first.toISOString());
      // Two minutes later by the app's clock, within the cache's second: written again.
      const later = new Date('2026-03-02T10:02:00Z');
      h.clock.set(later);
      expect((await other.request({ method: 'GET', url: LIST, apiKey: key })).status).toBe(200);
      expect((await until((d) => d?.getTime() === later.getTime()))?.toISOString()).toBe(later.toISOString());
    } finally {
      h.clock.set(null);
    }
  });
});
