import type { Executor } from '../../kernel/db/index.js';
import type { ProviderKind } from './credentials.rules.js';

// The provider_credentials table (migrations/202612030100_provider_credentials.ts): sealed only.

export interface CredentialRow {
  tenant_id: string;
  kind: ProviderKind;
  sealed: string;
  hint: string;
  updated_at: Date;
}

export async function credentialsOf(db: Executor, tenantId: string): Promise<CredentialRow[]> {
  return db.selectFrom('provider_credentials').selectAll().where('tenant_id', '=', tenantId).execute();
}

export async function credentialOf(
  db: Executor,
  tenantId: string,
  kind: ProviderKind,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('provider_credentials')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** When the tenant's credentials of `kind` last changed (undefined: none stored). */
export async function credentialStamp(db: Executor, tenantId: string, kind: ProviderKind): Promise<Date | undefined> {
  const row = await db
    .selectFrom('provider_credentials')
    .select('updated_at')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.updated_at;
}

export async function storeCredential(
  db: Executor,
  row: { tenantId: string; kind: ProviderKind; sealed: string; hint: string; now: Date },
): Promise<CredentialRow | undefined> {
  const previous = await credentialOf(db, row.tenantId, row.kind);
  // Strictly later than the previous change, also under a test's frozen clock: the stamp is how
  // other processes notice a change (tenant-providers.ts).
  const at = new Date(Math.max(row.now.getTime(), (previous?.updated_at.getTime() ?? 0) + 1));
  await db
    .insertInto('provider_credentials')
    .values({ tenant_id: row.tenantId, kind: row.kind, sealed: row.sealed, hint: row.hint, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'kind']).doUpdateSet({ sealed: row.sealed, hint: row.hint, updated_at: at }),
    )
    .execute();
  return previous;
}

export async function deleteCredential(db: Executor, tenantId: string, kind: ProviderKind): Promise<boolean> {
  const result = await db
    .deleteFrom('provider_credentials')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
