import { computeSchedule, type ScheduleSource, type ScheduledSlot } from './slots.js';

/**
 * Slot grids (`computeSchedule`), cached by the values they are computed from — zone, local date,
 * the day's hours and the increment — not by object: an edit of an object's hours or increment, a
 * special date or an accommodation's zone changes the key the next request reads, so no entry can be
 * stale and nothing needs invalidating, in this process or in any other. Bounded: past `maxEntries`
 * the oldest entry goes (a grid is at most a few hundred short strings). One per process, built by
 * composeDeps (`deps.slotSchedules`).
 */
export class SlotScheduleCache {
  private readonly entries = new Map<string, readonly ScheduledSlot[]>();

  constructor(private readonly maxEntries = 4096) {}

  readonly get: ScheduleSource = (zone, date, hours, incrementMinutes) => {
    const key = `${zone}|${date}|${hours.open}|${hours.close}|${incrementMinutes}`;
    let schedule = this.entries.get(key);
    if (!schedule) {
      schedule = Object.freeze(computeSchedule(zone, date, hours, incrementMinutes));
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(key, schedule);
    }
    return schedule;
  };

  get size(): number {
    return this.entries.size;
  }
}
