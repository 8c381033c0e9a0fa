import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Executor } from '../../kernel/db/index.js';
import type { ServerSecret } from '../../kernel/crypto.js';
import { findKey } from './door-credentials.repository.js';

/** How long an unknown key id is remembered as unknown (a garbage token costs one lookup a minute). */
const UNKNOWN_KID_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface VerifyingKey {
  tenantId: string;
  key: KeyObject;
}

/**
 * Door signing keys by key id, loaded once per process: a key never changes once created (rotation
 * adds a new one), so the access check verifies a signed token without a database round trip for
 * the key. Private keys are unsealed (PORTIER_SECRET) on first use and kept in memory.
 */
export class DoorKeyCache {
  private readonly verifying = new Map<string, VerifyingKey | { unknownUntil: number }>();
  private readonly signing = new Map<string, KeyObject>();

  constructor(private readonly secret: ServerSecret) {}

  /** The public key and tenant of `kid`, or undefined when no such key exists. */
  async verificationKey(db: Executor, kid: string): Promise<VerifyingKey | undefined> {
    const cached = this.verifying.get(kid);
    if (cached && 'key' in cached) return cached;
    if (cached && cached.unknownUntil > Date.now()) return undefined;
    const row = await findKey(db, kid);
    if (this.verifying.size >= MAX_ENTRIES) this.verifying.clear();
    if (!row) {
      this.verifying.set(kid, { unknownUntil: Date.now() + UNKNOWN_KID_TTL_MS });
      return undefined;
    }
    const entry = { tenantId: row.tenant_id, key: createPublicKey({ key: row.public_jwk, format: 'jwk' }) };
    this.verifying.set(kid, entry);
    return entry;
  }

  /** The private key of `kid` (of `tenantId`), for signing. */
  async signingKey(db: Executor, tenantId: string, kid: string): Promise<KeyObject> {
    const cached = this.signing.get(kid);
    if (cached) return cached;
    const row = await findKey(db, kid);
    if (row?.tenant_id !== tenantId) throw new Error(`Door signing key ${kid} is not a key of tenant ${tenantId}`);
    const key = createPrivateKey(this.secret.unseal(row.private_key_sealed));
    if (this.signing.size >= MAX_ENTRIES) this.signing.clear();
    this.signing.set(kid, key);
    return key;
  }
}
