import type { Executor } from '../../kernel/db/index.js';
import { notFound } from '../../kernel/errors.js';
import type { AvailabilityQuery, AvailabilityRangeQuery } from './availability.commands.js';
import * as catalog from '../catalog/index.js';
import * as repo from './availability.repository.js';
import {
  computeSchedule,
  daySlots,
  freeStarts,
  latestStart,
  type FreeStart,
  type ScheduleSource,
  type SlotView,
} from './slots.js';

// Reads other modules use (the repository itself stays private to this module).
export { specialDatesOn } from './availability.repository.js';

export type { AvailabilityQuery, AvailabilityRangeQuery } from './availability.commands.js';

export interface ObjectSlotsView {
  objectId: string;
  objectName: string;
  /** The IANA zone of the object's accommodation: the date and the slots' labels are local to it. */
  timeZone: string;
  slots: SlotView[];
}

/** The slots of the tenant's objects (or some) on one local date: the REST single-date shape. */
export interface DayAvailabilityView {
  date: string;
  objects: ObjectSlotsView[];
  /** The caller's zone (the argument timeZone) the slots' localStart and localEnd are in; null: none asked. */
  callerTimeZone: string | null;
}

/** The slots on each local date of a range: the REST range shape. */
export interface AvailabilityRangeView {
  from: string;
  to: string;
  days: DayAvailabilityView[];
  /** The caller's zone (the argument timeZone); null: none asked. */
  callerTimeZone: string | null;
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
): Promise<DayAvailabilityView> {
  const [day] = await availabilityOnDates(db, tenantId, now, [query.date], query, schedules);
  if (!day) throw new Error('one date asked, no day answered');
  return day;
}

/**
 * The same on each local date from `from` to `to` (the parsed range's `dates`, in order), with the
 * same statements: one for every date together, whatever the number of dates, objects or bookings.
 * Each date's slots follow its own local day in the object's zone, so a day with a DST change has
 * the slots of a 23- or 25-hour day, as on the single-date form.
 */
export async function availabilityBetween(
  db: Executor,
  tenantId: string,
  now: Date,
  query: Omit<AvailabilityRangeQuery, 'from' | 'to'> & { dates: readonly string[] },
  schedules: ScheduleSource = memoized(computeSchedule),
): Promise<AvailabilityRangeView> {
  const from = query.dates[0];
  const to = query.dates.at(-1);
  if (from === undefined || to === undefined) throw new Error('a range of no dates');
  return {
    from,
    to,
    days: await availabilityOnDates(db, tenantId, now, query.dates, query, schedules),
    callerTimeZone: query.timeZone ?? null,
  };
}

async function availabilityOnDates(
  db: Executor,
  tenantId: string,
  now: Date,
  dates: readonly string[],
  filter: { objectId?: string | null; accommodationId?: string | null; timeZone?: string | null },
  schedules: ScheduleSource,
): Promise<DayAvailabilityView[]> {
  const from = dates[0];
  const to = dates.at(-1);
  if (from === undefined || to === undefined) return [];
  let rows = await repo.availabilityRows(db, tenantId, from, to, {
    objectId: filter.objectId ?? undefined,
    accommodationId: filter.accommodationId ?? undefined,
  });
  if (filter.objectId != null) {
    if (rows.length === 0) throw notFound('Object', filter.objectId);
    if (filter.accommodationId != null) rows = rows.filter((o) => o.accommodation_id === filter.accommodationId);
  } else if (
    rows.length === 0 &&
    filter.accommodationId != null &&
    !(await catalog.findAccommodation(db, tenantId, filter.accommodationId))
  ) {
    throw notFound('Accommodation', filter.accommodationId);
  }
  // The latest start the rules allow depends on the zone and maxAdvanceDays only: once per pair.
  const latest = new Map<string, number>();
  const objects = rows.map((object) => {
    const zone = object.time_zone;
    const latestKey = `${zone}|${object.max_advance_days}`;
    let latestMs = latest.get(latestKey);
    if (latestMs === undefined)
      latest.set(latestKey, (latestMs = latestStart(now, zone, object.max_advance_days).getTime()));
    return {
      object,
      latestMs,
      specialDates: object.special ?? [],
      blocked: (object.blocked ?? []).map(([start, until]) => ({ start: new Date(start), until: new Date(until) })),
    };
  });
  const callerZone = filter.timeZone ?? null;
  return dates.map((date) => ({
    date,
    objects: objects.map(({ object, latestMs, specialDates, blocked }) => ({
      objectId: object.id,
      objectName: object.name,
      timeZone: object.time_zone,
      slots: daySlots({
        zone: object.time_zone,
        date,
        weekly: object.opening_hours,
        specialDates,
        rules: {
          slotIncrementMinutes: object.slot_increment_minutes,
          minAdvanceMinutes: object.min_advance_minutes,
          maxAdvanceDays: object.max_advance_days,
          bufferMinutes: object.buffer_minutes,
        },
        blocked,
        now,
        schedules,
        latestMs,
        callerZone,
      }),
    })),
    callerTimeZone: callerZone,
  }));
}

/**
 * The starts on a local date where one object could take a booking `durationMinutes` long now
 * (freeStarts), with its zone; `exceptBookingId`'s own time does not count as taken (a booking being
 * moved). An unknown object is 404.
 */
export async function freeStartsOn(
  db: Executor,
  tenantId: string,
  now: Date,
  query: { objectId: string; date: string; durationMinutes: number; exceptBookingId?: string },
): Promise<{ timeZone: string; starts: FreeStart[] }> {
  const [object] = await repo.availabilityRows(db, tenantId, query.date, query.date, {
    objectId: query.objectId,
    exceptBookingId: query.exceptBookingId,
  });
  if (!object) throw notFound('Object', query.objectId);
  return {
    timeZone: object.time_zone,
    starts: freeStarts({
      zone: object.time_zone,
      date: query.date,
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
      durationMinutes: query.durationMinutes,
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
