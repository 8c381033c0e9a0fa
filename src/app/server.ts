import type { AppDeps } from '../kernel/deps.js';
import { closeRuntime } from './runtime.js';
import { buildApp, type App, type AppOptions } from '../transport/http/app.js';
import {
  connectionLimits,
  descriptorLimit,
  DESCRIPTOR_RESERVE,
  closeSilentConnections,
  enforceConnectionLimits,
} from '../transport/http/connections.js';

// The composition root: the HTTP host (fastify + yoga + the REST bridge + hand-written routes) and the
// background workers that run in the same process.

/** A background worker running beside the HTTP host; stop() returns once its current work is done. */
export interface BackgroundWorker {
  name: string;
  stop(): Promise<void> | void;
}

/** Starts a background worker, e.g. `(deps) => startWebhookDispatcher(deps)` returning `{ name, stop }`. */
export type WorkerStarter = (deps: AppDeps) => BackgroundWorker | Promise<BackgroundWorker>;

export interface Server {
  app: App;
  url: string;
  /** Registers something to stop on shutdown, after the HTTP host stopped taking requests. */
  onStop(name: string, stop: () => Promise<void> | void): void;
  /**
   * Graceful stop: the listener closes, in-flight requests get their complete responses while
   * background workers finish their current work, then the database closes. Idempotent.
   */
  close(): Promise<void>;
}

export interface ServerOptions extends AppOptions {
  /** Run the webhook dispatcher in this process (default true); `npm run worker` runs it alone. */
  dispatcher?: boolean;
  /** More workers started with the server, in order (they are stopped in reverse order). */
  workers?: WorkerStarter[];
}

/** The modules' background jobs (the webhook dispatcher): stop() waits for their current work. */
function startJobs(deps: AppDeps): BackgroundWorker[] {
  return deps.modules.flatMap((m) =>
    (m.jobs ?? []).map((job) => {
      const running = job.start(deps);
      return { name: job.name, stop: () => running.stop() };
    }),
  );
}

export async function startServer(
  deps: AppDeps,
  listen: { port: number; host: string },
  options: ServerOptions = {},
): Promise<Server> {
  const app = await buildApp(deps, options);
  const stops: BackgroundWorker[] = [];
  // The connection caps, checked against `ulimit -n` before the port opens (docs/operations.md).
  const limits = connectionLimits(deps.env, descriptorLimit());
  if (limits.lowered) {
    deps.log.warn(
      { ...limits.lowered, maxConnections: limits.maxConnections, reserve: DESCRIPTOR_RESERVE },
      `MAX_CONNECTIONS lowered to ${limits.maxConnections}: the descriptor limit (ulimit -n ${limits.lowered.descriptorLimit}) leaves no room for ${limits.lowered.configured} connections and ${DESCRIPTOR_RESERVE} other descriptors; raise ulimit -n or lower MAX_CONNECTIONS`,
    );
  }
  enforceConnectionLimits(app.fastify.server, limits, deps.log);
  closeSilentConnections(app.fastify.server, deps.env.firstRequestTimeoutSeconds * 1000);
  try {
    await app.fastify.listen({ port: listen.port, host: listen.host });
    if (options.dispatcher !== false) stops.push(...startJobs(deps));
    for (const start of options.workers ?? []) stops.push(await start(deps));
  } catch (error) {
    await stopAll(stops, deps);
    await app.fastify.close();
    throw error;
  }
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const url = `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    onStop(name, stop) {
      stops.push({ name, stop });
    },
    close() {
      closing ??= (async () => {
        await Promise.all([app.fastify.close(), stopAll(stops, deps)]);
        await closeRuntime(deps);
      })();
      return closing;
    },
  };
}

/** Stops workers in reverse start order; one failing does not keep the others running. */
async function stopAll(workers: BackgroundWorker[], deps: AppDeps): Promise<void> {
  for (const worker of [...workers].reverse()) {
    try {
      await worker.stop();
      deps.log.info({ worker: worker.name }, 'background worker stopped');
    } catch (error) {
      deps.log.error({ err: error, worker: worker.name }, 'background worker failed to stop cleanly');
    }
  }
}
