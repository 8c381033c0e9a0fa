import type { Executor } from '../../kernel/db/index.js';
import { notFound } from '../../kernel/errors.js';
import * as repo from './grants.repository.js';
import { deleteGrantState } from './store.js';

export const listConnectedApps = repo.listConnectedApps;

/** Ends every grant of an app (all tenants): its tokens and codes stop working at once. */
export async function revokeGrantsOfApp(db: Executor, clientId: string): Promise<void> {
  const grantIds = await repo.grantIdsOf(db, { clientId });
  await deleteGrantState(db, grantIds);
  await repo.deleteGrants(db, grantIds);
}

/** A tenant disconnects an app: every token of every grant it gave the app stops working at once. */
export async function revokeConnectedApp(db: Executor, tenantId: string, clientId: string): Promise<void> {
  const grantIds = await repo.grantIdsOf(db, { clientId, tenantId });
  if (grantIds.length === 0) throw notFound('Connected app', clientId);
  await deleteGrantState(db, grantIds);
  await repo.deleteGrants(db, grantIds);
}
