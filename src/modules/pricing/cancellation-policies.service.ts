import type { Executor } from '../../kernel/db/index.js';
import type { CancellationPolicyRow } from '../../kernel/db/types.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { cursorPageRows, positionCursor, type CursorPage } from '../../kernel/paging.js';
import type { CreatePolicy, UpdatePolicy } from './cancellation-policies.commands.js';
import * as repo from './cancellation-policies.repository.js';

// Functions that may change the default take the caller's transaction: clearing the old default
// and setting the new one happen together.

const UNIQUE_VIOLATION = '23505';

/** Two concurrent first defaults of a tenant: the partial unique index refuses the second. */
async function orConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw conflict(
        'default_policy_changed',
        'Another request changed the default cancellation policy at the same time; try again',
      );
    }
    throw error;
  }
}

/** Creates a policy from the caller's parsed command (parseCreatePolicy). */
export async function createPolicy(
  trx: Executor,
  tenantId: string,
  command: CreatePolicy,
): Promise<CancellationPolicyRow> {
  if (command.isDefault) await repo.clearDefault(trx, tenantId);
  return orConflict(() => repo.insertPolicy(trx, tenantId, command));
}

export async function getPolicy(db: Executor, tenantId: string, id: string): Promise<CancellationPolicyRow> {
  const row = isUuid(id) ? await repo.findPolicy(db, tenantId, id) : undefined;
  if (!row) throw notFound('Cancellation policy', id);
  return row;
}

export const listPolicies = (db: Executor, tenantId: string) => repo.listPolicies(db, tenantId);

export const POLICY_CURSOR = positionCursor('cancellation-policy');

/** A cursor page of the tenant's policies (REST cursor paging), in position order. */
export async function policyPage(db: Executor, tenantId: string, cursor: CursorPage<{ position: number; id: string }>) {
  const rows = await repo.listPolicies(db, tenantId, { after: cursor.after, limit: cursor.limit + 1 });
  return cursorPageRows(rows, cursor.limit, POLICY_CURSOR.of);
}

/** Given fields replace the stored ones; isDefault true makes it the default, false leaves the tenant without one. */
export async function updatePolicy(
  trx: Executor,
  tenantId: string,
  id: string,
  command: UpdatePolicy,
): Promise<CancellationPolicyRow> {
  await getPolicy(trx, tenantId, id);
  if (command.isDefault) await repo.clearDefault(trx, tenantId, id);
  return orConflict(async () => {
    const updated = await repo.updatePolicy(trx, tenantId, id, command);
    if (!updated) throw notFound('Cancellation policy', id);
    return updated;
  });
}

export async function setDefaultPolicy(trx: Executor, tenantId: string, id: string): Promise<CancellationPolicyRow> {
  return updatePolicy(trx, tenantId, id, { isDefault: true });
}

/** Deleting the default leaves the tenant without one: cancellations then refund in full. */
export async function deletePolicy(db: Executor, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id) || !(await repo.deletePolicy(db, tenantId, id))) throw notFound('Cancellation policy', id);
  return true;
}
