import { DateTime } from 'luxon';

// Pure helpers of the calendar: local dates and minutes in the venue's zone, the rows of the day
// grid, and turning API messages into the form's words.

/** Minutes since local midnight of an "HH:MM" (24:00 is 1440). */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** "HH:MM" of minutes since midnight. */
export function hhmmOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The local dates (YYYY-MM-DD) a view shows: one day, or the Monday-to-Sunday week around it. */
export function datesOf(date: string, view: 'day' | 'week'): string[] {
  const day = DateTime.fromISO(date);
  if (view === 'day') return [date];
  const monday = day.minus({ days: day.weekday - 1 });
  return Array.from({ length: 7 }, (_, i) => monday.plus({ days: i }).toISODate() ?? date);
}

/** The instant a local date and time in a zone stand for, as ISO with offset. */
export function instantOf(date: string, hhmm: string, zone: string): string {
  const minutes = minutesOf(hhmm);
  const value = DateTime.fromISO(date, { zone }).startOf('day').plus({ minutes });
  return value.toISO() ?? '';
}

/** A booking's local date and minutes in a zone. */
export function localOf(iso: string, zone: string): { date: string; minutes: number; hhmm: string } {
  const t = DateTime.fromISO(iso, { zone });
  return { date: t.toISODate() ?? '', minutes: t.hour * 60 + t.minute, hhmm: t.toFormat('HH:mm') };
}

/** Start and end of a local period in a zone, as instants (the bookings query's from/to). */
export function periodOf(dates: string[], zone: string): { from: string; to: string } {
  const first = DateTime.fromISO(dates[0] ?? '', { zone }).startOf('day');
  const last = DateTime.fromISO(dates.at(-1) ?? '', { zone })
    .startOf('day')
    .plus({ days: 1 });
  return { from: first.toISO() ?? '', to: last.toISO() ?? '' };
}

/** A readable local date, e.g. "Fri 27 Nov". */
export const dayLabel = (date: string): string => DateTime.fromISO(date).toFormat('ccc d LLL');
/** A long local date, e.g. "Friday 27 November 2026". */
export const longDayLabel = (date: string): string => DateTime.fromISO(date).toFormat('cccc d LLLL yyyy');

/** The date a step away from `date` (by a day or a week). */
export const stepDate = (date: string, view: 'day' | 'week', direction: 1 | -1): string =>
  DateTime.fromISO(date)
    .plus(view === 'day' ? { days: direction } : { weeks: direction })
    .toISODate() ?? date;

/** Today's local date in a zone. */
export const todayIn = (zone: string): string => DateTime.now().setZone(zone).toISODate() ?? '';

/**
 * An API message in the form's words: field names become the form's labels and UTC timestamps the
 * venue's local time (e.g. "not after 2026-12-27T10:00:00.000Z" → "not after 27 Dec 2026, 11:00").
 */
export function inFormWords(message: string, zone: string): string {
  return message
    .replace(/\bstartTime\b/g, 'the start')
    .replace(/\bendTime\b/g, 'the end')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) => {
      const t = DateTime.fromISO(iso, { zone });
      return t.isValid ? t.toFormat('d LLL yyyy, HH:mm') : iso;
    });
}

/** A fresh Idempotency-Key (one per form). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
