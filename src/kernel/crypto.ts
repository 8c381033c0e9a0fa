import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
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
 * Wraps the server secret (PORTIER_SECRET). Values that must be shown again later are derived
 * from it (HMAC) or sealed with it (AES-256-GCM); the secret never lives in the database.
 */
export class ServerSecret {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('PORTIER_SECRET must be at least 16 characters long');
    this.key = createHash('sha256').update(`portier:${secret}`).digest();
  }

  /** A deterministic value bound to `purpose` and `subject`, base64url. */
  derive(purpose: string, subject: string, bytes = 32): string {
    return createHmac('sha256', this.key)
      .update(`${purpose}\u0000${subject}`)
      .digest()
      .subarray(0, bytes)
      .toString('base64url');
  }

  /** The HMAC as a big number, for short numeric codes. */
  deriveDigits(purpose: string, subject: string, length: number): string {
    const digest = createHmac('sha256', this.key).update(`${purpose}\u0000${subject}`).digest();
    const n = digest.readBigUInt64BE(0) % 10n ** BigInt(length);
    return n.toString().padStart(length, '0');
  }

  /**
   * Authenticated encryption under a key of its own for one use: HKDF-SHA256 of the server key,
   * `info` naming the use, so a value sealed for one use never opens for another.
   */
  sealerFor(info: string): Sealer {
    return new Sealer(Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `portier:${info}`, 32)));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
      '.',
    );
  }

  unseal(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error('Not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

const SEALED_PREFIX = 'a1.';

/**
 * AES-256-GCM with associated data: `context` (e.g. the row a value belongs to) must be the same to
 * open what was sealed, so a sealed value moved elsewhere does not open. Built by
 * ServerSecret.sealerFor.
 */
export class Sealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A sealer needs a 256-bit key');
  }

  /** Whether a stored value is in the sealed format (not whether it opens). */
  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
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
    if (!Sealer.isSealed(sealed)) return null;
    const [iv, body, tag] = sealed.slice(SEALED_PREFIX.length).split('.');
    if (iv === undefined || body === undefined || tag === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
