import { DateTime } from 'luxon';
import { zoneNamed } from '../../kernel/time-zones.js';
import { slotTimes, wallClockInstant, type SlotTimes } from './instants.js';
import type { DayHours, Weekday, WeeklySchedule } from '../../kernel/db/types.js';

// Pure slot computation. Every wall-clock value is read in the accommodation's IANA zone through
// Luxon, and every duration is elapsed time, so results do not depend on the machine's TZ and stay
// right across daylight-saving changes.

export interface SpecialDay {
  date: string;
  closed: boolean;
  reason?: string;
  open: string | null;
  close: string | null;
}

/** How an object is open on one local date. */
export type DayOpening =
  | { open: true; hours: DayHours }
  | { open: false; closedBy: 'special_date'; reason: string }
  | { open: false; closedBy: 'weekday'; weekday: Weekday };

const WEEKDAY_OF_LUXON: Record<number, Weekday> = {
  1: 'monday',
  2: 'tuesday',
  3: 'wednesday',
  4: 'thursday',
  5: 'friday',
  6: 'saturday',
  7: 'sunday',
};

const MINUTE = 60_000;

const WEEKDAY_OF_UTC_DAY: readonly Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

/** The weekday name of a local date YYYY-MM-DD (calendar arithmetic, no zone involved). */
export function weekdayOf(date: string): Weekday {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  const weekday = Number.isNaN(day)
    ? WEEKDAY_OF_LUXON[DateTime.fromISO(date, { zone: 'UTC' }).weekday]
    : WEEKDAY_OF_UTC_DAY[day];
  if (weekday === undefined) throw new RangeError(`${date} is not a calendar date`);
  return weekday;
}

/** The local date (YYYY-MM-DD) of an instant in `zone`. */
export function localDateOf(instant: Date, zone: string): string {
  // The zone's offset at that instant (remembered per minute, src/kernel/time-zones.ts) moves the instant
  // to local wall-clock time; reading its UTC fields then needs no Luxon DateTime.
  const named = zoneNamed(zone);
  if (typeof named !== 'string') {
    const local = new Date(instant.getTime() + named.offset(instant.getTime()) * MINUTE);
    const year = local.getUTCFullYear();
    if (year >= 1 && year <= 9999) return local.toISOString().slice(0, 10);
  }
  const date = DateTime.fromJSDate(instant, { zone: named }).toISODate();
  if (date === null) throw new RangeError(`no local date for ${instant.toISOString()} in ${zone}`);
  return date;
}

/**
 * The hours of a local date: a closed special date closes it; a special date with open and close
 * replaces the weekday's hours; otherwise the weekly schedule applies (a missing weekday is closed).
 */
export function openingOn(weekly: WeeklySchedule, specialDates: readonly SpecialDay[], date: string): DayOpening {
  const special = specialDates.find((d) => d.date === date);
  if (special?.closed) return { open: false, closedBy: 'special_date', reason: special.reason ?? '' };
  if (special?.open && special.close) return { open: true, hours: { open: special.open, close: special.close } };
  const weekday = weekdayOf(date);
  const hours = weekly[weekday];
  return hours ? { open: true, hours } : { open: false, closedBy: 'weekday', weekday };
}

export interface Window {
  start: Date;
  end: Date;
}

/** The instants a local date's hours span in `zone` ('24:00' is the next local midnight). */
export function openingWindow(zone: string, date: string, hours: DayHours): Window {
  return { start: wallClockInstant(zone, date, hours.open), end: wallClockInstant(zone, date, hours.close) };
}

/**
 * Slots from opening to closing in steps of `incrementMinutes` of elapsed time, each that long; a
 * remainder shorter than one step is no slot. On a day whose hours contain a DST change the slots
 * stay one step long, so their local labels skip (spring) or repeat (autumn) an hour.
 */
export function slotsOf(window: Window, incrementMinutes: number): Window[] {
  const step = incrementMinutes * MINUTE;
  const slots: Window[] = [];
  for (let t = window.start.getTime(); t + step <= window.end.getTime(); t += step) {
    slots.push({ start: new Date(t), end: new Date(t + step) });
  }
  return slots;
}

/** Local wall-clock HH:MM of an instant; the next local midnight after `date` reads 24:00. */
export function localTimeLabel(instant: Date, zone: string, date: string): string {
  const local = DateTime.fromJSDate(instant, { zone: zoneNamed(zone) });
  const label = local.toFormat('HH:mm');
  return label === '00:00' && (local.toISODate() ?? '') > date ? '24:00' : label;
}

/** The earliest start the booking rules allow at `now`: now + minAdvanceMinutes. */
export function earliestStart(now: Date, minAdvanceMinutes: number): Date {
  return new Date(now.getTime() + minAdvanceMinutes * MINUTE);
}

/** The latest start the booking rules allow at `now`: maxAdvanceDays local calendar days ahead. */
export function latestStart(now: Date, zone: string, maxAdvanceDays: number): Date {
  return DateTime.fromJSDate(now, { zone: zoneNamed(zone) })
    .plus({ days: maxAdvanceDays })
    .toJSDate();
}

/** A PENDING or CONFIRMED booking's blocked range: [start, end + its buffer). */
export interface BlockedRange {
  start: Date;
  until: Date;
}

export interface SlotRules {
  slotIncrementMinutes: number;
  minAdvanceMinutes: number;
  maxAdvanceDays: number;
  bufferMinutes: number;
}

/** A slot of an answer: its local labels in the accommodation's zone, availability, instants and caller-zone times. */
export interface SlotView extends SlotTimes {
  start: string;
  end: string;
  available: boolean;
}

export interface DaySlotsInput {
  zone: string;
  date: string;
  weekly: WeeklySchedule;
  specialDates: readonly SpecialDay[];
  rules: SlotRules;
  /** Blocked ranges of the object's PENDING and CONFIRMED bookings. */
  blocked: readonly BlockedRange[];
  now: Date;
  /** Where the day's slot grid comes from (a cache shared across objects and requests); computed when absent. */
  schedules?: ScheduleSource;
  /** latestStart(now, zone, maxAdvanceDays), when the caller already holds it (ms). */
  latestMs?: number;
  /** The caller's IANA zone (the argument timeZone): each slot's localStart and localEnd are in it; null: none asked. */
  callerZone?: string | null;
}

/** One slot of a day's grid: its instants (ms since the epoch) and local wall-clock labels. */
export interface ScheduledSlot {
  start: number;
  end: number;
  startLabel: string;
  endLabel: string;
}

/**
 * The slot grid of one local date, labels included: a pure function of the zone, the date, the
 * day's hours and the slot increment. It is most of an availability answer's CPU (every label is a
 * time-zone conversion) and the same for every object that shares those four values.
 */
export function computeSchedule(
  zone: string,
  date: string,
  hours: DayHours,
  incrementMinutes: number,
): ScheduledSlot[] {
  return slotsOf(openingWindow(zone, date, hours), incrementMinutes).map((slot) => ({
    start: slot.start.getTime(),
    end: slot.end.getTime(),
    startLabel: localTimeLabel(slot.start, zone, date),
    endLabel: localTimeLabel(slot.end, zone, date),
  }));
}

/** Where daySlots gets a date's slot grid from. */
export type ScheduleSource = (
  zone: string,
  date: string,
  hours: DayHours,
  incrementMinutes: number,
) => readonly ScheduledSlot[];

/**
 * The slots of one object on one local date. A slot is unavailable when a booking of exactly that
 * slot would be refused: its range plus the object's buffer overlaps a blocked range (the exclusion
 * constraint's rule), it starts before now + minAdvance, or it starts beyond maxAdvanceDays.
 */
export function daySlots(input: DaySlotsInput): SlotView[] {
  const opening = openingOn(input.weekly, input.specialDates, input.date);
  if (!opening.open) return [];
  const schedule = (input.schedules ?? computeSchedule)(
    input.zone,
    input.date,
    opening.hours,
    input.rules.slotIncrementMinutes,
  );
  const earliest = earliestStart(input.now, input.rules.minAdvanceMinutes).getTime();
  const latest = input.latestMs ?? latestStart(input.now, input.zone, input.rules.maxAdvanceDays).getTime();
  const buffer = input.rules.bufferMinutes * MINUTE;
  const blocked = input.blocked.map((b) => ({ start: b.start.getTime(), until: b.until.getTime() }));
  return schedule.map((slot) => {
    const start = slot.start;
    const blockedUntil = slot.end + buffer;
    const overlaps = blocked.some((b) => start < b.until && b.start < blockedUntil);
    return {
      start: slot.startLabel,
      end: slot.endLabel,
      available: !overlaps && start >= earliest && start <= latest,
      ...slotTimes(slot, input.callerZone),
    };
  });
}

/** A start a booking of a given length could take: its instants and local wall-clock labels. */
export interface FreeStart {
  start: Date;
  end: Date;
  startLabel: string;
  endLabel: string;
}

/**
 * The starts on one object's slot grid of a local date where a booking `durationMinutes` long would
 * be accepted now: it ends by the day's closing, it and the object's buffer after it meet no blocked
 * range, and it starts within the advance limits (the booking rules creation and reschedules check).
 * Used to offer a guest the times their booking may move to.
 */
export function freeStarts(input: DaySlotsInput & { durationMinutes: number }): FreeStart[] {
  const opening = openingOn(input.weekly, input.specialDates, input.date);
  if (!opening.open) return [];
  const window = openingWindow(input.zone, input.date, opening.hours);
  const schedule = (input.schedules ?? computeSchedule)(
    input.zone,
    input.date,
    opening.hours,
    input.rules.slotIncrementMinutes,
  );
  const earliest = earliestStart(input.now, input.rules.minAdvanceMinutes).getTime();
  const latest = input.latestMs ?? latestStart(input.now, input.zone, input.rules.maxAdvanceDays).getTime();
  const length = input.durationMinutes * MINUTE;
  const buffer = input.rules.bufferMinutes * MINUTE;
  const blocked = input.blocked.map((b) => ({ start: b.start.getTime(), until: b.until.getTime() }));
  const starts: FreeStart[] = [];
  for (const slot of schedule) {
    const start = slot.start;
    const end = start + length;
    if (end > window.end.getTime() || start < earliest || start > latest) continue;
    if (blocked.some((b) => start < b.until && b.start < end + buffer)) continue;
    const endDate = new Date(end);
    starts.push({
      start: new Date(start),
      end: endDate,
      startLabel: slot.startLabel,
      endLabel: localTimeLabel(endDate, input.zone, input.date),
    });
  }
  return starts;
}
