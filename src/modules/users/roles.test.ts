import { MODULES } from '../../app/modules.js';
import { describe, expect, it } from 'vitest';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import { buildSchema } from '../../transport/graphql/schema.js';
import { SCOPES } from '../../kernel/auth/scopes.js';
import { effectiveScopesOfRole, scopesOfRole } from './roles.js';
import { passwordProblem } from './password.js';

/** The root fields a role's scopes satisfy (by each field's @requiresScopes). */
function fieldsAllowed(scopes: string[]): Set<string> {
  const schema = buildSchema(MODULES);
  const allowed = new Set<string>();
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const directives = getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema);
      const required = directives.requiresScopes?.[0]?.scopes;
      if (!required || required.some((set) => set.every((s) => scopes.includes(s)))) allowed.add(field.name);
    }
  }
  return allowed;
}

describe('scopesOfRole', () => {
  it('admin is the admin scope, which expands to every scope', () => {
    expect(scopesOfRole('admin')).toEqual(['admin']);
    expect(effectiveScopesOfRole('admin')).toEqual([...SCOPES]);
  });

  it('staff holds only known scopes, never admin, webhooks or catalog and pricing writes', () => {
    const staff = scopesOfRole('staff');
    for (const scope of staff) expect(SCOPES).toContain(scope);
    for (const scope of ['admin', 'webhooks:read', 'webhooks:write', 'catalog:write', 'pricing:write'])
      expect(staff).not.toContain(scope);
    expect(effectiveScopesOfRole('staff')).toEqual(staff);
  });

  it('staff may run bookings, availability, device state, unlock commands and the access log', () => {
    const allowed = fieldsAllowed(effectiveScopesOfRole('staff'));
    for (const field of [
      'bookings',
      'bookingPage',
      'booking',
      'updateBookingStatus',
      'availability',
      'devices',
      'device',
      'accessLog',
      'createDeviceCommand',
      'accommodations',
      'pricingRules',
    ]) {
      expect(allowed.has(field), field).toBe(true);
    }
  });

  it('staff may not touch API keys, users, the audit log, webhooks, the catalog or prices', () => {
    const allowed = fieldsAllowed(effectiveScopesOfRole('staff'));
    for (const field of [
      'apiKeys',
      'createApiKey',
      'revokeApiKey',
      'users',
      'createUser',
      'updateUserRole',
      'removeUser',
      'auditLog',
      'webhooks',
      'createWebhook',
      'createAccommodation',
      'createPricingRule',
    ]) {
      expect(allowed.has(field), field).toBe(false);
    }
  });
});

describe('passwordProblem', () => {
  it.each([
    ['correct horse', null],
    ['twelve chars', null],
    ['eleven char', 'must be at least 12 characters long'],
    ['🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑', null], // characters, not UTF-16 units
    ['🔑🔑🔑🔑🔑🔑', 'must be at least 12 characters long'],
    ['x'.repeat(1025), 'must be at most 1024 characters long'],
    [42, 'must be a string'],
  ])('%j → %s', (password, expected) => {
    expect(passwordProblem(password)).toBe(expected);
  });
});
