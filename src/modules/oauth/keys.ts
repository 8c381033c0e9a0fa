import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import type { ServerSecret } from '../../kernel/crypto.js';

// Keys oidc-provider needs, derived from PORTIER_SECRET so that every process agrees without
// storing them: the cookie-signing keys and one Ed25519 signing key for its JWKS (Portier issues
// opaque tokens and no ID tokens, so nothing is signed with it in practice).

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The cookie keys: oidc-provider signs with the first and accepts each (the second: before the HKDF keys). */
export function cookieKeys(secret: ServerSecret): string[] {
  return secret.derivedCandidates('oauth-cookie-keys', 'v1');
}

export function signingJwk(secret: ServerSecret): JsonWebKey {
  const seed = Buffer.from(secret.derive('oauth-signing-key', 'v1'), 'base64url');
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return {
    ...key.export({ format: 'jwk' }),
    kid: secret.derive('oauth-signing-key-id', 'v1', 12),
    use: 'sig',
    alg: 'EdDSA',
  };
}
