import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { groupLoader } from '../../db/batch.js';
import * as deliveries from './deliveries.repository.js';

export function createWebhookLoaders(db: Kysely<DB>) {
  return {
    attemptsByDelivery: groupLoader(
      (ids: readonly string[]) => deliveries.attemptsOf(db, ids),
      (r) => r.delivery_id,
    ),
  };
}
