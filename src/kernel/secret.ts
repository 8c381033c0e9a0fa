import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomToken, ServerSecret } from './crypto.js';
import type { Env } from './env.js';

/**
 * PORTIER_SECRET, or in embedded mode a secret generated on first start and kept in
 * PGLITE_DIR/secret (mode 0600). With DATABASE_URL it must be set: the secret never lives in the
 * database, so it cannot be generated per process.
 */
export function loadServerSecret(env: Env): ServerSecret {
  if (env.portierSecret) return new ServerSecret(env.portierSecret);
  if (env.databaseUrl) {
    throw new Error(
      'PORTIER_SECRET is required when DATABASE_URL is set (at least 16 characters; keep it out of the database and identical on every process).',
    );
  }
  if (env.pgliteDir.startsWith('memory://')) return new ServerSecret(randomToken(32));
  const dir = resolve(env.pgliteDir);
  const file = join(dir, 'secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomToken(32) + '\n', { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return new ServerSecret(readFileSync(file, 'utf8').trim());
}
