import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

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
    return createHmac('sha256', this.key).update(`${purpose}\u0000${subject}`).digest().subarray(0, bytes).toString('base64url');
  }

  /** The HMAC as a big number, for short numeric codes. */
  deriveDigits(purpose: string, subject: string, length: number): string {
    const digest = createHmac('sha256', this.key).update(`${purpose}\u0000${subject}`).digest();
    const n = digest.readBigUInt64BE(0) % 10n ** BigInt(length);
    return n.toString().padStart(length, '0');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  unseal(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error('Not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
