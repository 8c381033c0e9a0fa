import { ONLINE_WINDOW_SECONDS } from '../modules/devices/index.js';
import type { Env } from '../kernel/env.js';
import { composeDeps, type AppDeps } from './deps.js';
import { openDatabase } from '../kernel/db/database.js';
import { migrateToLatest } from '../kernel/db/migrate.js';
import { loadServerSecret } from '../kernel/secret.js';
import { createLogger } from '../kernel/logger.js';
import { memoryLimiterStore, openLimiterStore } from '../kernel/limits/index.js';
import { buildGuessLimits } from './guess-limits.js';
import { createMetrics, devicePoolOf } from '../kernel/metrics.js';

/** Opens the configured database, applies pending migrations and assembles the dependencies. */
export async function startRuntime(
  env: Env,
  options: { logLevel?: string; /** false: limiters in memory (CLI, worker) */ sharedLimits?: boolean } = {},
): Promise<AppDeps> {
  const log = createLogger(options.logLevel ?? env.logLevel);
  const secret = loadServerSecret(env);
  // Before the database and Redis are opened: their statements and commands are traced. The
  // OpenTelemetry SDK is loaded only when tracing is on (~4 MB of heap otherwise unused).
  const tracing = env.tracing ? (await import('./tracing.js')).startTracing(env.tracing) : undefined;
  const database = await openDatabase({
    tracer: tracing?.tracer,
    countQueries: false,
    databaseUrl: env.databaseUrl,
    pgliteDir: env.pgliteDir,
    poolSize: env.databasePoolSize,
    poolIdleMs: env.databasePoolIdleSeconds * 1000,
    devicePoolSize: env.databaseDevicePoolSize,
    deviceStatementTimeoutMs: env.databaseDeviceStatementTimeoutMs,
    onConnectionError: (error) =>
      log.warn({ err: error }, 'a database connection broke; the pool opens a new one on the next query'),
  });
  try {
    const applied = await migrateToLatest(database.db, log);
    if (applied.length) log.info({ applied }, 'migrations applied');
  } catch (error) {
    await database.close();
    await tracing?.shutdown();
    throw error;
  }
  let store;
  try {
    store =
      options.sharedLimits === false
        ? memoryLimiterStore()
        : await openLimiterStore(env.redisUrl, log, tracing?.tracer);
  } catch (error) {
    await database.close();
    await tracing?.shutdown();
    throw error;
  }
  const now = () => new Date();
  const metrics = createMetrics({
    database,
    pool: database.pool,
    devicePool: devicePoolOf(database),
    now,
    onlineWindowSeconds: ONLINE_WINDOW_SECONDS,
  });
  return composeDeps({ database, env, secret, log, now, limits: buildGuessLimits(store), metrics, tracing });
}

/**
 * Closes what startRuntime opened: the limiter store (Redis), then the database (and its lock), then
 * the tracer provider, which exports the spans still buffered (the shutdown's own included).
 */
export async function closeRuntime(deps: AppDeps): Promise<void> {
  try {
    deps.mailer?.close();
    await deps.limits.store.close();
  } finally {
    try {
      await deps.database.close();
    } finally {
      await deps.tracing?.shutdown().catch((error: unknown) => {
        deps.log.warn({ err: error }, 'the last spans could not be exported');
      });
    }
  }
}
