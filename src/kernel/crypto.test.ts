import { describe, expect, it } from 'vitest';
import { Sealer, ServerSecret } from './crypto.js';

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
    expect(sealed).toMatch(/^a1\./);
    expect(sealed).not.toContain('svc_secret');
    expect(sealer.seal('x', 'c')).not.toBe(sealer.seal('x', 'c'));
  });
});
