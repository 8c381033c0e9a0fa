import { DateTime } from 'luxon';
import { zoneNamed } from '../../kernel/time-zones.js';

// Pure time conversion of availability (issue #44): a local wall-clock time of a date in a zone to
// its instant, and an instant to the local date and time of another zone. Luxon reads every zone's
// rules, so a 23- or 25-hour day (a DST change) and offsets that are no whole hours (Asia/Kolkata,
// +05:30) come out right whatever the machine's TZ.

/**
 * The instant of `time` (HH:MM) on the local `date` (YYYY-MM-DD) in `zone`; '24:00' is the next
 * local midnight (which lies 23 or 25 hours after this one on a DST day). A time the spring-forward
 * change skips moves forward by the gap (02:30 in Berlin on its spring day is 03:30 CEST), and a time
 * the fall-back change repeats is read in the offset after the change (Berlin's 02:30 on its autumn
 * day is 02:30 CET, 01:30Z), as Luxon reads it. Opening hours are read this way (openingWindow).
 */
export function wallClockInstant(zone: string, date: string, time: string): Date {
  const named = zoneNamed(zone);
  const at =
    time === '24:00'
      ? DateTime.fromISO(date, { zone: named }).plus({ days: 1 }).startOf('day')
      : DateTime.fromISO(`${date}T${time}`, { zone: named });
  if (!at.isValid) throw new RangeError(`no instant for ${date} ${time} in ${zone}: ${at.invalidExplanation ?? ''}`);
  return at.toJSDate();
}

/** An instant (ms since the epoch) as ISO 8601 in UTC, as the DateTime scalar writes it: 2026-03-29T01:00:00.000Z. */
export const utcInstant = (ms: number): string => new Date(ms).toISOString();

/**
 * An instant (ms since the epoch) as the local date and time of `zone` with that zone's offset at
 * the instant, seconds included and milliseconds left out: 2026-03-29T03:00:00+02:00 (+00:00 in UTC).
 */
export function localDateTimeIn(ms: number, zone: string): string {
  const local = DateTime.fromMillis(ms, { zone: zoneNamed(zone) });
  const text = local.isValid ? local.toISO({ suppressMilliseconds: true }) : null;
  if (text === null) throw new RangeError(`no local time for ${utcInstant(ms)} in ${zone}`);
  return text;
}

/** The times of a slot the answer carries besides its local labels. */
export interface SlotTimes {
  /** The start instant, ISO 8601 UTC. */
  startTime: string;
  /** The end instant, ISO 8601 UTC. */
  endTime: string;
  /** The start in the caller's zone (localDateTimeIn), or null when the caller named none. */
  localStart: string | null;
  /** The end in the caller's zone, or null when the caller named none. */
  localEnd: string | null;
}

/** A slot's instants, and with `callerZone` its local date and time there (both ends). */
export function slotTimes(slot: { start: number; end: number }, callerZone: string | null | undefined): SlotTimes {
  return {
    startTime: utcInstant(slot.start),
    endTime: utcInstant(slot.end),
    localStart: callerZone ? localDateTimeIn(slot.start, callerZone) : null,
    localEnd: callerZone ? localDateTimeIn(slot.end, callerZone) : null,
  };
}
