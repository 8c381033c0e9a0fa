import { describe, expect, it } from 'vitest';
import { deviceStatus, isOnline } from './devices.rules.js';

const now = new Date('2026-11-20T10:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('device status', () => {
  it.each([
    [{ revoked_at: ago(1), activated_at: ago(100), activation_expires_at: ago(-100) }, 'REVOKED'],
    [{ revoked_at: ago(1), activated_at: null, activation_expires_at: ago(-100) }, 'REVOKED'],
    [{ revoked_at: null, activated_at: ago(100), activation_expires_at: ago(50) }, 'ACTIVE'],
    [{ revoked_at: null, activated_at: null, activation_expires_at: ago(-1) }, 'PENDING_ACTIVATION'],
    [{ revoked_at: null, activated_at: null, activation_expires_at: now }, 'ACTIVATION_EXPIRED'],
  ])('%j is %s', (device, expected) => {
    expect(deviceStatus(device, now)).toBe(expected);
  });
});

describe('online state', () => {
  it.each([
    [null, null, false],
    [ago(0), null, true],
    [ago(45), null, true],
    [ago(46), null, false],
    [ago(1), ago(0), false],
  ])('last heartbeat %s, revoked %s → online %s', (last, revoked, expected) => {
    expect(isOnline({ last_heartbeat_at: last, revoked_at: revoked }, now)).toBe(expected);
  });
});
