import { describe, expect, it } from 'vitest';
import { apiKeyChanges } from './api-key-changes.js';

describe('apiKeyChanges (what an api_key.updated entry tells)', () => {
  const key = { name: 'front desk', scopes: ['bookings:read', 'devices:read'] };
  it.each([
    ['nothing changed', key, undefined],
    ['the same scopes in another order', { ...key, scopes: ['devices:read', 'bookings:read'] }, undefined],
    [
      'a narrowed key',
      { ...key, scopes: ['devices:read'] },
      { from: { scopes: ['bookings:read', 'devices:read'] }, to: { scopes: ['devices:read'] } },
    ],
    [
      'a widened key',
      { ...key, scopes: ['bookings:read', 'devices:read', 'admin'] },
      {
        from: { scopes: ['bookings:read', 'devices:read'] },
        to: { scopes: ['bookings:read', 'devices:read', 'admin'] },
      },
    ],
    ['a renamed key', { ...key, name: 'lobby' }, { from: { name: 'front desk' }, to: { name: 'lobby' } }],
    [
      'both',
      { name: 'lobby', scopes: ['devices:read'] },
      {
        from: { name: 'front desk', scopes: ['bookings:read', 'devices:read'] },
        to: { name: 'lobby', scopes: ['devices:read'] },
      },
    ],
  ])('%s', (_, after, expected) => {
    expect(apiKeyChanges(key, after)).toEqual(expected);
  });
});
