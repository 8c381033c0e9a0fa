import type { BookingFilters } from '../bookings.repository.js';

// Which listing filters a compiled page statement can take as parameters (kernel/db
// compiledPerShape): those filtered() passes straight through. A search (a LIKE pattern), an email
// (lower-cased) or metadata (JSON text) is transformed on its way in, so a page with one of them
// builds its statement each time.

const AS_GIVEN = ['status', 'objectId', 'from', 'to', 'paymentStatus', 'updatedSince'] as const;
export type GivenFilter = (typeof AS_GIVEN)[number];

/**
 * The filters that narrow the page (filtered() skips the falsy ones and empty metadata), by name,
 * or undefined when one of them is not a parameter as given.
 */
export function givenFilters(filters: BookingFilters): Partial<Record<GivenFilter, unknown>> | undefined {
  const given: Partial<Record<GivenFilter, unknown>> = {};
  for (const [name, value] of Object.entries(filters) as [keyof BookingFilters, unknown][]) {
    if (!value || (name === 'metadata' && !Object.keys(value).length)) continue;
    if (!(AS_GIVEN as readonly string[]).includes(name)) return undefined;
    given[name as GivenFilter] = value;
  }
  return given;
}

/** A compiled statement's shape: the given filters' names and the caller's other switches. */
export const statementShape = (given: Partial<Record<GivenFilter, unknown>>, ...switches: string[]): string =>
  [Object.keys(given).join(','), ...switches].join('|');
