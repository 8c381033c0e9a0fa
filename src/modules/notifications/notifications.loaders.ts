import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { groupLoader } from '../../kernel/db/batch.js';
import { notificationsOfBookings } from './notifications.repository.js';

/** Booking.notifications: the bookings were read under the caller's tenant already, so their ids suffice. */
export function createNotificationLoaders(db: Kysely<DB>) {
  return {
    notificationsByBooking: groupLoader(
      (ids: readonly string[]) => notificationsOfBookings(db, ids),
      (r) => r.booking_id as string,
    ),
  };
}
