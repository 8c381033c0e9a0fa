import type { ApiKeyPrincipal } from '../../kernel/auth/principal.js';

/** A key's lookup, kept for a moment: the principal it made and the key's last recorded use. */
export interface CachedApiKey {
  readonly principal: ApiKeyPrincipal;
  /** The last use stored for the key, as this process last read or wrote it. */
  lastUsedAt: Date | null;
}

interface Entry extends CachedApiKey {
  /** On the cache's clock (monotonic milliseconds). */
  readonly expires: number;
}

/** Keys remembered at most; past it, the oldest lookup is dropped first. */
export const API_KEY_CACHE_CAPACITY = 10_000;

/**
 * What API keys this process looked up in the last `ttlMs` (docs/api.md, "API key format"),
 * by the key's SHA-256, so that a busy integrator's requests do not each read `api_keys` again.
 * Only keys that were found are kept (an unknown key is read every time, and cannot fill the cache).
 * A key row never changes but for its revocation and last use: a revocation in this process drops
 * the key at once (`forget`, after the revoking transaction commits), and one in another process
 * reaches this one when the entry expires. `forget` also refuses every lookup that started before
 * it, so a read of the row as it was before the revocation committed is never stored.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number = () => performance.now(),
    private readonly capacity = API_KEY_CACHE_CAPACITY,
  ) {}

  /** The key behind `hash` if it was looked up less than `ttlMs` ago. */
  get(hash: string): CachedApiKey | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expires > this.clock()) return entry;
    this.entries.delete(hash);
    return undefined;
  }

  /** A token to hand to `set` after the lookup it starts: `set` stores nothing if a key was forgotten since. */
  begin(): number {
    return this.generation;
  }

  set(hash: string, key: CachedApiKey, startedAt: number): void {
    if (this.ttlMs <= 0 || startedAt !== this.generation) return;
    if (!this.entries.has(hash) && this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, {
      principal: key.principal,
      lastUsedAt: key.lastUsedAt,
      expires: this.clock() + this.ttlMs,
    });
  }

  /** Drops the key (revoked) and every lookup still under way. */
  forget(keyId: string): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries) if (entry.principal.keyId === keyId) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
