import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerSecret } from '../../kernel/crypto.js';

// The booking form's proof of work (docs/booking-page.md, "Bot protection"). The server issues a
// challenge — a random id, its expiry and its difficulty, signed with an HMAC under PORTIER_SECRET
// and bound to the tenant — and the page's script finds a nonce such that
// SHA-256("<challenge>:<nonce>") starts with `bits` zero bits (about 2^bits hashes with Web Crypto).
// Checking costs the server one HMAC and one hash. Whether a challenge was already spent is kept
// elsewhere (guard.ts): this file is pure.

const PREFIX = 'pw1';
const ID_BYTES = 12;
const TAG_BYTES = 18;
const PURPOSE = 'booking-page-proof-of-work';

export interface Challenge {
  /** What the page shows and the script hashes: pw1.<id>.<expires ms, base 36>.<bits>.<tag> */
  token: string;
  id: string;
  expiresAt: Date;
  bits: number;
}

const tagOf = (secret: ServerSecret, tenantId: string, body: string) =>
  secret.derive(PURPOSE, `${tenantId}\u0000${body}`, TAG_BYTES);

export function issueChallenge(
  secret: ServerSecret,
  tenantId: string,
  bits: number,
  expiresAt: Date,
  id = randomBytes(ID_BYTES).toString('base64url'),
): Challenge {
  const body = `${PREFIX}.${id}.${expiresAt.getTime().toString(36)}.${bits}`;
  return { token: `${body}.${tagOf(secret, tenantId, body)}`, id, expiresAt, bits };
}

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export type ProofVerdict =
  | { ok: true; challenge: Challenge }
  | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'too_easy' | 'unsolved' };

/**
 * Whether `nonce` solves `token` for `tenantId` at `now`, with at least `minBits` of work (a
 * challenge issued before the difficulty was raised is refused).
 */
export function verifyProof(
  secret: ServerSecret,
  tenantId: string,
  token: string,
  nonce: string,
  now: Date,
  minBits: number,
): ProofVerdict {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== PREFIX || token.length > 200) return { ok: false, reason: 'malformed' };
  const [, id = '', expires = '', bitsText = '', tag = ''] = parts;
  const bits = Number(bitsText);
  const expiresMs = parseInt(expires, 36);
  if (
    !/^[A-Za-z0-9_-]{16}$/.test(id) ||
    !Number.isInteger(bits) ||
    bits < 0 ||
    bits > 32 ||
    !Number.isFinite(expiresMs)
  )
    return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(tagOf(secret, tenantId, parts.slice(0, 4).join('.')));
  const given = Buffer.from(tag);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'forged' };
  if (expiresMs <= now.getTime()) return { ok: false, reason: 'expired' };
  if (bits < minBits) return { ok: false, reason: 'too_easy' };
  if (!/^[0-9]{1,16}$/.test(nonce)) return { ok: false, reason: 'unsolved' };
  const digest = createHash('sha256').update(`${token}:${nonce}`).digest();
  if (leadingZeroBits(digest) < bits) return { ok: false, reason: 'unsolved' };
  return { ok: true, challenge: { token, id, expiresAt: new Date(expiresMs), bits } };
}

/** Finds a nonce (what the page's script does, with Web Crypto); for tests and tools. */
export function solveChallenge(token: string, bits: number): string {
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(createHash('sha256').update(`${token}:${nonce}`).digest()) >= bits) return String(nonce);
  }
}
