import { describe, expect, it } from 'vitest';
import { createHmac, hkdfSync } from 'node:crypto';
import { KEY_LABELS, Sealer, ServerSecret } from './crypto.js';

describe('ServerSecret.sealerFor (AES-256-GCM under an HKDF key of its own)', () => {
  const secret = new ServerSecret('a server secret of some length');
  const sealer = secret.sealerFor('idempotency-answer-v1');
  const sealed = sealer.seal('{"apiKey":"svc_secret"}', 'tenant\u0000cred\u0000key');

  it.each([
    ['the same key and context', sealer, 'tenant\u0000cred\u0000key', sealed, '{"apiKey":"svc_secret"}'],
    ['another context (another row)', sealer, 'tenant\u0000cred\u0000other', sealed, null],
    ['another use (info)', secret.sealerFor('something-else'), 'tenant\u0000cred\u0000key', sealed, null],
    [
      'another server secret',
      new ServerSecret('another server secret entirely').sealerFor('idempotency-answer-v1'),
      'tenant\u0000cred\u0000key',
      sealed,
      null,
    ],
    [
      'an altered body',
      sealer,
      'tenant\u0000cred\u0000key',
      sealed.slice(0, 10) + (sealed[10] === 'A' ? 'B' : 'A') + sealed.slice(11),
      null,
    ],
    ['plain text', sealer, 'tenant\u0000cred\u0000key', '{"apiKey":"svc_secret"}', null],
    ['a truncated value', sealer, 'tenant\u0000cred\u0000key', 'a1.abc', null],
  ])('opens with %s → %s', (_what, by: Sealer, context: string, value: string, expected: string | null) => {
    expect(by.open(value, context)).toBe(expected);
  });

  it('never shows the plain text and seals the same value differently each time', () => {
    expect(sealed).toMatch(/^a2\./);
    expect(sealed).not.toContain('svc_secret');
    expect(sealer.seal('x', 'c')).not.toBe(sealer.seal('x', 'c'));
  });
});

// Made by the version-1 code (SHA-256 of "portier:<secret>" as the one key for HMAC and sealing) with
// the secret below, before the keys were HKDF-derived: what was stored or given out then still opens.
const SECRET = 'a server secret of some length';
const LEGACY = {
  sealed: 'v1.VCx6jvckswN2CPtz.RsM82XsJEwgyJyPk7HppuajySPEhrPEX.CGhBzm4ButNfYtkiqVWGJQ',
  sealerValue: 'a1.SyKkSPCq6qThf3oj.YyUFeRs5e_MC4r8dSZ575fAASUB0-oc.gZbjGA5ZSz5Gtjgzs6Lhlw',
  manageTag: '8hSUOaj8RoJxA8bqQldegBI7o6Qt4DgS',
  smsCode: '75855185',
  smsLookup: 'SStQPlEQeK-s3rK592cOkPrOj45q-QzY9Kyb4140PYg',
};
const hkdf = (label: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(SECRET), Buffer.from('portier server secret'), label, 32));

describe('ServerSecret keys: HKDF-SHA256 per use (version 2), and what version 1 made still opens', () => {
  const secret = new ServerSecret(SECRET);

  it('a value sealed before (v1.) opens; a new one is v2. under the HKDF seal key, not the HMAC key', () => {
    expect(secret.unseal(LEGACY.sealed)).toBe('{"whsec":"whsec_legacy"}');
    const sealed = secret.seal('{"whsec":"whsec_new"}');
    expect(sealed).toMatch(/^v2\./);
    expect(secret.unseal(sealed)).toBe('{"whsec":"whsec_new"}');
    // It opens with HKDF(secret, "portier/v2/seal") and with no other key.
    const [, iv, body, tag] = sealed.split('.') as [string, string, string, string];
    const open = (key: Buffer) => {
      const sealer = new Sealer(key);
      return sealer.open(`a2.${iv}.${body}.${tag}`, '');
    };
    expect(KEY_LABELS.seal).toBe('portier/v2/seal');
    // (Sealer.open with an empty context is AES-256-GCM with empty associated data: the same as seal's.)
    expect(open(hkdf(KEY_LABELS.seal))).toBe('{"whsec":"whsec_new"}');
    expect(open(hkdf(KEY_LABELS.hmac))).toBeNull();
    expect(() => new ServerSecret('another server secret entirely').unseal(LEGACY.sealed)).toThrow();
    expect(() => secret.unseal('v3.' + sealed.slice(3))).toThrow('Not a sealed value');
  });

  it('a sealer value from before (a1.) opens in its use and context only; new ones are a2. under HKDF(secret, its label)', () => {
    const sealer = secret.sealerFor('idempotency-answer-v1');
    expect(sealer.open(LEGACY.sealerValue, 'tenant\u0000cred\u0000key')).toBe('{"apiKey":"svc_legacy"}');
    expect(sealer.open(LEGACY.sealerValue, 'tenant\u0000cred\u0000other')).toBeNull();
    expect(secret.sealerFor('something-else').open(LEGACY.sealerValue, 'tenant\u0000cred\u0000key')).toBeNull();
    expect(Sealer.isSealed(LEGACY.sealerValue)).toBe(true);
    const fresh = sealer.seal('x', 'c');
    expect(fresh).toMatch(/^a2\./);
    expect(new Sealer(hkdf(KEY_LABELS.sealer('idempotency-answer-v1'))).open(fresh, 'c')).toBe('x');
    // The prefix says which key: an a2 value relabelled a1 does not open.
    expect(sealer.open('a1.' + fresh.slice(3), 'c')).toBeNull();
  });

  it('derive() is HMAC-SHA256 under HKDF(secret, "portier/v2/hmac"); values derived before are still accepted where checked', () => {
    const expected = createHmac('sha256', hkdf('portier/v2/hmac'))
      .update('guest-manage-link\u0000b.1')
      .digest()
      .subarray(0, 24)
      .toString('base64url');
    expect(secret.derive('guest-manage-link', 'b.1', 24)).toBe(expected);
    expect(expected).not.toBe(LEGACY.manageTag);
    expect(secret.derivedMatches('guest-manage-link', 'b.1', expected, 24)).toBe(true);
    expect(secret.derivedMatches('guest-manage-link', 'b.1', LEGACY.manageTag, 24)).toBe(true);
    expect(secret.derivedMatches('guest-manage-link', 'b.2', LEGACY.manageTag, 24)).toBe(false);
    expect(secret.derivedMatches('payment-link', 'b.1', LEGACY.manageTag, 24)).toBe(false);
    expect(secret.derivedMatches('guest-manage-link', 'b.1', LEGACY.manageTag.slice(1), 24)).toBe(false);
    expect(
      new ServerSecret('another server secret entirely').derivedMatches(
        'guest-manage-link',
        'b.1',
        LEGACY.manageTag,
        24,
      ),
    ).toBe(false);
    expect(secret.derivedCandidates('booking-sms-lookup', 't/12345678')[1]).toBe(LEGACY.smsLookup);
    const [current, legacy] = secret.derivedDigitsCandidates('booking-sms-code', 't/b/0', 8);
    expect(legacy).toBe(LEGACY.smsCode);
    expect(current).toBe(secret.deriveDigits('booking-sms-code', 't/b/0', 8));
    expect(current).toMatch(/^\d{8}$/);
  });

  it('each use has its own key: the HMAC, seal and sealer keys differ', () => {
    const keys = [KEY_LABELS.hmac, KEY_LABELS.seal, KEY_LABELS.sealer('idempotency-answer-v1')].map((l) =>
      hkdf(l).toString('hex'),
    );
    expect(new Set(keys).size).toBe(3);
  });
});
