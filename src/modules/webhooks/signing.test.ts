import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { API_VERSION, secretProblem, sign, signedRequest, signingKey } from './signing.js';

describe('secretProblem', () => {
  it.each([
    ['a-plain-secret-of-ok-length', null],
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null],
    ['x'.repeat(512), null],
    ['short', 'must be 16 to 512 characters long'],
    ['x'.repeat(513), 'must be 16 to 512 characters long'],
    ['whsec_not base64 at all!!', 'a secret starting with whsec_ must continue with base64 (the key bytes)'],
    [' padded-secret-value ', 'must not contain control characters or surrounding whitespace'],
    ['line\nbreak-in-the-secret', 'must not contain control characters or surrounding whitespace'],
    [42, 'must be a string'],
  ])('%j → %s', (secret, problem) => {
    expect(secretProblem(secret)).toBe(problem);
  });
});

describe('sign', () => {
  const now = new Date();
  const message = {
    id: '0b7c4f5e-2f7a-4d8e-9a53-7f0a7e0c1d11',
    type: 'booking.created',
    timestamp: new Date('2026-11-20T10:00:00Z'),
    tenantId: 't1',
    data: { booking: { id: 'b1' } },
    livemode: true,
  };

  it('signs whsec_ secrets with the base64-decoded key, verifiable by standardwebhooks', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signingKey(secret)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
    const { body, headers } = signedRequest(secret, message, now);
    expect(new Webhook(secret).verify(body, headers)).toEqual({
      ...message,
      timestamp: '2026-11-20T10:00:00.000Z',
      apiVersion: API_VERSION,
    });
  });

  it('signs plain secrets with their UTF-8 bytes', () => {
    const secret = 'plain sécret ✓ of some length';
    const { body, headers } = signedRequest(secret, message, now);
    expect(() => new Webhook(Buffer.from(secret, 'utf8').toString('base64')).verify(body, headers)).not.toThrow();
    expect(() =>
      new Webhook(new Uint8Array(Buffer.from(secret, 'utf8')), { format: 'raw' }).verify(body, headers),
    ).not.toThrow();
  });

  it('signs with every secret during a rotation, space-separated: either verifies', () => {
    const secrets = [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_' + Buffer.from('another key of 24 bytes!').toString('base64'),
    ];
    const { body, headers } = signedRequest(secrets, message, now);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of secrets) expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() =>
      new Webhook('whsec_' + Buffer.from('a third key, never used').toString('base64')).verify(body, headers),
    ).toThrow();
  });

  it('matches the scheme: v1,base64(HMAC-SHA256(key, "id.timestamp.body"))', () => {
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
