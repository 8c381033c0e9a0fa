import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

// An API key's last use (Admin → API Keys shows it): recorded when the key authenticates a request,
// at most once a minute per key, never for a refused key.
describe('ApiKey.lastUsedAt', () => {
  it('is null until the key is used, then the time of its use', async () => {
    const h = await harness();
    const { tenantId, apiKey: admin } = await h.tenant();
    const key = await h.key(tenantId, ['bookings:read']);
    const lastUsed = async () => {
      const res = await h.graphql(admin, '{ apiKeys { name scopes lastUsedAt } }');
      const keys = res.body.data.apiKeys as { scopes: string[]; lastUsedAt: string | null }[];
      return keys.find((k) => k.scopes.length === 1 && k.scopes[0] === 'bookings:read')?.lastUsedAt ?? null;
    };
    expect(await lastUsed()).toBeNull();

    const before = Date.now();
    expect((await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/bookings`, apiKey: key })).status).toBe(
      200,
    );
    let seen: string | null = null;
    for (let waited = 0; waited < 10_000 && seen === null; waited += 50) {
      seen = await lastUsed();
      if (seen === null) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).not.toBeNull();
    expect(new Date(seen ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1_000);

    // A second use within the minute writes nothing new.
    expect((await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/bookings`, apiKey: key })).status).toBe(
      200,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(await lastUsed()).toBe(seen);
  });
});
