import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { groupLoader, rowLoader } from '../../kernel/db/batch.js';
import * as repo from './customers.repository.js';

/** Per request: customers by id (Booking.customer), and their counts and totals (one statement per page). */
export function createCustomerLoaders(db: Kysely<DB>) {
  return {
    customerById: rowLoader(
      (ids: readonly string[]) => repo.customersByIds(db, ids),
      (r) => r.id,
    ),
    customerStats: rowLoader(
      (ids: readonly string[]) => repo.statsOfCustomers(db, ids),
      (r) => r.customer_id,
    ),
    customerTotals: groupLoader(
      (ids: readonly string[]) => repo.totalsOfCustomers(db, ids),
      (r) => r.customer_id,
    ),
  };
}
