import { effectiveScopes, type Scope } from '../../kernel/auth/scopes.js';

export const ROLES = ['admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * What a staff member does every day: bookings (read, confirm, cancel, complete), availability,
 * the catalog and prices as they are (read only), device state, unlock commands and the access
 * log. Unlock commands need `devices:write`, the scope that also registers, re-maps and revokes
 * devices: the scope set is a public interface, so staff can do those too (docs/dashboard.md).
 * No `admin` (API keys, users, audit log, OAuth apps), no webhooks, no catalog or pricing writes.
 */
const STAFF_SCOPES: readonly Scope[] = [
  'bookings:read',
  'bookings:write',
  'catalog:read',
  'pricing:read',
  'devices:read',
  'devices:write',
  'customers:read',
  'customers:write',
];

/** The API-key scopes a role grants (as granted: `admin` is expanded by `effectiveScopes`). */
export function scopesOfRole(role: Role): Scope[] {
  return role === 'admin' ? ['admin'] : [...STAFF_SCOPES];
}

/** The scopes a signed-in user effectively holds (admin expanded), as an API key's principal. */
export function effectiveScopesOfRole(role: Role): string[] {
  return effectiveScopes(scopesOfRole(role));
}
