import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { authorizedTenantCounts } from './apps.repository.js';

export function createOAuthLoaders(db: Kysely<DB>) {
  return {
    authorizedTenantCount: new DataLoader<string, number>(async (clientIds) => {
      const counts = await authorizedTenantCounts(db, clientIds);
      return clientIds.map((id) => counts.get(id) ?? 0);
    }),
  };
}
