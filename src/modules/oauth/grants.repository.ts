import { sql } from 'kysely';
import { isUuid } from '../../kernel/validation.js';
import type { Executor } from '../../kernel/db/index.js';
import type { OAuthGrantRow } from '../../kernel/db/types.js';

export async function insertGrant(
  db: Executor,
  values: {
    grant_id: string;
    tenant_id: string;
    client_id: string;
    user_id: string;
    scopes: string[];
    expires_at: Date;
  },
): Promise<OAuthGrantRow> {
  return db.insertInto('oauth_grants').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Whether a grant still stands for this user: not ended, not expired, its user not removed. */
export async function grantStands(db: Executor, grantId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const row = await db
    .selectFrom('oauth_grants as g')
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'g.user_id').onRef('u.tenant_id', '=', 'g.tenant_id'))
    .select('g.grant_id')
    .where('g.grant_id', '=', grantId)
    .where('g.user_id', '=', userId)
    .where('g.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function userExists(db: Executor, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function grantIdsOf(db: Executor, filter: { clientId: string; tenantId?: string }): Promise<string[]> {
  let query = db.selectFrom('oauth_grants').select('grant_id').where('client_id', '=', filter.clientId);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  return (await query.execute()).map((r) => r.grant_id);
}

export async function deleteGrants(db: Executor, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db.deleteFrom('oauth_grants').where('grant_id', 'in', grantIds).execute();
}

export interface ConnectedAppRow {
  client_id: string;
  name: string;
  owner_tenant_name: string;
  scopes: string[];
  authorized_at: Date;
  last_used_at: Date | null;
}

/** The apps a tenant has authorized, one row per app (its live grants together). */
export async function listConnectedApps(db: Executor, tenantId: string, now: Date): Promise<ConnectedAppRow[]> {
  const rows = await db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_apps as a', 'a.client_id', 'g.client_id')
    .innerJoin('tenants as t', 't.id', 'a.tenant_id')
    .select(['g.client_id', 'a.name', 't.name as owner_tenant_name', 'g.scopes', 'g.created_at', 'g.last_used_at'])
    .where('g.tenant_id', '=', tenantId)
    .where('g.expires_at', '>', now)
    .orderBy('g.created_at')
    .execute();
  const byApp = new Map<string, ConnectedAppRow>();
  for (const row of rows) {
    const seen = byApp.get(row.client_id);
    if (!seen) {
      byApp.set(row.client_id, {
        client_id: row.client_id,
        name: row.name,
        owner_tenant_name: row.owner_tenant_name,
        scopes: [...row.scopes],
        authorized_at: row.created_at,
        last_used_at: row.last_used_at,
      });
      continue;
    }
    seen.scopes = [...new Set([...seen.scopes, ...row.scopes])];
    if (row.last_used_at && (!seen.last_used_at || row.last_used_at > seen.last_used_at))
      seen.last_used_at = row.last_used_at;
  }
  return [...byApp.values()];
}

/** Records a use; at most one write per grant a minute. */
export async function touchGrant(db: Executor, grantId: string, now: Date): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ last_used_at: now })
    .where('grant_id', '=', grantId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - 60_000))]))
    .execute();
}
