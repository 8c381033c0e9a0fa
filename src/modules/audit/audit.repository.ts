import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { AuditLogRow } from '../../kernel/db/types.js';

export interface AuditInsert {
  tenant_id: string;
  occurred_at: Date;
  actor_type: AuditLogRow['actor_type'];
  actor_id: string | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

export async function insertAuditEntry(db: Executor, entry: AuditInsert): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...entry, details: JSON.stringify(entry.details) })
    .execute();
}

/** Newest first; `before` is an entry id (the cursor). One more row than asked tells whether more follow. */
export async function listAuditEntries(
  db: Executor,
  tenantId: string,
  limit: number,
  before: string | null,
): Promise<AuditLogRow[]> {
  let query = db.selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId);
  if (before !== null) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** How many entries the tenant's audit log holds (the connection's totalCount). */
export async function countAuditEntries(db: Executor, tenantId: string): Promise<number> {
  return (
    await db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
  ).n;
}

export async function countAuditActionsSince(
  db: Executor,
  tenantId: string,
  action: string,
  since: Date,
): Promise<number> {
  return (
    await db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', tenantId)
      .where('action', '=', action)
      .where('occurred_at', '>=', since)
      .executeTakeFirstOrThrow()
  ).n;
}

export async function userEmail(db: Executor, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}

export async function apiKeyName(db: Executor, keyId: string): Promise<string | undefined> {
  return (await db.selectFrom('api_keys').select('name').where('id', '=', keyId).executeTakeFirst())?.name;
}
