import { readEnv } from './env.js';
import { startRuntime } from './runtime.js';
import { startServer } from './server.js';
import { seedDemoIfEmpty } from './demo.js';

/** A graceful stop that takes longer is cut short (exit 1); below the usual 30 s kill grace period. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const env = readEnv();
  const deps = await startRuntime(env);
  let server;
  try {
    server = await startServer(deps, { port: env.port, host: env.host });
  } catch (error) {
    await deps.database.close(); // releases the PGLITE_DIR lock
    throw error;
  }
  // Seeded only once the port is ours: a start that fails to listen must not create a demo
  // tenant whose key nobody ever sees.
  const demo = await seedDemoIfEmpty(deps);
  deps.log.info({ url: server.url, database: deps.database.kind }, 'Portier is listening');
  if (demo) {
    // Shown once: the key is stored only as a hash.
    process.stdout.write(
      [
        '',
        'Portier created a demo tenant on this new embedded database. Its admin API key (shown once):',
        `  tenantId: ${demo.tenantId}`,
        `  apiKey:   ${demo.apiKey}`,
        `  objects:  ${demo.objectIds.join(', ')}`,
        `Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${server.url}/api/v1/tenants/${demo.tenantId}/objects/${demo.objectIds[0]}/opening-hours`,
        '',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      deps.log.warn({ signal }, 'second signal: exiting without waiting for in-flight work');
      process.exit(1);
    }
    stopping = true;
    deps.log.info({ signal }, 'shutting down: finishing in-flight requests and background work');
    const deadline = setTimeout(() => {
      deps.log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    server.close().then(
      () => {
        deps.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        deps.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Portier failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
