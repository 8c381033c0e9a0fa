import type { Executor } from '../../kernel/db/index.js';
import type { ApiKeyRow, TenantRow } from '../../kernel/db/types.js';
import { displayPrefix, randomToken, sha256 } from '../../kernel/crypto.js';
import { notFound } from '../../kernel/errors.js';
import type { CreateApiKey } from './tenants.commands.js';
import { effectiveScopes } from '../../kernel/auth/scopes.js';
import type { ApiKeyPrincipal } from '../../kernel/auth/principal.js';
import { isUuid } from '../../kernel/validation.js';
import * as repo from './tenants.repository.js';
import type { ApiKeyCache } from './api-key-cache.js';

export const API_KEY_PREFIX = 'svc_';

export interface CreatedApiKey {
  key: ApiKeyRow;
  /** The plain key: returned once, stored nowhere. */
  apiKey: string;
}

/** `input`: the tenant and the caller's parsed command (parseCreateApiKey). */
export async function createApiKey(db: Executor, input: { tenantId: string } & CreateApiKey): Promise<CreatedApiKey> {
  if (!isUuid(input.tenantId) || !(await repo.findTenant(db, input.tenantId))) throw notFound('Tenant', input.tenantId);

  const apiKey = API_KEY_PREFIX + randomToken(32);
  const key = await repo.insertApiKey(db, {
    tenant_id: input.tenantId,
    name: input.name,
    key_hash: sha256(apiKey),
    key_prefix: displayPrefix(apiKey),
    scopes: [...new Set(input.scopes)],
    rate_limit_per_minute: input.rateLimitPerMinute ?? null,
  });
  return { key, apiKey };
}

/** A tenant and its first admin key; `name` is the caller's parsed name (parseCreateTenant). */
export async function createTenant(db: Executor, name: string): Promise<{ tenant: TenantRow; apiKey: string }> {
  const tenant = await repo.insertTenant(db, name);
  const { apiKey } = await createApiKey(db, { tenantId: tenant.id, name: 'Initial admin key', scopes: ['admin'] });
  return { tenant, apiKey };
}

/** How fresh an API key's `lastUsedAt` is kept: one write a minute per key at most. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The principal behind a plain API key, or null when the key is unknown or revoked. A use is
 * recorded (without waiting for it) when the stored last use is older than a minute. With a
 * `cache`, a key found in the last moment is not read again (ApiKeyCache).
 */
export async function authenticateApiKey(
  db: Executor,
  plain: string,
  now: Date = new Date(),
  onError?: (error: unknown) => void,
  cache?: ApiKeyCache,
): Promise<ApiKeyPrincipal | null> {
  if (!plain.startsWith(API_KEY_PREFIX) || plain.startsWith('svc_dk_')) return null;
  const hash = sha256(plain);
  let key = cache?.get(hash);
  if (!key) {
    const startedAt = cache?.begin() ?? 0;
    const row = await repo.findActiveApiKeyByHash(db, hash);
    if (!row) return null;
    key = { principal: principalOf(row), lastUsedAt: row.last_used_at };
    cache?.set(hash, key, startedAt);
  }
  const since = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (key.lastUsedAt === null || key.lastUsedAt < since) {
    key.lastUsedAt = now;
    repo.touchApiKey(db, key.principal.keyId, now, since).catch((error: unknown) => onError?.(error));
  }
  return key.principal;
}

/** A key row's principal; frozen, since a cached one serves many requests. */
function principalOf(row: ApiKeyRow): ApiKeyPrincipal {
  return Object.freeze({
    kind: 'apiKey',
    keyId: row.id,
    tenantId: row.tenant_id,
    scopes: Object.freeze(effectiveScopes(row.scopes)) as string[],
    rateLimitPerMinute: row.rate_limit_per_minute,
  });
}

export async function getTenant(db: Executor, tenantId: string): Promise<TenantRow> {
  const tenant = await repo.findTenant(db, tenantId);
  if (!tenant) throw notFound('Tenant', tenantId);
  return tenant;
}

export const listApiKeys = repo.listApiKeys;

/** The tenant, or undefined when there is none with that id. */
export const findTenant = repo.findTenant;

/** Revokes a key; revoking it again keeps the first revocation time. */
export async function revokeApiKey(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ key: ApiKeyRow; revokedNow: boolean }> {
  const existing = isUuid(id) ? await repo.findApiKey(db, tenantId, id) : undefined;
  if (!existing) throw notFound('API key', id);
  if (existing.revoked_at) return { key: existing, revokedNow: false };
  const row = await repo.revokeApiKey(db, tenantId, id);
  if (!row) throw notFound('API key', id);
  return { key: row, revokedNow: true };
}
