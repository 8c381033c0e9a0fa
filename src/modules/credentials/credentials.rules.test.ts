import { describe, expect, it } from 'vitest';
import { environmentSets, fieldErrorOf, hintOf, isStripeTestKey, lastFour } from './credentials.rules.js';

describe('hintOf: never the secret', () => {
  it.each([
    ['stripe', { secretKey: 'sk_test_abcdef1234', webhookSecret: 'whsec_zzz', apiBase: null }, '…1234'],
    [
      'smtp',
      { smtpUrl: 'smtp://user:pa55word@mail.example.com:587', from: 'desk@example.com' },
      'mail.example.com:587 · desk@example.com',
    ],
    ['smtp', { smtpUrl: 'smtps://u:p@smtp.example.org', from: 'a@example.org' }, 'smtp.example.org · a@example.org'],
    [
      'sms',
      { accountSid: 'AC0123456789abcdef', authToken: 'tok3n', from: '+4930123', apiBase: 'https://api.twilio.com' },
      'AC…cdef · +4930123',
    ],
  ] as const)('%s → %s', (kind, stored, hint) => {
    const shown = hintOf(kind, stored as never);
    expect(shown).toBe(hint);
    for (const secret of ['abcdef', 'whsec', 'pa55word', 'tok3n', ':p@']) expect(shown).not.toContain(secret);
  });
  it('lastFour', () => expect(lastFour('whsec_abcd')).toBe('…abcd'));
});

describe('environmentSets', () => {
  const none = { stripe: undefined, mail: null, sms: null };
  it.each([
    [none, 'stripe', false],
    [{ ...none, stripe: { secretKey: 'k', webhookSecret: 'w', apiBase: undefined } }, 'stripe', true],
    [{ ...none, mail: { smtpUrl: 'smtp://h', from: 'a@b', timeoutMs: 1 } }, 'smtp', true],
    [{ ...none, mail: { smtpUrl: 'smtp://h', from: 'a@b', timeoutMs: 1 } }, 'sms', false],
    [{ ...none, sms: { apiBase: 'x', accountSid: 'a', authToken: 't', from: 'f' } }, 'sms', true],
  ] as const)('%#', (env, kind, expected) => expect(environmentSets(env, kind)).toBe(expected));
});

describe('fieldErrorOf: the env parser’s message, in the input’s names', () => {
  it.each([
    [
      'STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (the signing secret of the webhook endpoint, whsec_…)',
      'webhookSecret',
      'secretKey needs webhookSecret (the signing secret of the webhook endpoint, whsec_…)',
    ],
    [
      'STRIPE_API_BASE must be an http(s) origin such as https://api.stripe.com, got "ftp://x"',
      'apiBase',
      'apiBase must be an http(s) origin such as https://api.stripe.com, got "ftp://x"',
    ],
    [
      'SMTP_URL must start with smtp:// or smtps://, got "http://"',
      'smtpUrl',
      'smtpUrl must start with smtp:// or smtps://, got "http://"',
    ],
    [
      'MAIL_FROM must be set to an address such as bookings@example.com when SMTP_URL is set',
      'from',
      'from must be set to an address such as bookings@example.com when smtpUrl is set',
    ],
    ['SMS_ACCOUNT_SID must be letters and digits only', 'accountSid', 'accountSid must be letters and digits only'],
    ['something else', 'input', 'something else'],
  ])('%s', (message, field, text) => expect(fieldErrorOf(message, 'input')).toEqual({ field, message: text }));
});

describe('isStripeTestKey: what a sandbox tenant stores (docs/test-mode.md)', () => {
  it.each([
    ['sk_test_51ABCDEFGH', true],
    ['rk_test_51ABCDEFGH', true],
    ['sk_live_51ABCDEFGH', false],
    ['rk_live_51ABCDEFGH', false],
    ['pk_test_51ABCDEFGH', false],
    ['sk_testing', false],
    ['', false],
  ])('%s → %s', (key, expected) => {
    expect(isStripeTestKey(key)).toBe(expected);
  });
});
