import { DateTime } from 'luxon';

/**
 * The zone the bookings list's date filters are read in: the venue's, when its accommodations share
 * one (the usual case); the browser's otherwise.
 */
export function venueZone(objects: { accommodation: { timeZone: string } }[] | undefined): string {
  const zones = new Set((objects ?? []).map((o) => o.accommodation.timeZone));
  const [only] = zones;
  return zones.size === 1 && only ? only : DateTime.local().zoneName;
}

/**
 * The From and To days (YYYY-MM-DD) as the instants the API's half-open filter takes: From's
 * midnight, and the midnight after To, so the To day is included (bug 4).
 */
export function dayPeriod(
  from: string | undefined,
  to: string | undefined,
  zone: string,
): { from?: string; to?: string } {
  const day = (date: string | undefined, plus: number) => {
    if (!date) return undefined;
    const t = DateTime.fromISO(date, { zone });
    return t.isValid ? (t.startOf('day').plus({ days: plus }).toISO() ?? undefined) : undefined;
  };
  return { from: day(from, 0), to: day(to, 1) };
}
