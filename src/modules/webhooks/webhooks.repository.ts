import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { microsecondKey, newerThan } from '../../kernel/db/keyset.js';
import type { WebhookRow } from '../../kernel/db/types.js';

// Subscriptions. Every query is scoped by tenant.

export interface NewWebhook {
  tenant_id: string;
  url: string;
  events: string[];
  secret_sealed: string;
}

export async function insertWebhook(db: Executor, values: NewWebhook): Promise<WebhookRow> {
  return db.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function listWebhooks(db: Executor, tenantId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A keyset page of the subscriptions (oldest first, then id) after `after`, at most `limit`. */
export async function webhooksPage(
  db: Executor,
  tenantId: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<Array<WebhookRow & { sort_at: string }>> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .select(microsecondKey('created_at').as('sort_at'))
    .where('tenant_id', '=', tenantId)
    .$if(after !== null, (q) => q.where(newerThan('created_at', 'id', after ?? { at: '', id: '' })))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findWebhook(db: Executor, tenantId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes the subscription with its deliveries and their attempts. */
export async function deleteWebhook(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes an active subscription inactive; returns it, or undefined when it was not active. */
export async function deactivateWebhook(
  db: Executor,
  tenantId: string,
  id: string,
  reason: string,
  at: Date,
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set({ active: false, deactivated_at: at, deactivated_reason: reason })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('active', '=', true)
    .returningAll()
    .executeTakeFirst();
}

export interface WebhookChange {
  url?: string;
  events?: string[];
  active?: boolean;
  deactivated_at?: Date | null;
  deactivated_reason?: string | null;
  secret_sealed?: string;
  previous_secret_sealed?: string | null;
  previous_secret_expires_at?: Date | null;
}

export async function updateWebhook(
  db: Executor,
  tenantId: string,
  id: string,
  change: WebhookChange,
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set(change)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The subscription, locked for the caller's transaction. */
export async function findWebhookForUpdate(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The tenants with an active subscription to any of these event types. */
export async function tenantsSubscribedTo(db: Executor, types: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select('tenant_id')
    .distinct()
    .where('active', '=', true)
    .where(sql<boolean>`events && ${sql.val([...types])}::text[]`)
    .execute();
  return rows.map((r) => r.tenant_id);
}
