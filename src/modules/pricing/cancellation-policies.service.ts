import type { Executor } from '../../kernel/db/index.js';
import type { CancellationPolicyRow } from '../../kernel/db/types.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
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

export const listPolicies = repo.listPolicies;

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
