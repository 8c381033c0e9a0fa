import type { Executor } from '../../kernel/db/index.js';
import type { OAuthAppRow } from '../../kernel/db/types.js';

export async function insertApp(
  db: Executor,
  values: {
    client_id: string;
    tenant_id: string;
    name: string;
    redirect_uris: string[];
    scopes: string[];
    public: boolean;
    secret_hash: string | null;
  },
): Promise<OAuthAppRow> {
  return db.insertInto('oauth_apps').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findApp(db: Executor, clientId: string): Promise<OAuthAppRow | undefined> {
  return db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function listApps(db: Executor, tenantId: string): Promise<OAuthAppRow[]> {
  return db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('client_id')
    .execute();
}

export async function setSecretHash(
  db: Executor,
  tenantId: string,
  clientId: string,
  secretHash: string,
  at: Date,
): Promise<OAuthAppRow | undefined> {
  return db
    .updateTable('oauth_apps')
    .set({ secret_hash: secretHash, secret_rotated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('client_id', '=', clientId)
    .where('public', '=', false)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteApp(db: Executor, tenantId: string, clientId: string): Promise<OAuthAppRow | undefined> {
  return db
    .deleteFrom('oauth_apps')
    .where('tenant_id', '=', tenantId)
    .where('client_id', '=', clientId)
    .returningAll()
    .executeTakeFirst();
}

/** How many tenants hold at least one grant of each app. */
export async function authorizedTenantCounts(db: Executor, clientIds: readonly string[]): Promise<Map<string, number>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('oauth_grants')
    .select(['client_id', (eb) => eb.fn.count<string>('tenant_id').distinct().as('tenants')])
    .where('client_id', 'in', clientIds)
    .where('expires_at', '>', new Date())
    .groupBy('client_id')
    .execute();
  return new Map(rows.map((r) => [r.client_id, Number(r.tenants)]));
}
