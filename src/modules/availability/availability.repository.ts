import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { ObjectRow, SpecialDateRow } from '../../kernel/db/types.js';
import type { SpecialDay } from './slots.js';

/** The special dates of these objects on these local dates. */
export async function specialDatesOn(
  db: Executor,
  tenantId: string,
  objectIds: readonly string[],
  dates: readonly string[],
): Promise<SpecialDateRow[]> {
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
export async function blockingBookings(
  db: Executor,
  tenantId: string,
  objectIds: readonly string[],
  from: Date,
  to: Date,
): Promise<BlockingBooking[]> {
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

/** One object's availability inputs for local dates, read in one statement with `availabilityRows`. */
export interface AvailabilityRow {
  id: string;
  name: string;
  accommodation_id: string;
  opening_hours: ObjectRow['opening_hours'];
  slot_increment_minutes: number;
  min_advance_minutes: number;
  max_advance_days: number;
  buffer_minutes: number;
  time_zone: string;
  /** The object's special dates in the asked dates (at most one per date). */
  special: SpecialDay[] | null;
  /** Blocked ranges [start, until) of its PENDING and CONFIRMED bookings, as ms since the epoch. */
  blocked: [number, number][] | null;
}

/**
 * Everything the slots of the local dates `from` to `to` (inclusive; one date when equal) need, for
 * one object (`objectId`, whatever its accommodation: the caller decides), one accommodation's
 * objects, or all the tenant's: each object with its accommodation's zone, its special dates in the
 * range and the bookings blocking anything from `from`'s local midnight to two local days after `to`
 * (a 24:00 closing plus the largest buffer), found through the no-overlap constraint's GiST index
 * (the status list below is its predicate, spelled as literals so that the planner can match it).
 * One statement whatever the number of objects or dates.
 */
export async function availabilityRows(
  db: Executor,
  tenantId: string,
  from: string,
  to: string,
  filter: { objectId?: string; accommodationId?: string; exceptBookingId?: string },
): Promise<AvailabilityRow[]> {
  const where = filter.objectId
    ? sql`AND o.id = ${filter.objectId}`
    : filter.accommodationId
      ? sql`AND o.accommodation_id = ${filter.accommodationId}`
      : sql``;
  // A booking being moved does not block its own new time (the guest's reschedule, src/modules/guest).
  const except = filter.exceptBookingId ? sql`AND b.id <> ${filter.exceptBookingId}` : sql``;
  const dates = from === to ? sql`sd.date = ${from}::date` : sql`sd.date BETWEEN ${from}::date AND ${to}::date`;
  const result = await sql<AvailabilityRow>`
    SELECT o.id, o.name, o.accommodation_id, o.opening_hours, o.slot_increment_minutes, o.min_advance_minutes,
      o.max_advance_days, o.buffer_minutes, a.time_zone,
      (SELECT json_agg(json_build_object('date', sd.date, 'closed', sd.closed, 'reason', sd.reason, 'open', sd.open, 'close', sd.close))
         FROM special_dates sd WHERE sd.tenant_id = o.tenant_id AND sd.object_id = o.id AND ${dates}) AS special,
      (SELECT json_agg(json_build_array(floor(extract(epoch FROM b.start_time) * 1000), floor(extract(epoch FROM b.blocked_until) * 1000)))
         FROM bookings b
        WHERE b.tenant_id = o.tenant_id AND b.object_id = o.id AND b.status IN ('PENDING', 'CONFIRMED') ${except}
          AND tstzrange(b.start_time, b.blocked_until) && tstzrange(${from}::date::timestamp AT TIME ZONE a.time_zone, (${to}::date + 2)::timestamp AT TIME ZONE a.time_zone)) AS blocked
    FROM objects o
    JOIN accommodations a ON a.tenant_id = o.tenant_id AND a.id = o.accommodation_id
    WHERE o.tenant_id = ${tenantId} ${where}
    ORDER BY o.name, o.id`.execute(db);
  return result.rows;
}
