import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { rowLoader } from '../../kernel/db/batch.js';

/**
 * Booking.series without N+1: the series of the bookings a page shows, in one read. Keyed by id
 * alone, as catalog's objectById: the ids come from the tenant's own booking rows.
 */
export function createSeriesLoaders(db: Kysely<DB>) {
  return {
    seriesById: rowLoader(
      (ids: readonly string[]) =>
        db
          .selectFrom('booking_series')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute(),
      (row) => row.id,
    ),
  };
}
