import { DateTime } from 'luxon';
import type { Executor } from '../../db/index.js';
import type { ObjectRow } from '../../db/types.js';
import { Validator, notFound } from '../../errors.js';
import { isLocalDate, isUuid } from '../../validation.js';
import * as catalog from '../catalog/index.js';
import * as repo from './availability.repository.js';
import { daySlots, type SlotView } from './slots.js';

// Reads other modules use (the repository itself stays private to this module).
export { specialDatesOn } from './availability.repository.js';

export interface AvailabilityQuery {
  date: unknown;
  objectId?: string | null;
  accommodationId?: string | null;
}

export interface ObjectSlotsView {
  objectId: string;
  objectName: string;
  slots: SlotView[];
}

async function objectsOf(db: Executor, tenantId: string, query: AvailabilityQuery): Promise<ObjectRow[]> {
  if (query.objectId != null) {
    const object = await catalog.findObject(db, tenantId, query.objectId);
    if (!object) throw notFound('Object', query.objectId);
    return query.accommodationId != null && object.accommodation_id !== query.accommodationId ? [] : [object];
  }
  if (query.accommodationId != null && !(await catalog.findAccommodation(db, tenantId, query.accommodationId))) {
    throw notFound('Accommodation', query.accommodationId);
  }
  return catalog.listObjects(db, tenantId, query.accommodationId ?? undefined);
}

/**
 * The slots of the tenant's objects (or of one object or accommodation) on a local date, each in
 * its accommodation's zone. A constant number of queries, whatever the number of objects.
 */
export async function availabilityOn(db: Executor, tenantId: string, now: Date, query: AvailabilityQuery): Promise<{ date: string; objects: ObjectSlotsView[] }> {
  const v = new Validator();
  v.check(isLocalDate(query.date), 'date', 'must be a date YYYY-MM-DD');
  if (query.objectId != null) v.check(isUuid(query.objectId), 'objectId', 'must be an object id (uuid)');
  if (query.accommodationId != null) v.check(isUuid(query.accommodationId), 'accommodationId', 'must be an accommodation id (uuid)');
  v.throwIfAny();
  const date = query.date as string;

  const objects = await objectsOf(db, tenantId, query);
  if (objects.length === 0) return { date, objects: [] };
  const objectIds = objects.map((o) => o.id);
  const accommodations = await catalog.accommodationsByIds(db, [...new Set(objects.map((o) => o.accommodation_id))]);
  const zoneOf = new Map(accommodations.map((a) => [a.id, a.time_zone]));
  const zoneFor = (accommodationId: string): string => {
    const zone = zoneOf.get(accommodationId);
    if (zone === undefined) throw new Error(`accommodation ${accommodationId} vanished while computing availability`);
    return zone;
  };

  // From the earliest local midnight of `date` to two local days later: covers a 24:00 closing
  // plus the largest buffer (one day).
  const starts = [...zoneOf.values()].map((zone) => DateTime.fromISO(date, { zone }).startOf('day'));
  const from = new Date(Math.min(...starts.map((d) => d.toMillis())));
  const to = new Date(Math.max(...starts.map((d) => d.plus({ days: 2 }).toMillis())));
  const [specialDates, bookings] = await Promise.all([repo.specialDatesOn(db, tenantId, objectIds, [date]), repo.blockingBookings(db, tenantId, objectIds, from, to)]);

  return {
    date,
    objects: objects.map((object) => ({
      objectId: object.id,
      objectName: object.name,
      slots: daySlots({
        zone: zoneFor(object.accommodation_id),
        date,
        weekly: object.opening_hours,
        specialDates: specialDates.filter((d) => d.object_id === object.id),
        rules: catalog.rulesOf(object),
        blocked: bookings.filter((b) => b.object_id === object.id).map((b) => ({ start: b.start_time, until: b.blocked_until })),
        now,
      }),
    })),
  };
}
