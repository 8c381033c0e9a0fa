import { DateTime } from 'luxon';

// Pure helpers of the Reports page: the default range, the heat map's cells and labels.

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const SHORT_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The last 30 days up to today in `zone`, as local dates. */
export function defaultRange(zone: string): { from: string; to: string } {
  const today = DateTime.now().setZone(zone);
  return { from: today.minus({ days: 29 }).toISODate() ?? '', to: today.toISODate() ?? '' };
}

export interface HeatCell {
  weekday: number;
  hour: number;
  bookedMinutes: number;
  openMinutes: number;
  occupancy: number | null;
}

/** The cells of several objects summed per weekday and hour (booked / open of the sums). */
export function heatCells(
  cells: readonly { weekday: number; hour: number; bookedMinutes: number; openMinutes: number }[],
): HeatCell[] {
  const sums = new Map<string, HeatCell>();
  for (const c of cells) {
    const key = `${c.weekday}|${c.hour}`;
    const sum = sums.get(key) ?? {
      weekday: c.weekday,
      hour: c.hour,
      bookedMinutes: 0,
      openMinutes: 0,
      occupancy: null,
    };
    sum.bookedMinutes += c.bookedMinutes;
    sum.openMinutes += c.openMinutes;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .map((c) => ({
      ...c,
      occupancy: c.openMinutes > 0 ? Math.round((c.bookedMinutes / c.openMinutes) * 10_000) / 10_000 : null,
    }))
    .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
}

/** A ratio as a percentage, e.g. 0.2551 → 25.5 %; — for none. */
export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined
    ? '—'
    : `${(value * 100).toLocaleString('en-GB', { maximumFractionDigits: 1 })} %`;

/** Minutes as hours, e.g. 150 → 2.5 h. */
export const hoursOf = (minutes: number): string =>
  `${(minutes / 60).toLocaleString('en-GB', { maximumFractionDigits: 1 })} h`;

/** A local date of a period, e.g. 2026-11-16 → 16 Nov 2026 (DAY), week of 16 Nov 2026 (WEEK), Nov 2026 (MONTH). */
export function periodLabel(date: string, period: 'DAY' | 'WEEK' | 'MONTH'): string {
  const d = DateTime.fromISO(date);
  if (period === 'MONTH') return d.toFormat('LLL yyyy');
  if (period === 'WEEK') return `Week of ${d.toFormat('d LLL yyyy')}`;
  return d.toFormat('ccc d LLL yyyy');
}

/** The heat colour of an occupancy (0–1): from the page's light blue to its primary blue. */
export function heatColour(occupancy: number | null): string {
  if (occupancy === null) return '#f1f3f6';
  const t = Math.max(0, Math.min(1, occupancy));
  const from = [232, 238, 252];
  const to = [29, 78, 216];
  const mix = from.map((f, i) => Math.round(f + ((to[i] ?? f) - f) * t));
  return `rgb(${mix.join(' ')})`;
}
