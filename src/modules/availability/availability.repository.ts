import type { Executor } from '../../db/index.js';
import type { SpecialDateRow } from '../../db/types.js';

/** The special dates of these objects on these local dates. */
export async function specialDatesOn(db: Executor, tenantId: string, objectIds: readonly string[], dates: readonly string[]): Promise<SpecialDateRow[]> {
  if (objectIds.length === 0 || dates.length === 0) return [];
  return db
    .selectFrom('special_dates')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('object_id', 'in', [...objectIds])
    .where('date', 'in', [...dates])
    .execute();
}

export interface BlockingBooking {
  object_id: string;
  start_time: Date;
  blocked_until: Date;
}

/** PENDING and CONFIRMED bookings of these objects whose blocked range meets [from, to). */
export async function blockingBookings(db: Executor, tenantId: string, objectIds: readonly string[], from: Date, to: Date): Promise<BlockingBooking[]> {
  if (objectIds.length === 0) return [];
  return db
    .selectFrom('bookings')
    .select(['object_id', 'start_time', 'blocked_until'])
    .where('tenant_id', '=', tenantId)
    .where('object_id', 'in', [...objectIds])
    .where('status', 'in', ['PENDING', 'CONFIRMED'])
    .where('start_time', '<', to)
    .where('blocked_until', '>', from)
    .execute();
}
