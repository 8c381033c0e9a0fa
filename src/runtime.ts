import type { Env } from './env.js';
import type { AppDeps } from './deps.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadServerSecret } from './secret.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics/metrics.js';

/** Opens the configured database, applies pending migrations and assembles the dependencies. */
export async function startRuntime(env: Env, options: { logLevel?: string } = {}): Promise<AppDeps> {
  const log = createLogger(options.logLevel ?? env.logLevel);
  const secret = loadServerSecret(env);
  const database = await openDatabase({ databaseUrl: env.databaseUrl, pgliteDir: env.pgliteDir });
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) log.info({ applied }, 'migrations applied');
  } catch (error) {
    await database.close();
    throw error;
  }
  const now = () => new Date();
  return { database, env, secret, log, now, metrics: createMetrics({ database, pool: database.pool, now }) };
}
