export const SCOPES = [
  'bookings:read',
  'bookings:write',
  'catalog:read',
  'catalog:write',
  'pricing:read',
  'pricing:write',
  'webhooks:read',
  'webhooks:write',
  'devices:read',
  'devices:write',
  // Customers (docs/customers.md): read them, their bookings and data exports; change, merge, erase.
  'customers:read',
  'customers:write',
  // A publishable key's one scope (svc_pk_…): the tenant's public booking page, its published
  // objects, their availability and prices, and PENDING bookings (docs/booking-page.md).
  'booking_page',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether `held` satisfies a `@requiresScopes` requirement: every scope of at least one of its
 * alternative sets (no alternatives: nothing is required).
 */
export function holdsOneOf(held: readonly string[], alternatives: readonly (readonly string[])[]): boolean {
  return alternatives.length === 0 || alternatives.some((set) => set.every((scope) => held.includes(scope)));
}

/** The scopes a key effectively holds: `admin` implies every scope. */
export function effectiveScopes(scopes: readonly string[]): string[] {
  return scopes.includes('admin') ? [...SCOPES] : [...scopes];
}
