import type { Executor } from '../../db/index.js';
import { Validator, notFound } from '../../errors.js';
import { isLocalDate, isUuid } from '../../validation.js';
import * as catalog from '../catalog/index.js';
import * as repo from './availability.repository.js';
import { computeSchedule, daySlots, latestStart, type ScheduleSource, type SlotView } from './slots.js';

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

/**
 * The slots of the tenant's objects (or of one object or accommodation) on a local date, each in
 * its accommodation's zone: one SQL statement (a second only to tell an unknown accommodation from
 * one without objects), whatever the number of objects or bookings. `schedules` is the process's
 * slot-grid cache (deps.slotSchedules); without it each grid is computed once per call.
 */
export async function availabilityOn(
  db: Executor,
  tenantId: string,
  now: Date,
  query: AvailabilityQuery,
  schedules: ScheduleSource = memoized(computeSchedule),
): Promise<{ date: string; objects: ObjectSlotsView[] }> {
  const v = new Validator();
  v.check(isLocalDate(query.date), 'date', 'must be a date YYYY-MM-DD');
  if (query.objectId != null) v.check(isUuid(query.objectId), 'objectId', 'must be an object id (uuid)');
  if (query.accommodationId != null) v.check(isUuid(query.accommodationId), 'accommodationId', 'must be an accommodation id (uuid)');
  v.throwIfAny();
  const date = query.date as string;

  let rows = await repo.availabilityRows(db, tenantId, date, { objectId: query.objectId ?? undefined, accommodationId: query.accommodationId ?? undefined });
  if (query.objectId != null) {
    if (rows.length === 0) throw notFound('Object', query.objectId);
    if (query.accommodationId != null) rows = rows.filter((o) => o.accommodation_id === query.accommodationId);
  } else if (rows.length === 0 && query.accommodationId != null && !(await catalog.findAccommodation(db, tenantId, query.accommodationId))) {
    throw notFound('Accommodation', query.accommodationId);
  }

  // The latest start the rules allow depends on the zone and maxAdvanceDays only: once per pair.
  const latest = new Map<string, number>();
  return {
    date,
    objects: rows.map((object) => {
      const zone = object.time_zone;
      const latestKey = `${zone}|${object.max_advance_days}`;
      let latestMs = latest.get(latestKey);
      if (latestMs === undefined) latest.set(latestKey, (latestMs = latestStart(now, zone, object.max_advance_days).getTime()));
      return {
        objectId: object.id,
        objectName: object.name,
        slots: daySlots({
          zone,
          date,
          weekly: object.opening_hours,
          specialDates: object.special ?? [],
          rules: {
            slotIncrementMinutes: object.slot_increment_minutes,
            minAdvanceMinutes: object.min_advance_minutes,
            maxAdvanceDays: object.max_advance_days,
            bufferMinutes: object.buffer_minutes,
          },
          blocked: (object.blocked ?? []).map(([start, until]) => ({ start: new Date(start), until: new Date(until) })),
          now,
          schedules,
          latestMs,
        }),
      };
    }),
  };
}

/** A schedule source that computes each distinct grid once (objects of one answer share theirs). */
function memoized(compute: ScheduleSource): ScheduleSource {
  const grids = new Map<string, ReturnType<ScheduleSource>>();
  return (zone, date, hours, increment) => {
    const key = `${zone}|${date}|${hours.open}|${hours.close}|${increment}`;
    let grid = grids.get(key);
    if (!grid) grids.set(key, (grid = compute(zone, date, hours, increment)));
    return grid;
  };
}
