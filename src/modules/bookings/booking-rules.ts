import { DateTime } from 'luxon';
import { zoneNamed } from '../../kernel/time-zones.js';
import type { ObjectRow } from '../../kernel/db/types.js';
import type { FieldError } from '../../kernel/errors.js';
import {
  earliestStart,
  latestStart,
  localDateOf,
  localTimeLabel,
  openingOn,
  openingWindow,
  type SpecialDay,
} from '../availability/index.js';

// The time-range rules a new booking must satisfy, as one pure function shared by booking creation
// and the price preview. Wall-clock values are read in the accommodation's zone (Luxon), so the
// result does not depend on the machine's TZ.

export type BookingRuleCode =
  | 'invalid_time_range'
  | 'duration_out_of_range'
  | 'closed_date'
  | 'outside_opening_hours'
  | 'start_not_aligned'
  | 'too_short_notice'
  | 'too_far_ahead';

/** A field error that also names the rule it breaks. */
export interface BookingRuleError extends FieldError {
  code: BookingRuleCode;
}

export type BookingWindowObject = Pick<
  ObjectRow,
  | 'opening_hours'
  | 'min_duration_minutes'
  | 'max_duration_minutes'
  | 'slot_increment_minutes'
  | 'min_advance_minutes'
  | 'max_advance_days'
>;

const MINUTE = 60_000;

function localStamp(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone: zoneNamed(zone) }).toFormat('yyyy-MM-dd HH:mm ZZ');
}

/**
 * Checks [start, end) against the object's hours and booking rules at `now`; returns every broken
 * rule, in this order: time range, duration, the day's hours (closed special date, closed weekday,
 * before opening, after closing), alignment to the slot grid, minimum notice, maximum advance.
 * A booking lies within the hours of the local date it starts on.
 */
export function validateBookingWindow(
  object: BookingWindowObject,
  timeZone: string,
  specialDates: readonly SpecialDay[],
  start: Date,
  end: Date,
  now: Date,
): BookingRuleError[] {
  if (!(start.getTime() < end.getTime())) {
    return [{ field: 'endTime', code: 'invalid_time_range', message: 'must be later than startTime' }];
  }
  const errors: BookingRuleError[] = [];
  const minutes = (end.getTime() - start.getTime()) / MINUTE;
  const { min_duration_minutes: min, max_duration_minutes: max } = object;
  if (!Number.isInteger(minutes)) {
    errors.push({
      field: 'endTime',
      code: 'duration_out_of_range',
      message: 'the booking must last a whole number of minutes',
    });
  } else if (minutes < min || minutes > max) {
    errors.push({
      field: 'endTime',
      code: 'duration_out_of_range',
      message: `the booking lasts ${minutes} minutes; it must last from ${min} to ${max} minutes`,
    });
  }

  const date = localDateOf(start, timeZone);
  const opening = openingOn(object.opening_hours, specialDates, date);
  if (!opening.open && opening.closedBy === 'special_date') {
    errors.push({
      field: 'startTime',
      code: 'closed_date',
      message: `the object is closed on ${date}${opening.reason ? ` (${opening.reason})` : ''}`,
    });
  } else if (!opening.open) {
    errors.push({
      field: 'startTime',
      code: 'outside_opening_hours',
      message: `the object is closed on ${opening.weekday}s (${date}, ${timeZone})`,
    });
  } else {
    const window = openingWindow(timeZone, date, opening.hours);
    const hours = `${opening.hours.open}–${opening.hours.close} on ${date} (${timeZone})`;
    const startsInside = start.getTime() >= window.start.getTime() && start.getTime() < window.end.getTime();
    if (start.getTime() < window.start.getTime()) {
      errors.push({
        field: 'startTime',
        code: 'outside_opening_hours',
        message: `${localStamp(start, timeZone)} is before opening; the object is open ${hours}`,
      });
    } else if (!startsInside) {
      errors.push({
        field: 'startTime',
        code: 'outside_opening_hours',
        message: `${localStamp(start, timeZone)} is not before closing; the object is open ${hours}`,
      });
    } else if (end.getTime() > window.end.getTime()) {
      errors.push({
        field: 'endTime',
        code: 'outside_opening_hours',
        message: `${localStamp(end, timeZone)} is after closing; the object is open ${hours}`,
      });
    }
    const step = object.slot_increment_minutes * MINUTE;
    if (startsInside && (start.getTime() - window.start.getTime()) % step !== 0) {
      const before = new Date(
        window.start.getTime() + Math.floor((start.getTime() - window.start.getTime()) / step) * step,
      );
      const after = new Date(before.getTime() + step);
      errors.push({
        field: 'startTime',
        code: 'start_not_aligned',
        message: `must start on the ${object.slot_increment_minutes}-minute grid from opening (${opening.hours.open}), e.g. ${localTimeLabel(before, timeZone, date)} or ${localTimeLabel(after, timeZone, date)}`,
      });
    }
  }

  const earliest = earliestStart(now, object.min_advance_minutes);
  if (start.getTime() < earliest.getTime()) {
    errors.push({
      field: 'startTime',
      code: 'too_short_notice',
      message:
        object.min_advance_minutes === 0
          ? 'must not be in the past'
          : `must be at least ${object.min_advance_minutes} minutes from now (not before ${earliest.toISOString()})`,
    });
  }
  const latest = latestStart(now, timeZone, object.max_advance_days);
  if (start.getTime() > latest.getTime()) {
    errors.push({
      field: 'startTime',
      code: 'too_far_ahead',
      message: `must be at most ${object.max_advance_days} days ahead (not after ${latest.toISOString()})`,
    });
  }
  return errors;
}
