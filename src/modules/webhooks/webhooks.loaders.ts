import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { groupLoader } from '../../kernel/db/batch.js';
import * as deliveries from './deliveries.repository.js';

export function createWebhookLoaders(db: Kysely<DB>) {
  return {
    attemptsByDelivery: groupLoader(
      (ids: readonly string[]) => deliveries.attemptsOf(db, ids),
      (r) => r.delivery_id,
    ),
  };
}
