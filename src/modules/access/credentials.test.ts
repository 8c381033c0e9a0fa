import { describe, expect, it } from 'vitest';
import { ServerSecret } from '../../kernel/crypto.js';
import { parseToken, qrToken, qrTokenHash, smsCode, smsCodeHash, smsMessage } from './credentials.js';

const secret = new ServerSecret('test-secret-of-enough-length');
const other = new ServerSecret('another-secret-of-enough-length');
const tenant = '00000000-0000-4000-8000-000000000001';
const booking = '00000000-0000-4000-8000-0000000000b1';

describe('credential derivation', () => {
  it('gives a stable 192-bit QR token bound to the secret, tenant and booking', () => {
    const token = qrToken(secret, tenant, booking);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(qrToken(secret, tenant, booking)).toBe(token);
    expect(qrToken(other, tenant, booking)).not.toBe(token);
    expect(qrToken(secret, tenant, '00000000-0000-4000-8000-0000000000b2')).not.toBe(token);
  });

  it('gives 8-digit SMS codes that change with the nonce', () => {
    const codes = new Set([0, 1, 2, 3].map((n) => smsCode(secret, tenant, booking, n)));
    for (const code of codes) expect(code).toMatch(/^\d{8}$/);
    expect(codes.size).toBe(4);
    expect(smsCode(secret, tenant, booking, 0)).toBe(smsCode(secret, tenant, booking, 0));
  });

  it('keys the SMS lookup hash with the secret, so a database copy cannot enumerate codes', () => {
    expect(smsCodeHash(secret, tenant, '12345678')).not.toBe(smsCodeHash(other, tenant, '12345678'));
    expect(smsCodeHash(secret, tenant, '12345678')).not.toContain('12345678');
    expect(qrTokenHash('abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('parseToken', () => {
  it.each([
    ['12345678', { type: 'sms', value: '12345678' }],
    [' 1234 5678 ', { type: 'sms', value: '12345678' }],
    ['1234-5678', { type: 'sms', value: '12345678' }],
    ['abcdefghijklmnopqrstuvwxyzABCD-_', { type: 'qr', value: 'abcdefghijklmnopqrstuvwxyzABCD-_' }],
    ['1234567', undefined],
    ['123456789', undefined],
    ['abcdefghijklmnopqrstuvwxyzABCD-', undefined],
    ['not a token', undefined],
    ['', undefined],
  ] as const)('%j → %j', (raw, expected) => {
    expect(parseToken(raw)).toEqual(expected);
  });
});

describe('smsMessage', () => {
  const base = { code: '12345678', objectName: 'Court 1', accommodationName: 'Sportpark Nord' };
  it.each([
    [
      'Europe/Berlin',
      '2026-11-20T10:00:00Z',
      '2026-11-20T11:00:00Z',
      'Your door code for Court 1 at Sportpark Nord: 12345678. Valid Fri 20 Nov 2026 11:00–12:00 (Europe/Berlin).',
    ],
    [
      'Europe/Berlin',
      '2026-03-29T00:30:00Z',
      '2026-03-29T01:30:00Z',
      'Your door code for Court 1 at Sportpark Nord: 12345678. Valid Sun 29 Mar 2026 01:30–03:30 (Europe/Berlin).',
    ],
    [
      'America/New_York',
      '2026-11-21T03:00:00Z',
      '2026-11-21T06:00:00Z',
      'Your door code for Court 1 at Sportpark Nord: 12345678. Valid Fri 20 Nov 2026 22:00–Sat 21 Nov 2026 01:00 (America/New_York).',
    ],
  ])('in %s from %s to %s', (timeZone, from, until, expected) => {
    expect(smsMessage({ ...base, timeZone, validFrom: new Date(from), validUntil: new Date(until) })).toBe(expected);
  });
});
