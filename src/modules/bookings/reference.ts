// A booking's short reference (issue #41): `PRT-` and 5 characters of an alphabet without the
// characters a guest reads or types wrongly (0/O, 1/I/L, U), unique per tenant. The database makes
// it (migration 202612021720_booking_reference_messages: the bookings_reference trigger draws again
// on a collision, one character longer after eight); this file reads what a person typed.

export const REFERENCE_PREFIX = 'PRT-';
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The characters after the prefix: 5, more only in a tenant whose 5-character draws keep colliding. */
const BODY = new RegExp(`^[${REFERENCE_ALPHABET}]{5,12}$`);

/**
 * The reference a search fragment names, or null when it cannot be one: any case, with or without
 * `PRT-` (or `PRT` and a space, or no separator), surrounding spaces ignored. `prt-7kq2m`,
 * `7KQ2M` and `PRT 7kq2m` all give `PRT-7KQ2M`.
 */
export function referenceOfSearch(fragment: string): string | null {
  const compact = fragment.trim().toUpperCase();
  const body = compact.startsWith('PRT') ? compact.slice(3).replace(/^[-\s]/, '') : compact;
  return BODY.test(body) ? `${REFERENCE_PREFIX}${body}` : null;
}

/** Whether `value` has a reference's form (`PRT-` and 5 or more characters of the alphabet). */
export function isReference(value: string): boolean {
  return value.startsWith(REFERENCE_PREFIX) && BODY.test(value.slice(REFERENCE_PREFIX.length));
}
