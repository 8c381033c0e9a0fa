import type { Executor } from '../../kernel/db/index.js';
import * as repo from './payments.repository.js';
import type { UpdateTenantSettings } from './payments.commands.js';

// A tenant's payment settings: confirmOnPayment (default on) and pendingExpiryMinutes (default
// off). A tenant that never saved them has no row and gets the defaults.

export interface TenantSettings {
  confirmOnPayment: boolean;
  pendingExpiryMinutes: number | null;
}

export const DEFAULT_SETTINGS: TenantSettings = { confirmOnPayment: true, pendingExpiryMinutes: null };

export async function settingsOf(db: Executor, tenantId: string): Promise<TenantSettings> {
  const row = await repo.findSettings(db, tenantId);
  return row
    ? { confirmOnPayment: row.confirm_on_payment, pendingExpiryMinutes: row.pending_expiry_minutes }
    : DEFAULT_SETTINGS;
}

/**
 * Saves the fields given: a field left out keeps its value; pendingExpiryMinutes: null turns the
 * hold off. Returns the settings before and after (for the audit entry).
 */
export async function updateSettings(
  trx: Executor,
  tenantId: string,
  input: UpdateTenantSettings,
  given: { pendingExpiryMinutes: boolean },
  now: Date,
) {
  const before = await settingsOf(trx, tenantId);
  const values: { confirm_on_payment?: boolean; pending_expiry_minutes?: number | null } = {};
  if (input.confirmOnPayment != null) values.confirm_on_payment = input.confirmOnPayment;
  if (given.pendingExpiryMinutes) values.pending_expiry_minutes = input.pendingExpiryMinutes ?? null;
  const row = await repo.upsertSettings(trx, tenantId, values, now);
  return {
    before,
    after: {
      confirmOnPayment: row.confirm_on_payment,
      pendingExpiryMinutes: row.pending_expiry_minutes,
    } satisfies TenantSettings,
  };
}
