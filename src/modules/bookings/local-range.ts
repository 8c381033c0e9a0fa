import { DateTime } from 'luxon';

/** A booking's time as a guest reads it: its day and hours in the venue's zone, e.g. "Saturday 21 November 2026, 10:00–12:00 (Europe/Berlin)". */
export function localRange(start: Date, end: Date, zone: string): string {
  const s = DateTime.fromJSDate(start, { zone }).setLocale('en-GB');
  const e = DateTime.fromJSDate(end, { zone }).setLocale('en-GB');
  const day = 'cccc d LLLL yyyy';
  const endText = s.hasSame(e, 'day') ? e.toFormat('HH:mm') : e.toFormat(`${day}, HH:mm`);
  return `${s.toFormat(`${day}, HH:mm`)}–${endText} (${zone})`;
}
