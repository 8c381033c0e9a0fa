import type { Executor } from '../../kernel/db/index.js';
import { afterPosition } from '../../kernel/db/keyset.js';
import type { CancellationPolicyRow, CancellationTier } from '../../kernel/db/types.js';

export interface PolicyValues {
  name: string;
  tiers: CancellationTier[];
}

export async function insertPolicy(
  db: Executor,
  tenantId: string,
  values: PolicyValues & { isDefault: boolean },
): Promise<CancellationPolicyRow> {
  return db
    .insertInto('cancellation_policies')
    .values({
      tenant_id: tenantId,
      name: values.name,
      is_default: values.isDefault,
      tiers: JSON.stringify(values.tiers),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updatePolicy(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<PolicyValues> & { isDefault?: boolean },
): Promise<CancellationPolicyRow | undefined> {
  const set = {
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.tiers !== undefined ? { tiers: JSON.stringify(values.tiers) } : {}),
    ...(values.isDefault !== undefined ? { is_default: values.isDefault } : {}),
  };
  if (Object.keys(set).length === 0) return findPolicy(db, tenantId, id);
  return db
    .updateTable('cancellation_policies')
    .set(set)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findPolicy(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<CancellationPolicyRow | undefined> {
  return db
    .selectFrom('cancellation_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findDefaultPolicy(db: Executor, tenantId: string): Promise<CancellationPolicyRow | undefined> {
  return db
    .selectFrom('cancellation_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

/** The tenant's policies in position order; with `page`, the rows after its key, at most its limit (cursor paging). */
export async function listPolicies(
  db: Executor,
  tenantId: string,
  page?: { after: { position: number; id: string } | null; limit: number },
): Promise<CancellationPolicyRow[]> {
  return db
    .selectFrom('cancellation_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .$if(page?.after != null, (q) => q.where(afterPosition('position', 'id', page?.after ?? { position: 0, id: '' })))
    .orderBy('position')
    .orderBy('id')
    .$if(page !== undefined, (q) => q.limit(page?.limit ?? 0))
    .execute();
}

/**
 * Locks the tenant's policies, then clears the default flag of every policy but `exceptId`. The lock
 * is its own statement, so a concurrent default change is waited for and then seen by the update.
 */
export async function clearDefault(db: Executor, tenantId: string, exceptId?: string): Promise<void> {
  await db.selectFrom('cancellation_policies').select('id').where('tenant_id', '=', tenantId).forUpdate().execute();
  let query = db
    .updateTable('cancellation_policies')
    .set({ is_default: false })
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true);
  if (exceptId) query = query.where('id', '<>', exceptId);
  await query.execute();
}

export async function deletePolicy(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('cancellation_policies')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
