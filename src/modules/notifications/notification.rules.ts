import { DateTime } from 'luxon';

// Pure rules of guest notifications: the retry schedule, the reminder's time, phone numbers and
// what may go into a mail header. Unit-tested in notification.rules.test.ts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * When a failed send is tried again: after 10 s, 1 min, 10 min, 1 h and 6 h. Six attempts in all
 * (about 7 h 11 min), then the notification has failed (docs/notifications.md).
 */
export const NOTIFICATION_RETRY_DELAYS_MS: readonly number[] = [10 * SECOND, MINUTE, 10 * MINUTE, HOUR, 6 * HOUR];
export const MAX_NOTIFICATION_ATTEMPTS = NOTIFICATION_RETRY_DELAYS_MS.length + 1;

/** The next attempt after `attempts` failed ones, or null when the schedule is exhausted. */
export function nextNotificationAttempt(attempts: number, now: Date): Date | null {
  const delay = NOTIFICATION_RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/** The longest reminder lead a tenant may set: 14 days. */
export const MAX_REMINDER_HOURS = 14 * 24;

/**
 * When the reminder of a booking starting at `start` is due, `hours` before it: whole days are
 * counted on the venue's calendar (a 24-hour reminder comes at the same local time the day before,
 * across a DST change too), the remaining hours as elapsed time.
 */
export function reminderDueAt(start: Date, hours: number, timeZone: string): Date {
  const days = Math.floor(hours / 24);
  return DateTime.fromJSDate(start, { zone: timeZone })
    .minus({ days })
    .minus({ hours: hours - days * 24 })
    .toJSDate();
}

/** A phone number as E.164 (+ and 8 to 15 digits), separators removed; undefined when it is not one. */
export function e164(phone: string): string | undefined {
  const compact = phone.replace(/[\s()\-./]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : undefined;
}

/** A header value with every line break and control character replaced by a space (no header injection). */
export function headerSafe(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** True when a setting meant for a header holds a line break or another control character. */
export function hasControlCharacters(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(value);
}

/** Text for an HTML body: the five characters HTML gives meaning to, escaped. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A local time with its zone named, e.g. "Sat 21 Nov 2026, 10:00 (Europe/Berlin)". */
export function localTime(at: Date | string, timeZone: string): string {
  const dt =
    typeof at === 'string' ? DateTime.fromISO(at, { zone: timeZone }) : DateTime.fromJSDate(at, { zone: timeZone });
  return dt.setLocale('en-GB').toFormat('ccc d LLL yyyy, HH:mm');
}

/** A local range: "Sat 21 Nov 2026, 10:00–11:30 (Europe/Berlin)", the end's date only when it differs. */
export function localRange(start: Date | string, end: Date | string, timeZone: string): string {
  const from =
    typeof start === 'string'
      ? DateTime.fromISO(start, { zone: timeZone })
      : DateTime.fromJSDate(start, { zone: timeZone });
  const until =
    typeof end === 'string' ? DateTime.fromISO(end, { zone: timeZone }) : DateTime.fromJSDate(end, { zone: timeZone });
  const untilText = from.hasSame(until, 'day')
    ? until.toFormat('HH:mm')
    : until.setLocale('en-GB').toFormat('ccc d LLL yyyy, HH:mm');
  return `${from.setLocale('en-GB').toFormat('ccc d LLL yyyy, HH:mm')}–${untilText} (${timeZone})`;
}

/** Minor units as money, e.g. 3000 EUR → "EUR 30.00". */
export function money(minor: number, currency: string): string {
  return `${currency} ${(minor / 100).toFixed(2)}`;
}

/**
 * Test mails a tenant may send an hour (sendTestNotificationEmail, to any address): enough to try
 * a setting a few times, too few to relay mail through Portier's SMTP account.
 */
export const TEST_EMAILS_PER_HOUR = 5;
