import { readEnv } from './kernel/env.js';
import { closeRuntime, startRuntime } from './app/runtime.js';
import { startServer } from './app/server.js';
import { seedDemoIfEmpty } from './app/demo.js';

async function main(): Promise<void> {
  const env = readEnv();
  const deps = await startRuntime(env);
  let server;
  try {
    server = await startServer(deps, { port: env.port, host: env.host });
  } catch (error) {
    await closeRuntime(deps); // releases the PGLITE_DIR lock
    throw error;
  }
  // Seeded only once the port is ours: a start that fails to listen must not create a demo
  // tenant whose key nobody ever sees.
  const demo = await seedDemoIfEmpty(deps);
  if (demo) {
    // Shown once: the key is stored only as a hash.
    process.stdout.write(
      [
        '',
        'Portier created a demo tenant on this new embedded database. Sign in to its dashboard',
        '(the password is shown once):',
        `  dashboard: ${deps.env.publicUrl}/dashboard`,
        `  booking page (for guests): ${deps.env.publicUrl}/book/${demo.bookingPageSlug}`,
        `  email:     ${demo.admin.email}`,
        `  password:  ${demo.admin.password}`,
        '',
        'Its admin API key (shown once):',
        `  tenantId: ${demo.tenantId}`,
        `  apiKey:   ${demo.apiKey}`,
        `  objects:  ${demo.objectIds.join(', ')}`,
        `  doors:    ${demo.doorIds.join(', ')} (one per court; register a device for them under Devices to try the door client)`,
        `Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${server.url}/api/v1/tenants/${demo.tenantId}/objects/${demo.objectIds[0]}/opening-hours`,
        '',
      ].join('\n') + '\n',
    );
  }
  // After the banner: whoever waits for this line (a supervisor, the tests) finds the banner printed.
  deps.log.info({ url: server.url, database: deps.database.kind }, 'Portier is listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      deps.log.warn({ signal }, 'second signal: exiting without waiting for in-flight work');
      process.exit(1);
    }
    stopping = true;
    deps.log.info({ signal }, 'shutting down: finishing in-flight requests and background work');
    // Past the deadline (SHUTDOWN_TIMEOUT_SECONDS, below the usual 30 s kill grace period) requests
    // still running are answered 503 before the process exits 1: none is left without an answer.
    const deadline = setTimeout(() => {
      deps.log.error(
        { timeoutSeconds: env.shutdownTimeoutSeconds },
        'shutdown took too long; answering unfinished requests 503 and exiting',
      );
      server.app.drain.answerUnfinished().then(
        (answered) => {
          deps.log.error({ answered }, 'unfinished requests answered 503');
          process.exit(1);
        },
        () => process.exit(1),
      );
    }, env.shutdownTimeoutSeconds * 1000);
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
