import type { Executor } from '../../db/index.js';
import type { WebhookRow } from '../../db/types.js';

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
  return db.selectFrom('webhooks').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

export async function findWebhook(db: Executor, tenantId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** Deletes the subscription with its deliveries and their attempts. */
export async function deleteWebhook(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deactivateWebhook(db: Executor, tenantId: string, id: string, reason: string, at: Date): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ active: false, deactivated_at: at, deactivated_reason: reason })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('active', '=', true)
    .execute();
}
