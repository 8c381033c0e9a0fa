// Calendar arithmetic on local dates (YYYY-MM-DD): no zone is involved, a date is a day of the
// proleptic Gregorian calendar, so a DST change (a 23- or 25-hour day) cannot skip or repeat one.

const DAY_MS = 86_400_000;

/** Midnight UTC of `date` in ms (setUTCFullYear: Date.UTC would read the years 0–99 as 1900–1999). */
function dayNumber(date: string): number {
  const at = new Date(0);
  at.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return at.getTime();
}

/** `date` moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const moved = new Date(dayNumber(date) + days * DAY_MS);
  const year = String(moved.getUTCFullYear()).padStart(4, '0');
  return `${year}-${String(moved.getUTCMonth() + 1).padStart(2, '0')}-${String(moved.getUTCDate()).padStart(2, '0')}`;
}

/**
 * The dates from `from` to `to`, both included, in order; empty when `to` is before `from`. At most
 * `limit` dates are listed (a caller that refuses longer ranges asks for one more than it allows).
 */
export function daysFrom(from: string, to: string, limit: number): string[] {
  const count = Math.round((dayNumber(to) - dayNumber(from)) / DAY_MS) + 1;
  return Array.from({ length: Math.max(0, Math.min(count, limit)) }, (_, i) => addDays(from, i));
}
