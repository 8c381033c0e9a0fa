import { DateTime } from 'luxon';
import { intlTag, type Locale } from '../../kernel/i18n.js';

const DAY_FORMAT: Record<Locale, string> = { en: 'cccc d LLLL yyyy', de: 'cccc, d. LLLL yyyy' };

/**
 * A booking's time as a guest reads it: its day and hours in the venue's zone, e.g. "Saturday 21
 * November 2026, 10:00–12:00 (Europe/Berlin)" / "Samstag, 21. November 2026, 10:00–12:00 (Europe/Berlin)".
 */
export function localRange(start: Date, end: Date, zone: string, locale: Locale = 'en'): string {
  const s = DateTime.fromJSDate(start, { zone }).setLocale(intlTag(locale));
  const e = DateTime.fromJSDate(end, { zone }).setLocale(intlTag(locale));
  const day = DAY_FORMAT[locale];
  const endText = s.hasSame(e, 'day') ? e.toFormat('HH:mm') : e.toFormat(`${day}, HH:mm`);
  return `${s.toFormat(`${day}, HH:mm`)}–${endText} (${zone})`;
}
