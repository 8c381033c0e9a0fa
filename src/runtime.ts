import type { Env } from './env.js';
import type { AppDeps } from './deps.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadServerSecret } from './secret.js';
import { createLogger } from './logger.js';
import { buildGuessLimits, memoryLimiterStore, openLimiterStore } from './limits/index.js';

/** Opens the configured database, applies pending migrations and assembles the dependencies. */
export async function startRuntime(env: Env, options: { logLevel?: string; /** false: limiters in memory (CLI, worker) */ sharedLimits?: boolean } = {}): Promise<AppDeps> {
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
  let store;
  try {
    store = options.sharedLimits === false ? memoryLimiterStore() : await openLimiterStore(env.redisUrl, log);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { database, env, secret, log, now: () => new Date(), limits: buildGuessLimits(store) };
}

/** Closes what startRuntime opened: the limiter store (Redis), then the database (and its lock). */
export async function closeRuntime(deps: AppDeps): Promise<void> {
  try {
    await deps.limits.store.close();
  } finally {
    await deps.database.close();
  }
}
