import type { Executor } from '../../kernel/db/index.js';
import type { ApiKeyRow, TenantRow } from '../../kernel/db/types.js';
import { displayPrefix, randomToken, sha256 } from '../../kernel/crypto.js';
import { conflict, forbidden, notFound } from '../../kernel/errors.js';
import type { CreateApiKey, UpdateApiKey } from './tenants.commands.js';
import { effectiveScopes } from '../../kernel/auth/scopes.js';
import type { ApiKeyPrincipal } from '../../kernel/auth/principal.js';
import { isUuid } from '../../kernel/validation.js';
import * as repo from './tenants.repository.js';
import type { ApiKeyCache } from './api-key-cache.js';

export const API_KEY_PREFIX = 'svc_';
/** A test-mode key (docs/test-mode.md): a secret key of a sandbox tenant. */
export const TEST_API_KEY_PREFIX = 'svc_test_';
/** A publishable key (docs/booking-page.md, "Publishable key"): safe in a browser. */
export const PUBLISHABLE_KEY_PREFIX = 'svc_pk_';
/** The one scope a publishable key holds. */
export const PUBLISHABLE_KEY_SCOPE = 'booking_page';

export interface CreatedApiKey {
  key: ApiKeyRow;
  /** The plain key: returned once, stored nowhere. */
  apiKey: string;
}

/** The prefix of a secret key of a tenant in that mode: svc_ live, svc_test_ in a sandbox. */
export const secretKeyPrefix = (livemode: boolean): string => (livemode ? API_KEY_PREFIX : TEST_API_KEY_PREFIX);

/**
 * `input`: the tenant and the caller's parsed command (parseCreateApiKey). A sandbox's key starts
 * with svc_test_, a live tenant's with svc_.
 */
export async function createApiKey(db: Executor, input: { tenantId: string } & CreateApiKey): Promise<CreatedApiKey> {
  const tenant = isUuid(input.tenantId) ? await repo.findTenant(db, input.tenantId) : undefined;
  if (!tenant) throw notFound('Tenant', input.tenantId);

  const apiKey = secretKeyPrefix(tenant.livemode) + randomToken(32);
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

export interface CreatedPublishableKey extends CreatedApiKey {
  /** The key this one replaces (revoked in the same transaction), if there was one. */
  replaced: ApiKeyRow | undefined;
}

/**
 * Creates the tenant's publishable key (svc_pk_…, the booking_page scope only) and revokes the one
 * it had: a tenant has at most one working publishable key (a unique index says so too), so
 * creating one is also how it is rotated. `trx` must be the caller's transaction.
 */
export async function createPublishableKey(
  trx: Executor,
  tenantId: string,
  rateLimitPerMinute: number | null = null,
): Promise<CreatedPublishableKey> {
  if (!isUuid(tenantId) || !(await repo.findTenant(trx, tenantId))) throw notFound('Tenant', tenantId);
  const current = await repo.findActivePublishableKey(trx, tenantId);
  const replaced = current ? await repo.revokeApiKey(trx, tenantId, current.id) : undefined;
  const apiKey = PUBLISHABLE_KEY_PREFIX + randomToken(32);
  const key = await insertOrConflict(() =>
    repo.insertApiKey(trx, {
      tenant_id: tenantId,
      name: 'Publishable key',
      key_hash: sha256(apiKey),
      key_prefix: displayPrefix(apiKey),
      scopes: [PUBLISHABLE_KEY_SCOPE],
      rate_limit_per_minute: rateLimitPerMinute,
      kind: 'publishable',
      publishable_key: apiKey,
    }),
  );
  return { key, apiKey, replaced };
}

const UNIQUE_VIOLATION = '23505';

/** Two rotations at once: the second meets the first's new key in the unique index. */
async function insertOrConflict<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION)
      throw conflict('publishable_key_rotating', 'Another publishable key was created at the same moment; try again');
    throw error;
  }
}

/** The tenant's working publishable key, or undefined. */
export async function activePublishableKey(db: Executor, tenantId: string): Promise<ApiKeyRow | undefined> {
  return (await repo.listApiKeys(db, tenantId)).find((k) => k.kind === 'publishable' && k.revoked_at === null);
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
    key = { principal: principalOf(row, row.livemode), lastUsedAt: row.last_used_at };
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
function principalOf(row: ApiKeyRow, livemode: boolean): ApiKeyPrincipal {
  // A sandbox's principal says so (test mode); a live one leaves `livemode` out.
  const mode = livemode ? {} : { livemode: false as const };
  // A publishable key holds its one scope whatever its row says, and is marked so that GraphQL and
  // the origin check know it (src/transport/graphql/yoga.ts, src/transport/http/cors.ts).
  if (row.kind === 'publishable')
    return Object.freeze({
      kind: 'apiKey',
      keyId: row.id,
      tenantId: row.tenant_id,
      scopes: Object.freeze([PUBLISHABLE_KEY_SCOPE]) as string[],
      rateLimitPerMinute: row.rate_limit_per_minute,
      publishable: true,
      ...mode,
    });
  return Object.freeze({
    kind: 'apiKey',
    keyId: row.id,
    tenantId: row.tenant_id,
    scopes: Object.freeze(effectiveScopes(row.scopes)) as string[],
    rateLimitPerMinute: row.rate_limit_per_minute,
    ...mode,
  });
}

/**
 * The tenant a new key goes to (docs/test-mode.md): `livemode` false from a live tenant is its
 * sandbox, made on first use; from a sandbox, the sandbox itself. A sandbox cannot make a live key
 * (403 test_mode_key). Left out: the caller's own tenant.
 */
export async function keyTenant(
  db: Executor,
  callerTenantId: string,
  livemode: boolean | undefined,
): Promise<TenantRow> {
  const caller = await getTenant(db, callerTenantId);
  if (livemode === undefined || livemode === caller.livemode) return caller;
  if (livemode) throw forbidden('A test-mode key cannot create a live key; use a live admin key', 'test_mode_key');
  return ensureSandbox(db, caller);
}

/** The live tenant's sandbox (test mode, docs/test-mode.md), made when it has none: nothing is copied. */
export async function ensureSandbox(db: Executor, live: TenantRow): Promise<TenantRow> {
  if (!live.livemode) return live;
  const found = await repo.findSandbox(db, live.id);
  if (found) return found;
  await repo.insertSandbox(db, live);
  const made = await repo.findSandbox(db, live.id);
  if (!made) throw new Error(`the sandbox of ${live.id} vanished while it was made`);
  return made;
}

/** A live tenant's sandbox, or undefined when it has none yet (a sandbox: itself). */
export async function sandboxOf(db: Executor, tenant: TenantRow): Promise<TenantRow | undefined> {
  return tenant.livemode ? repo.findSandbox(db, tenant.id) : tenant;
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

/**
 * Changes a key's name or scopes; its value stays (no rotation). Returns the key before and after
 * the change. A revoked key cannot be changed (409 api_key_revoked): it stays as it was revoked.
 */
export async function updateApiKey(
  db: Executor,
  tenantId: string,
  id: string,
  change: UpdateApiKey,
): Promise<{ key: ApiKeyRow; previous: ApiKeyRow }> {
  const previous = isUuid(id) ? await repo.lockApiKey(db, tenantId, id) : undefined;
  if (!previous) throw notFound('API key', id);
  if (previous.revoked_at) throw conflict('api_key_revoked', `The API key ${id} was revoked and cannot be changed`);
  // A publishable key holds booking_page and nothing else (docs/booking-page.md): its name may change, its scopes not.
  if (previous.kind === 'publishable' && change.scopes !== undefined)
    throw conflict('publishable_key_scopes', `The API key ${id} is a publishable key: its scope is booking_page only`);
  const key = await repo.updateApiKey(db, tenantId, id, {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.scopes !== undefined ? { scopes: [...new Set(change.scopes)] } : {}),
  });
  if (!key) throw notFound('API key', id);
  return { key, previous };
}
