import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** A random secret of `bytes` bytes (default 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A short numeric code (activation and SMS codes); not for long-lived secrets. */
export function randomDigits(length: number): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += String(randomInt(10));
  return code;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The first characters of a secret, kept for display. */
export function displayPrefix(secret: string, length = 12): string {
  return secret.slice(0, length);
}

/**
 * The labels (HKDF `info`) of the keys taken from the server secret: one key per use, so a key
 * never serves two (docs/configuration.md, "PORTIER_SECRET"). HKDF-SHA256 (RFC 5869) with the
 * secret's UTF-8 bytes as input keying material and a fixed salt naming the scheme.
 */
export const KEY_LABELS = {
  /** The HMAC key of derive() and deriveDigits() (links, codes, CSRF tokens, OAuth keys). */
  hmac: 'portier/v2/hmac',
  /** The AES-256-GCM key of seal() (webhook secrets, door signing keys, OAuth adapter payloads). */
  seal: 'portier/v2/seal',
  /** A sealerFor(info) key: AES-256-GCM with associated data, one key per use. */
  sealer: (info: string) => `portier/v2/sealer/${info}`,
} as const;

const HKDF_SALT = Buffer.from('portier server secret', 'utf8');

/** A 256-bit key for `label`, HKDF-SHA256 of the server secret. */
function hkdfKey(secret: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), HKDF_SALT, label, 32));
}

/** HMAC-SHA256 of "purpose NUL subject" under `key`. */
const hmacOf = (key: Buffer, purpose: string, subject: string): Buffer =>
  createHmac('sha256', key).update(`${purpose}\u0000${subject}`).digest();

/** The first `length` decimal digits of a digest (a short numeric code). */
function digitsOf(digest: Buffer, length: number): string {
  const n = digest.readBigUInt64BE(0) % 10n ** BigInt(length);
  return n.toString().padStart(length, '0');
}

/** Constant-time equality of two strings (false for different lengths). */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Wraps the server secret (PORTIER_SECRET). Values that must be shown again later are derived
 * from it (HMAC) or sealed with it (AES-256-GCM); the secret never lives in the database. Each use
 * has a key of its own, HKDF-derived with its label (KEY_LABELS).
 *
 * Before version 2 one key served all of them: SHA-256 of "portier:<secret>", for the HMAC and for
 * seal() alike (sealerFor's keys were HKDF of that key). What was made with it is still read:
 * `v1.` sealed values and `a1.` sealer values open with the old keys (new ones are written as `v2.`
 * and `a2.`), and a derived value given out before (a manage or payment link, a form or CSRF token,
 * an SMS code) is still accepted where it is checked (`derivedMatches`, `derivedDigitsCandidates`).
 */
export class ServerSecret {
  private readonly hmacKey: Buffer;
  private readonly sealKey: Buffer;
  /** The version-1 key: read-only, for values made before HKDF (see above). */
  private readonly legacyKey: Buffer;
  private readonly secret: string;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('PORTIER_SECRET must be at least 16 characters long');
    this.secret = secret;
    this.hmacKey = hkdfKey(secret, KEY_LABELS.hmac);
    this.sealKey = hkdfKey(secret, KEY_LABELS.seal);
    this.legacyKey = createHash('sha256').update(`portier:${secret}`).digest();
  }

  /** A deterministic value bound to `purpose` and `subject`, base64url. */
  derive(purpose: string, subject: string, bytes = 32): string {
    return hmacOf(this.hmacKey, purpose, subject).subarray(0, bytes).toString('base64url');
  }

  /** What derive() answered before version 2 (only to accept values given out then). */
  private legacyDerive(purpose: string, subject: string, bytes: number): string {
    return hmacOf(this.legacyKey, purpose, subject).subarray(0, bytes).toString('base64url');
  }

  /**
   * Whether `given` is derive(purpose, subject, bytes) — or what derive() answered before version 2,
   * so a link or token given out then still works. Constant time.
   */
  derivedMatches(purpose: string, subject: string, given: string, bytes = 32): boolean {
    const current = sameText(this.derive(purpose, subject, bytes), given);
    const legacy = sameText(this.legacyDerive(purpose, subject, bytes), given);
    return current || legacy;
  }

  /** The HMAC as a big number, for short numeric codes. */
  deriveDigits(purpose: string, subject: string, length: number): string {
    return digitsOf(hmacOf(this.hmacKey, purpose, subject), length);
  }

  /**
   * deriveDigits() now and before version 2, in that order: a code stored (as a lookup hash) or sent
   * before is found with the second.
   */
  derivedDigitsCandidates(purpose: string, subject: string, length: number): [current: string, legacy: string] {
    return [
      digitsOf(hmacOf(this.hmacKey, purpose, subject), length),
      digitsOf(hmacOf(this.legacyKey, purpose, subject), length),
    ];
  }

  /** derive() now and before version 2, in that order (lookups of values stored before). */
  derivedCandidates(purpose: string, subject: string, bytes = 32): [current: string, legacy: string] {
    return [this.derive(purpose, subject, bytes), this.legacyDerive(purpose, subject, bytes)];
  }

  /**
   * Authenticated encryption under a key of its own for one use: HKDF-SHA256 of the server secret,
   * labelled with `info`, so a value sealed for one use never opens for another.
   */
  sealerFor(info: string): Sealer {
    return new Sealer(
      hkdfKey(this.secret, KEY_LABELS.sealer(info)),
      Buffer.from(hkdfSync('sha256', this.legacyKey, Buffer.alloc(0), `portier:${info}`, 32)),
    );
  }

  /** AES-256-GCM under the seal key: `v2.<iv>.<body>.<tag>`. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      SEAL_VERSION,
      iv.toString('base64url'),
      body.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** Opens `v2.` (the seal key) and `v1.` (sealed before version 2, with the old key) values. */
  unseal(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    const key = version === SEAL_VERSION ? this.sealKey : version === 'v1' ? this.legacyKey : undefined;
    if (!key || !iv || !body || !tag) throw new Error('Not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The prefix seal() writes; `v1` values (before HKDF) are still opened. */
export const SEAL_VERSION = 'v2';

/** The prefix Sealer.seal writes; `a1.` values (sealed before HKDF) are still opened. */
export const SEALED_PREFIX = 'a2.';
const LEGACY_SEALED_PREFIX = 'a1.';

/**
 * AES-256-GCM with associated data: `context` (e.g. the row a value belongs to) must be the same to
 * open what was sealed, so a sealed value moved elsewhere does not open. Built by
 * ServerSecret.sealerFor; `legacyKey` opens the `a1.` values sealed before version 2.
 */
export class Sealer {
  constructor(
    private readonly key: Buffer,
    private readonly legacyKey?: Buffer,
  ) {
    if (key.length !== 32 || (legacyKey && legacyKey.length !== 32)) throw new Error('A sealer needs a 256-bit key');
  }

  /** Whether a stored value is in a sealed format, current or old (not whether it opens). */
  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX) || value.startsWith(LEGACY_SEALED_PREFIX);
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The plain value, or null when it does not open (another key or context, or altered). */
  open(sealed: string, context: string): string | null {
    const key = sealed.startsWith(SEALED_PREFIX)
      ? this.key
      : sealed.startsWith(LEGACY_SEALED_PREFIX)
        ? this.legacyKey
        : undefined;
    if (!key) return null;
    const [iv, body, tag] = sealed.slice(SEALED_PREFIX.length).split('.');
    if (iv === undefined || body === undefined || tag === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
