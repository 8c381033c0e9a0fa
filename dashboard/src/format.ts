import { DateTime } from 'luxon';

/** Cents as money, e.g. 4500 EUR → €45.00. */
export function money(cents: number, currency = 'EUR'): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(cents / 100);
}

// One time-zone rule (#24): venue times (bookings, door checks) in the venue's zone, account
// times (keys, audit, webhooks) in the browser's; every time says which zone it is in.

/** The zone's short name at that moment, e.g. CET, GMT+1, or the IANA name when it has none. */
export function zoneLabel(value: DateTime): string {
  return value.toFormat('ZZZZ') || value.zoneName || '';
}

/** A timestamp in a time zone (the accommodation's, else the browser's), e.g. 23 Nov 2026, 18:00 CET. */
export function dateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const value = DateTime.fromISO(iso, { zone: timeZone ?? 'local' });
  return value.isValid ? `${value.toFormat('d LLL yyyy, HH:mm')} ${zoneLabel(value)}` : iso;
}

/** The local time range of a booking, e.g. 23 Nov 2026, 18:00–19:30 CET. */
export function timeRange(startIso: string, endIso: string, timeZone?: string): string {
  const start = DateTime.fromISO(startIso, { zone: timeZone ?? 'local' });
  const end = DateTime.fromISO(endIso, { zone: timeZone ?? 'local' });
  if (!start.isValid || !end.isValid) return `${startIso} – ${endIso}`;
  const sameDay = start.hasSame(end, 'day');
  return `${start.toFormat('d LLL yyyy, HH:mm')}–${end.toFormat(sameDay ? 'HH:mm' : 'd LLL yyyy, HH:mm')} ${zoneLabel(end)}`;
}

/** The zone the browser shows account times in, e.g. Europe/London. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** "3 min ago" style, for heartbeats and last activity. */
export function relative(iso: string | null | undefined): string {
  if (!iso) return 'never';
  return DateTime.fromISO(iso).toRelative() ?? iso;
}

/** Start and end of today in a time zone, as ISO timestamps with offset. */
export function todayIn(timeZone: string): { from: string; to: string; label: string } {
  const now = DateTime.now().setZone(timeZone);
  const start = now.startOf('day');
  return { from: start.toISO() ?? '', to: start.plus({ days: 1 }).toISO() ?? '', label: start.toFormat('cccc d LLLL') };
}

/** A local date and time input value (yyyy-MM-ddTHH:mm) in a zone, as an ISO timestamp. */
export function localInputToIso(value: string, timeZone?: string): string | null {
  const parsed = DateTime.fromISO(value, { zone: timeZone ?? 'local' });
  return parsed.isValid ? parsed.toISO() : null;
}

export function titleCase(value: string): string {
  const lower = value.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
