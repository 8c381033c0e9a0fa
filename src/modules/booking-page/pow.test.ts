import { describe, expect, it } from 'vitest';
import { ServerSecret } from '../../kernel/crypto.js';
import { issueChallenge, leadingZeroBits, solveChallenge, verifyProof } from './pow.js';

const secret = new ServerSecret('a test secret of enough length');
const now = new Date('2030-01-07T10:00:00Z');
const later = new Date(now.getTime() + 300_000);
const TENANT = '11111111-1111-4111-8111-111111111111';

describe('leadingZeroBits', () => {
  it.each([
    [[0x80], 0],
    [[0x40], 1],
    [[0x01], 7],
    [[0x00, 0xff], 8],
    [[0x00, 0x00, 0x10], 19],
    [[0x00, 0x00], 16],
  ])('%j has %i', (bytes, bits) => {
    expect(leadingZeroBits(Uint8Array.from(bytes))).toBe(bits);
  });
});

describe('verifyProof', () => {
  const challenge = issueChallenge(secret, TENANT, 8, later);
  const nonce = solveChallenge(challenge.token, 8);
  // The next nonce that does not solve it (one in 256 does by chance: the challenge is random).
  let wrongNonce = String(Number(nonce) + 1);
  while (verifyProof(secret, TENANT, challenge.token, wrongNonce, now, 8).ok)
    wrongNonce = String(Number(wrongNonce) + 1);

  it('accepts a solved, signed, unexpired challenge of its tenant', () => {
    expect(verifyProof(secret, TENANT, challenge.token, nonce, now, 8)).toMatchObject({ ok: true });
  });

  it.each([
    [
      'another tenant',
      () => verifyProof(secret, '22222222-2222-4222-8222-222222222222', challenge.token, nonce, now, 8),
      'forged',
    ],
    [
      'another secret',
      () => verifyProof(new ServerSecret('another secret, long enough'), TENANT, challenge.token, nonce, now, 8),
      'forged',
    ],
    ['an expired one', () => verifyProof(secret, TENANT, challenge.token, nonce, later, 8), 'expired'],
    [
      'a lowered difficulty',
      () => verifyProof(secret, TENANT, challenge.token.replace('.8.', '.1.'), nonce, now, 1),
      'forged',
    ],
    ['a difficulty raised since', () => verifyProof(secret, TENANT, challenge.token, nonce, now, 9), 'too_easy'],
    ['a wrong nonce', () => verifyProof(secret, TENANT, challenge.token, wrongNonce, now, 8), 'unsolved'],
    ['no nonce', () => verifyProof(secret, TENANT, challenge.token, '', now, 8), 'unsolved'],
    ['a hostile nonce', () => verifyProof(secret, TENANT, challenge.token, '1e3<script>', now, 8), 'unsolved'],
    ['garbage', () => verifyProof(secret, TENANT, 'pw1.x.y.z.w', '1', now, 8), 'malformed'],
    ['a huge token', () => verifyProof(secret, TENANT, 'pw1.' + 'a'.repeat(10_000), '1', now, 8), 'malformed'],
  ])('refuses %s', (_name, run, reason) => {
    expect(run()).toEqual({ ok: false, reason });
  });
});
