import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, SignJWT } from 'jose';
import { randomToken } from '../../kernel/crypto.js';
import { isUuid } from '../../kernel/validation.js';

// Signed QR credentials (docs/devices.md, "Offline doors"): a compact JWS, EdDSA over Ed25519,
// that a door verifies with its tenant's public keys (the JWKS in its config) without asking
// Portier. The header names the key (`kid`) and the token type; the claims name the booking, the
// tenant, the objects it opens and its window.

/** The `typ` header of door tokens (RFC 8725 explicit typing: no other JWT passes as one). */
export const DOOR_TOKEN_TYPE = 'portier-door+jwt';
export const DOOR_TOKEN_ALG = 'EdDSA';

export interface DoorTokenClaims {
  /** The booking id. */
  sub: string;
  /** The tenant id. */
  tid: string;
  /** The bookable objects it opens (a door opens for it when it serves one of them). */
  obj: string[];
  /** The token id: what a revocation names. */
  jti: string;
  /** The booking window, whole seconds since the epoch: valid for nbf ≤ now < exp. */
  nbf: number;
  exp: number;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]{10,200}\.[A-Za-z0-9_-]{10,600}\.[A-Za-z0-9_-]{86}$/;

/** Whether a scanned value has the shape of a signed door token (no cryptography yet). */
export const looksSigned = (raw: string): boolean => COMPACT_JWS.test(raw);

export const newTokenId = (): string => randomToken(16);
export const newKeyId = (): string => randomToken(9);

export interface GeneratedKey {
  privateKey: KeyObject;
  publicJwk: Record<string, string>;
}

export function generateSigningKey(kid: string): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x), kid, alg: DOOR_TOKEN_ALG, use: 'sig' },
  };
}

/** Ed25519 signatures are deterministic: the same claims and key give the same token every time. */
export async function signDoorToken(privateKey: KeyObject, kid: string, claims: DoorTokenClaims): Promise<string> {
  return new SignJWT({ tid: claims.tid, obj: claims.obj })
    .setProtectedHeader({ alg: DOOR_TOKEN_ALG, typ: DOOR_TOKEN_TYPE, kid })
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setNotBefore(claims.nbf)
    .setExpirationTime(claims.exp)
    .sign(privateKey);
}

/** The key id of a door token's header, or undefined when the header is not a door token's (any other alg, `none` included). */
export function doorTokenKeyId(token: string): string | undefined {
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== DOOR_TOKEN_ALG || header.typ !== DOOR_TOKEN_TYPE || typeof header.kid !== 'string')
      return undefined;
    return header.kid;
  } catch {
    return undefined;
  }
}

function claimsOf(payload: unknown): DoorTokenClaims | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const c = payload as Record<string, unknown>;
  const ok =
    isUuid(c.sub) &&
    isUuid(c.tid) &&
    Array.isArray(c.obj) &&
    c.obj.every((o) => isUuid(o)) &&
    typeof c.jti === 'string' &&
    c.jti.length > 0 &&
    Number.isInteger(c.nbf) &&
    Number.isInteger(c.exp);
  return ok ? (c as unknown as DoorTokenClaims) : undefined;
}

/**
 * The claims of a door token whose signature `key` verifies (EdDSA only), or undefined. Time is
 * not checked here: the access check reads the booking's window (and reason) from the database.
 */
export async function verifyDoorToken(token: string, key: KeyObject): Promise<DoorTokenClaims | undefined> {
  try {
    const { payload, protectedHeader } = await compactVerify(token, key, { algorithms: [DOOR_TOKEN_ALG] });
    if (protectedHeader.typ !== DOOR_TOKEN_TYPE) return undefined;
    return claimsOf(JSON.parse(new TextDecoder().decode(payload)));
  } catch {
    return undefined;
  }
}

export const epochSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);
