import { DateTime } from 'luxon';
import { intlTag, type Locale } from '../../kernel/i18n.js';

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

const toZone = (at: Date | string, timeZone: string): DateTime =>
  typeof at === 'string' ? DateTime.fromISO(at, { zone: timeZone }) : DateTime.fromJSDate(at, { zone: timeZone });

/**
 * How a date and time are written in each language: "Sat 21 Nov 2026, 10:00", "Sa., 21. November
 * 2026, 10:00" (Luxon's German weekday abbreviations are two letters without the full stop).
 */
const DATE_TIME: Record<Locale, string> = { en: 'ccc d LLL yyyy, HH:mm', de: "ccc'.', d. LLLL yyyy, HH:mm" };
/** The same, shorter, for text messages: "Sat 21 Nov 10:00", "Sa. 21.11. 10:00". */
const SMS_DATE_TIME: Record<Locale, string> = { en: 'ccc d LLL HH:mm', de: "ccc'.' d.M. HH:mm" };

/** A local time, e.g. "Sat 21 Nov 2026, 10:00" (German: "Sa., 21. November 2026, 10:00"). */
export function localTime(at: Date | string, timeZone: string, locale: Locale = 'en'): string {
  return toZone(at, timeZone).setLocale(intlTag(locale)).toFormat(DATE_TIME[locale]);
}

/**
 * A local range: "Sat 21 Nov 2026, 10:00–11:30 (Europe/Berlin)", the end's date only when it
 * differs; German "Sa., 21. November 2026, 10:00–11:30 (Europe/Berlin)".
 */
export function localRange(start: Date | string, end: Date | string, timeZone: string, locale: Locale = 'en'): string {
  const from = toZone(start, timeZone).setLocale(intlTag(locale));
  const until = toZone(end, timeZone).setLocale(intlTag(locale));
  const untilText = from.hasSame(until, 'day') ? until.toFormat('HH:mm') : until.toFormat(DATE_TIME[locale]);
  return `${from.toFormat(DATE_TIME[locale])}–${untilText} (${timeZone})`;
}

/**
 * A local range for a text message: short, and only characters of the GSM 7-bit alphabet (a plain
 * hyphen, no zone), so a message stays in few segments: "Sat 21 Nov 10:00-11:30", "Sa. 21.11. 10:00-11:30".
 */
export function smsRange(start: Date | string, end: Date | string, timeZone: string, locale: Locale): string {
  const from = toZone(start, timeZone).setLocale(intlTag(locale));
  const until = toZone(end, timeZone).setLocale(intlTag(locale));
  const untilText = from.hasSame(until, 'day') ? until.toFormat('HH:mm') : until.toFormat(SMS_DATE_TIME[locale]);
  return `${from.toFormat(SMS_DATE_TIME[locale])}-${untilText}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** Minor units as money in the guest's language: 3000 EUR → "€30.00" (en), "30,00 €" (de). */
export function money(minor: number, currency: string, locale: Locale = 'en'): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  // Intl writes a no-break space in "30,00 €": a plain one reads the same and is GSM 7-bit in an SMS.
  return format.format(minor / 100).replace(/[\u00a0\u202f]/g, ' ');
}

/** A VAT rate in basis points as a percentage: 1900 → "19%" (en), "19 %" (de); 770 → "7.7%". */
export function vatRate(basisPoints: number, locale: Locale): string {
  return new Intl.NumberFormat(intlTag(locale), { style: 'percent', maximumFractionDigits: 2 })
    .format(basisPoints / 10_000)
    .replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * The VAT included in a gross amount (cents) at a rate in basis points: amount × rate / (1 + rate),
 * rounded to the cent (half away from zero). 1900 on 11900 is 1900; 1900 on 1000 is 160 (159.66).
 */
export function vatIncluded(amount: number, basisPoints: number): number {
  if (basisPoints <= 0 || amount === 0) return 0;
  return Math.sign(amount) * Math.round((Math.abs(amount) * basisPoints) / (10_000 + basisPoints));
}

// GSM 03.38: the basic set (one septet each) and the extension table (two: an escape and the character).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

/**
 * How many SMS segments a text takes: GSM 7-bit when every character is in GSM 03.38 (160 septets
 * alone, 153 per segment when concatenated; an extension character counts two), else UCS-2 (70
 * UTF-16 units alone, 67 per segment).
 */
export function smsSegments(text: string): { encoding: 'gsm7' | 'ucs2'; units: number; segments: number } {
  let septets = 0;
  let gsm = true;
  for (const c of text) {
    if (GSM_BASIC.includes(c)) septets += 1;
    else if (GSM_EXTENDED.includes(c)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'gsm7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  const units = text.length;
  return { encoding: 'ucs2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** A name shortened to `max` characters for a text message (an ellipsis of three full stops, GSM 7-bit). */
export function smsName(value: string, max: number): string {
  const clean = headerSafe(value);
  // By code point (Array.from), so a name is never cut inside a surrogate pair.
  const chars = Array.from(clean);
  return chars.length <= max
    ? clean
    : `${chars
        .slice(0, max - 3)
        .join('')
        .trimEnd()}...`;
}

/**
 * Test mails a tenant may send an hour (sendTestNotificationEmail, to any address): enough to try
 * a setting a few times, too few to relay mail through Portier's SMTP account.
 */
export const TEST_EMAILS_PER_HOUR = 5;
