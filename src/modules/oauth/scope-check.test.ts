import { describe, expect, it } from 'vitest';
import { checkRequestedScopes } from './scope-check.js';
import { effectiveScopes } from '../../kernel/auth/scopes.js';

const ADMIN = effectiveScopes(['admin']);
const STAFF = ['bookings:read', 'bookings:write', 'devices:read'];

describe('checkRequestedScopes', () => {
  it.each([
    ['bookings:read', ['bookings:read', 'catalog:read'], ADMIN, { ok: true, scopes: ['bookings:read'] }],
    [
      'bookings:read bookings:read catalog:read',
      ['bookings:read', 'catalog:read'],
      ADMIN,
      { ok: true, scopes: ['bookings:read', 'catalog:read'] },
    ],
    ['admin', ['admin'], ADMIN, { ok: true, scopes: ['admin'] }],
  ])('grants %s as asked', (requested, app, user, expected) => {
    expect(checkRequestedScopes(requested, app, user)).toEqual(expected);
  });

  it.each([
    [undefined, ['bookings:read'], ADMIN, /scope is required/],
    ['', ['bookings:read'], ADMIN, /scope is required/],
    ['bookings:read openid', ['bookings:read'], ADMIN, /unknown scope: openid/],
    ['bookings:read catalog:write', ['bookings:read'], ADMIN, /not registered for: catalog:write/],
    ['admin', ['admin'], STAFF, /role does not hold: admin/],
    ['bookings:read pricing:write', ['bookings:read', 'pricing:write'], STAFF, /role does not hold: pricing:write/],
  ])('refuses %s whole', (requested, app, user, message) => {
    const result = checkRequestedScopes(requested, app, user);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.description).toMatch(message);
  });
});
