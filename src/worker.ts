import { readEnv } from './kernel/env.js';
import { closeRuntime, startRuntime } from './app/runtime.js';
import { WebhookDispatcher, dispatcherOptionsOf } from './modules/webhooks/index.js';
import { NotificationSender } from './modules/notifications/index.js';
import { RefundWorker, reconcilePayments } from './modules/payments/index.js';
import { startMetricsServer, type MetricsServer } from './transport/http/metrics-server.js';

// `npm run worker`: a webhook dispatcher without the HTTP API. Run as many as needed next to the
// API processes (they share the work through SKIP LOCKED); with PGlite only one process can open
// the data directory, so separate workers need DATABASE_URL.

async function main(): Promise<void> {
  const env = readEnv();
  const deps = await startRuntime(env, { sharedLimits: false });
  const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(deps));
  dispatcher.start();
  // Guest mail and SMS go out beside the webhooks (docs/notifications.md).
  // Always: venues may set their own SMTP and SMS in the dashboard (resolved per tenant at send time).
  const sender = new NotificationSender({ deps });
  sender?.start();
  // Stripe refunds from the refund outbox (docs/payments.md, "Refunds").
  const refunds = new RefundWorker(deps);
  refunds?.start();
  // The payment reconciliation, hourly over the last 7 days (also `cli payments reconcile`).
  const reconcile = deps.paymentProvider
    ? setInterval(() => {
        reconcilePayments(deps, 7).catch((error: unknown) =>
          deps.log.error({ err: error }, 'payment reconciliation failed'),
        );
      }, 3_600_000).unref()
    : undefined;
  // GET /metrics on its own port (WORKER_METRICS_PORT; docs/operations.md).
  let metricsServer: MetricsServer | undefined;
  if (env.workerMetricsPort !== undefined && env.metricsToken && deps.metrics) {
    try {
      metricsServer = await startMetricsServer(deps.metrics, {
        port: env.workerMetricsPort,
        host: env.host,
        token: env.metricsToken,
      });
    } catch (error) {
      await Promise.all([dispatcher.stop(), sender?.stop(), refunds?.stop()]);
      await closeRuntime(deps);
      throw new Error(`WORKER_METRICS_PORT ${env.workerMetricsPort} on ${env.host}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  deps.log.info({ database: deps.database.kind, metrics: metricsServer?.url }, 'webhook worker started');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(reconcile);
    deps.log.info({ signal }, 'webhook worker stopping; waiting for deliveries in flight');
    Promise.all([dispatcher.stop(), sender?.stop(), refunds?.stop(), metricsServer?.close()])
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

main().catch((error: unknown) => {
  process.stderr.write(`Portier worker failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
