import { describe, expect, it } from 'vitest';
import { readEnv } from '../../kernel/env.js';
import { ApiKeyCache, type CachedApiKey } from './api-key-cache.js';

const keyOf = (keyId: string): CachedApiKey => ({
  principal: { kind: 'apiKey', keyId, tenantId: 't', scopes: ['admin'], rateLimitPerMinute: null },
  lastUsedAt: null,
});

function cacheAt(ttlMs: number, capacity = 3) {
  const time = { now: 0 };
  return { cache: new ApiKeyCache(ttlMs, () => time.now, capacity), time };
}

describe('ApiKeyCache', () => {
  it.each([
    // [ttl, ms after the set, found]
    [1_000, 0, true],
    [1_000, 999, true],
    [1_000, 1_000, false],
    [1_000, 5_000, false],
    [0, 0, false],
  ] as const)('ttl %i ms, read %i ms later: found %s', (ttl, later, found) => {
    const { cache, time } = cacheAt(ttl);
    cache.set('h1', keyOf('k1'), cache.begin());
    time.now += later;
    expect(cache.get('h1') !== undefined).toBe(found);
  });

  it('an expired entry is dropped when read', () => {
    const { cache, time } = cacheAt(10);
    cache.set('h1', keyOf('k1'), cache.begin());
    time.now = 10;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most its capacity, dropping the oldest lookup first', () => {
    const { cache } = cacheAt(1_000, 3);
    for (const n of [1, 2, 3, 4]) cache.set(`h${n}`, keyOf(`k${n}`), cache.begin());
    expect(cache.size).toBe(3);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h4')?.principal.keyId).toBe('k4');
    // Storing a key again does not push another out.
    cache.set('h4', keyOf('k4'), cache.begin());
    expect(cache.size).toBe(3);
    expect(cache.get('h2')?.principal.keyId).toBe('k2');
  });

  it('forget drops every entry of the key and no other', () => {
    const { cache } = cacheAt(1_000);
    cache.set('h1', keyOf('k1'), cache.begin());
    cache.set('h2', keyOf('k2'), cache.begin());
    cache.forget('k1');
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.principal.keyId).toBe('k2');
  });

  it('a lookup that started before a forget is not stored (it may have read the row before the revocation)', () => {
    const { cache } = cacheAt(1_000);
    const started = cache.begin();
    cache.forget('k1');
    cache.set('h1', keyOf('k1'), started);
    expect(cache.get('h1')).toBeUndefined();
    // One that starts after it is.
    cache.set('h1', keyOf('k1'), cache.begin());
    expect(cache.get('h1')?.principal.keyId).toBe('k1');
  });
});

describe('API_KEY_CACHE_MS', () => {
  it.each([
    [undefined, 1_000],
    ['', 1_000],
    ['0', 0],
    ['250', 250],
    ['60000', 60_000],
  ] as const)('%j → %i ms', (raw, ms) => {
    expect(readEnv(raw === undefined ? {} : { API_KEY_CACHE_MS: raw }).apiKeyCacheMs).toBe(ms);
  });

  it.each([
    ['-1', 'must be 0 or a positive integer, got "-1"'],
    ['1.5', 'must be 0 or a positive integer, got "1.5"'],
    ['soon', 'must be 0 or a positive integer, got "soon"'],
    ['60001', 'must be at most 60000 (a minute), got "60001"'],
  ])('%j is refused, naming the variable', (raw, message) => {
    expect(() => readEnv({ API_KEY_CACHE_MS: raw })).toThrow(`API_KEY_CACHE_MS ${message}`);
  });
});
