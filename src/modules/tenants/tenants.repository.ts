import { compiledOnce } from '../../kernel/db/compiled-once.js';
import type { Executor } from '../../kernel/db/index.js';
import type { ApiKeyRow, TenantRow } from '../../kernel/db/types.js';

export async function insertTenant(db: Executor, name: string): Promise<TenantRow> {
  return db.insertInto('tenants').values({ name }).returningAll().executeTakeFirstOrThrow();
}

export async function findTenant(db: Executor, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertApiKey(
  db: Executor,
  values: {
    tenant_id: string;
    name: string;
    key_hash: string;
    key_prefix: string;
    scopes: string[];
    rate_limit_per_minute: number | null;
    kind?: 'secret' | 'publishable';
    publishable_key?: string | null;
  },
): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(values).returningAll().executeTakeFirstOrThrow();
}

const activeApiKeyByHash = compiledOnce(['keyHash'], (db, p) =>
  db
    .selectFrom('api_keys')
    .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
    .selectAll('api_keys')
    .select('tenants.livemode')
    .where('api_keys.key_hash', '=', p.keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** The key behind a hash (every API request), with its tenant's mode (test mode, docs/test-mode.md). */
export async function findActiveApiKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<(ApiKeyRow & { livemode: boolean }) | undefined> {
  return (await activeApiKeyByHash(db, { keyHash }))[0];
}

/** A live tenant's sandbox (docs/test-mode.md), or undefined when it has none yet. */
export async function findSandbox(db: Executor, liveTenantId: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('live_tenant_id', '=', liveTenantId).executeTakeFirst();
}

/** Makes the live tenant's sandbox unless it has one (two callers at once: one row, the unique index). */
export async function insertSandbox(db: Executor, live: TenantRow): Promise<void> {
  await db
    .insertInto('tenants')
    .values({ name: live.name, livemode: false, live_tenant_id: live.id })
    .onConflict((oc) => oc.column('live_tenant_id').doNothing())
    .execute();
}

/** Records a use of the key, unless one was recorded since `since` (another process may have). */
export async function touchApiKey(db: Executor, id: string, now: Date, since: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

export async function findApiKey(db: Executor, tenantId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The key, locked until the transaction ends (a change reads what it changes from). */
export async function lockApiKey(db: Executor, tenantId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateApiKey(
  db: Executor,
  tenantId: string,
  id: string,
  values: { name?: string; scopes?: string[] },
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function listApiKeys(db: Executor, tenantId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function revokeApiKey(db: Executor, tenantId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The tenant's working publishable key, locked (a rotation revokes it), or undefined. */
export async function findActivePublishableKey(db: Executor, tenantId: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'publishable')
    .where('revoked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}
