import type { Executor } from '../../db/index.js';
import type { CancellationPolicyRow } from '../../db/types.js';
import { Validator, conflict, notFound } from '../../errors.js';
import { isNonEmptyString, isUuid } from '../../validation.js';
import * as repo from './cancellation-policies.repository.js';
import { checkTiers } from './policy.js';

// Functions that may change the default take the caller's transaction: clearing the old default
// and setting the new one happen together.

export interface PolicyInput {
  name?: unknown;
  isDefault?: unknown;
  tiers?: unknown;
}

const UNIQUE_VIOLATION = '23505';

function checkPolicy(input: PolicyInput, partial: boolean): Partial<repo.PolicyValues> & { isDefault?: boolean } {
  const v = new Validator();
  const values: Partial<repo.PolicyValues> & { isDefault?: boolean } = {};
  if (!partial || input.name != null) {
    if (v.check(isNonEmptyString(input.name), 'name', 'must be a non-empty string of at most 200 characters')) values.name = (input.name as string).trim();
  }
  if (!partial || input.tiers != null) {
    const { tiers, errors } = checkTiers(input.tiers);
    v.errors.push(...errors);
    values.tiers = tiers;
  }
  if (input.isDefault != null) {
    if (v.check(typeof input.isDefault === 'boolean', 'isDefault', 'must be true or false')) values.isDefault = input.isDefault as boolean;
  }
  v.throwIfAny();
  return values;
}

/** Two concurrent first defaults of a tenant: the partial unique index refuses the second. */
async function orConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw conflict('default_policy_changed', 'Another request changed the default cancellation policy at the same time; try again');
    }
    throw error;
  }
}

export async function createPolicy(trx: Executor, tenantId: string, input: PolicyInput): Promise<CancellationPolicyRow> {
  const values = checkPolicy(input, false);
  const isDefault = values.isDefault ?? false;
  if (isDefault) await repo.clearDefault(trx, tenantId);
  return orConflict(() => repo.insertPolicy(trx, tenantId, { name: values.name!, tiers: values.tiers!, isDefault }));
}

export async function getPolicy(db: Executor, tenantId: string, id: string): Promise<CancellationPolicyRow> {
  const row = isUuid(id) ? await repo.findPolicy(db, tenantId, id) : undefined;
  if (!row) throw notFound('Cancellation policy', id);
  return row;
}

export const listPolicies = repo.listPolicies;

/** Given fields replace the stored ones; isDefault true makes it the default, false leaves the tenant without one. */
export async function updatePolicy(trx: Executor, tenantId: string, id: string, input: PolicyInput): Promise<CancellationPolicyRow> {
  const values = checkPolicy(input, true);
  await getPolicy(trx, tenantId, id);
  if (values.isDefault) await repo.clearDefault(trx, tenantId, id);
  return orConflict(async () => (await repo.updatePolicy(trx, tenantId, id, values))!);
}

export async function setDefaultPolicy(trx: Executor, tenantId: string, id: string): Promise<CancellationPolicyRow> {
  return updatePolicy(trx, tenantId, id, { isDefault: true });
}

/** Deleting the default leaves the tenant without one: cancellations then refund in full. */
export async function deletePolicy(db: Executor, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id) || !(await repo.deletePolicy(db, tenantId, id))) throw notFound('Cancellation policy', id);
  return true;
}
