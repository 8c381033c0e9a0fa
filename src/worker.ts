import { readEnv } from './env.js';
import { closeRuntime, startRuntime } from './runtime.js';
import { WebhookDispatcher, dispatcherOptionsOf } from './modules/webhooks/dispatcher.js';

// `npm run worker`: a webhook dispatcher without the HTTP API. Run as many as needed next to the
// API processes (they share the work through SKIP LOCKED); with PGlite only one process can open
// the data directory, so separate workers need DATABASE_URL.

async function main(): Promise<void> {
  const env = readEnv();
  const deps = await startRuntime(env, { sharedLimits: false });
  const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(deps));
  dispatcher.start();
  deps.log.info({ database: deps.database.kind }, 'webhook worker started');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'webhook worker stopping; waiting for deliveries in flight');
    dispatcher
      .stop()
      .then(() => closeRuntime(deps))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          deps.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: Error) => {
  process.stderr.write(`Portier worker failed to start: ${error.message}\n`);
  process.exit(1);
});
