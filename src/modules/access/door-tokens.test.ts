import { describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import {
  doorTokenKeyId,
  generateSigningKey,
  looksSigned,
  signDoorToken,
  verifyDoorToken,
  type DoorTokenClaims,
} from './door-tokens.js';
import { parseToken } from './credentials.js';
import { createPublicKey } from 'node:crypto';

const CLAIMS: DoorTokenClaims = {
  sub: '5d0d9c1e-5a4c-4d1a-9f57-0e6b1f2a3b4c',
  tid: '9b1a2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
  obj: ['1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'],
  jti: 'tokenid-0123456789abcd',
  nbf: 1_795_428_000,
  exp: 1_795_431_600,
};

describe('door tokens', () => {
  it('sign deterministically, verify with the public key and parse as signed QR tokens', async () => {
    const { privateKey, publicJwk } = generateSigningKey('kid-1');
    const token = await signDoorToken(privateKey, 'kid-1', CLAIMS);
    expect(await signDoorToken(privateKey, 'kid-1', CLAIMS)).toBe(token);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: 'kid-1' });
    expect(doorTokenKeyId(token)).toBe('kid-1');
    expect(looksSigned(token)).toBe(true);
    expect(parseToken(` ${token} `)).toEqual({ type: 'qr', value: token, signed: true });
    expect(await verifyDoorToken(token, createPublicKey({ key: publicJwk, format: 'jwk' }))).toEqual(CLAIMS);
  });

  it('refuse another key, an altered payload, alg none and a foreign typ', async () => {
    const { privateKey, publicJwk } = generateSigningKey('kid-1');
    const other = generateSigningKey('kid-2');
    const key = createPublicKey({ key: publicJwk, format: 'jwk' });
    const token = await signDoorToken(privateKey, 'kid-1', CLAIMS);
    const [h, , sig] = token.split('.');
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    expect(await verifyDoorToken(await signDoorToken(other.privateKey, 'kid-1', CLAIMS), key)).toBeUndefined();
    expect(await verifyDoorToken(`${h}.${b64({ ...CLAIMS, exp: CLAIMS.exp + 1 })}.${sig}`, key)).toBeUndefined();
    const none = `${b64({ alg: 'none', typ: 'portier-door+jwt', kid: 'kid-1' })}.${b64(CLAIMS)}.`;
    expect(doorTokenKeyId(none)).toBeUndefined();
    expect(await verifyDoorToken(none, key)).toBeUndefined();
    expect(doorTokenKeyId(`${b64({ alg: 'EdDSA', typ: 'JWT', kid: 'kid-1' })}.${b64(CLAIMS)}.${sig}`)).toBeUndefined();
    expect(doorTokenKeyId('not.a.token')).toBeUndefined();
  });
});
