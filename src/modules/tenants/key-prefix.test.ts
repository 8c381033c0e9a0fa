import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, PUBLISHABLE_KEY_PREFIX, TEST_API_KEY_PREFIX, secretKeyPrefix } from './tenants.service.js';

// Key prefixes (docs/test-mode.md): live secret keys svc_, test-mode keys svc_test_; both pass the
// API-key lookup's svc_ check, and none collides with the device keys' svc_dk_ or publishable svc_pk_.
describe('secretKeyPrefix', () => {
  it.each([
    [true, 'svc_'],
    [false, 'svc_test_'],
  ])('livemode %s → %s', (livemode, prefix) => {
    expect(secretKeyPrefix(livemode)).toBe(prefix);
  });

  it('keeps every kind of key under svc_ and apart from the device and publishable prefixes', () => {
    expect(TEST_API_KEY_PREFIX.startsWith(API_KEY_PREFIX)).toBe(true);
    for (const other of ['svc_dk_', PUBLISHABLE_KEY_PREFIX]) {
      expect(TEST_API_KEY_PREFIX.startsWith(other)).toBe(false);
      expect(other.startsWith(TEST_API_KEY_PREFIX)).toBe(false);
    }
  });
});
