import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

// The one phone normaliser (bookings, the booking page, customers, the SMS sender). A guest's
// number as they type it — international (+49 30 1234567, 0049…) or local (030 1234567) — to
// E.164 (+49301234567), which SMS needs. A local number is read in the venue's country: the country
// of its accommodation's time zone (docs/booking-page.md, "Phone numbers"). libphonenumber's full
// ("max") metadata, so a number's validity is its real numbering plan's, not only its length.

/** Time zones → the country whose local numbers a venue there gets (ISO 3166-1 alpha-2). */
const COUNTRY_OF_ZONE: Readonly<Record<string, CountryCode>> = {
  'Europe/Berlin': 'DE',
  'Europe/Busingen': 'DE',
  'Europe/Vienna': 'AT',
  'Europe/Zurich': 'CH',
  'Europe/Vaduz': 'LI',
  'Europe/Luxembourg': 'LU',
  'Europe/Amsterdam': 'NL',
  'Europe/Brussels': 'BE',
  'Europe/Paris': 'FR',
  'Europe/Monaco': 'MC',
  'Europe/Madrid': 'ES',
  'Europe/Lisbon': 'PT',
  'Europe/Rome': 'IT',
  'Europe/London': 'GB',
  'Europe/Dublin': 'IE',
  'Europe/Copenhagen': 'DK',
  'Europe/Oslo': 'NO',
  'Europe/Stockholm': 'SE',
  'Europe/Helsinki': 'FI',
  'Europe/Warsaw': 'PL',
  'Europe/Prague': 'CZ',
  'Europe/Bratislava': 'SK',
  'Europe/Budapest': 'HU',
  'Europe/Ljubljana': 'SI',
  'Europe/Zagreb': 'HR',
  'Europe/Athens': 'GR',
  'Europe/Bucharest': 'RO',
  'Europe/Sofia': 'BG',
  'Europe/Tallinn': 'EE',
  'Europe/Riga': 'LV',
  'Europe/Vilnius': 'LT',
  'Europe/Istanbul': 'TR',
  'America/New_York': 'US',
  'America/Chicago': 'US',
  'America/Denver': 'US',
  'America/Los_Angeles': 'US',
  'America/Toronto': 'CA',
  'America/Vancouver': 'CA',
  'Australia/Sydney': 'AU',
  'Australia/Melbourne': 'AU',
  'Pacific/Auckland': 'NZ',
  'Asia/Tokyo': 'JP',
  'Asia/Singapore': 'SG',
};

/** The country local phone numbers are read in at a venue in `timeZone`; undefined: only international numbers. */
export function countryOfTimeZone(timeZone: string): CountryCode | undefined {
  return COUNTRY_OF_ZONE[timeZone];
}

/** Whether libphonenumber knows `code` (ISO 3166-1 alpha-2, either case) as a country to read local numbers in. */
export function isPhoneCountry(code: string): boolean {
  return isSupportedCountry(code.toUpperCase());
}

export type PhoneRefusal = 'invalid' | 'needs_country_code' | 'unknown_country';
export type PhoneResult = { ok: true; e164: string } | { ok: false; reason: PhoneRefusal; message: string };

/** E.164's shape: + and 7 to 15 digits, the first not 0. */
const E164 = /^\+[1-9][0-9]{6,14}$/;

const refused = (reason: PhoneRefusal, message: string): PhoneResult => ({ ok: false, reason, message });

/**
 * `raw` in E.164, reading a number without a country code in `country` (ISO 3166-1 alpha-2, either
 * case; none: only international numbers). A refusal says why, in words a field error can carry.
 */
export function normalisePhone(raw: string, country?: string | null): PhoneResult {
  const text = raw.trim().replace(/^00(?=[1-9])/, '+');
  const code = country ? country.toUpperCase() : undefined;
  if (code !== undefined && !isSupportedCountry(code))
    return refused('unknown_country', `is not a country code libphonenumber knows: ${country ?? ''}`);
  if (text.length === 0 || text.length > 40) return refused('invalid', 'is not a phone number');
  if (!text.startsWith('+') && code === undefined)
    return refused(
      'needs_country_code',
      'is not a valid international phone number: write it with its country code (+49 …) or give its country',
    );
  const parsed = parsePhoneNumberFromString(text, code);
  // E.164 allows 15 digits at most; libphonenumber's plan has a few longer (German) ranges.
  if (!parsed?.isValid() || !E164.test(parsed.number))
    return refused(
      'invalid',
      code === undefined
        ? 'is not a valid international phone number'
        : `is not a valid phone number of ${code} or an international one (+…)`,
    );
  return { ok: true, e164: parsed.number };
}

/**
 * A stored phone (a booking's guestPhone carries its country code, with separators) in E.164, or
 * null when it is not an international number. One libphonenumber does not know yet (a new range)
 * still has an E.164 form when it has one's shape (+ and 7 to 15 digits), so an SMS can be tried.
 */
export function e164(phone: string | null | undefined): string | null {
  if (phone == null) return null;
  const checked = normalisePhone(phone);
  if (checked.ok) return checked.e164;
  const text = phone.trim().replace(/^00(?=[1-9])/, '+');
  if (!text.startsWith('+') || text.length > 40) return null;
  const digits = `+${text.slice(1).replace(/[\s().\-/]/g, '')}`;
  return E164.test(digits) ? digits : null;
}
