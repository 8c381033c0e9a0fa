import type { AppDeps } from './deps.js';
import { buildApp, type App } from './http/app.js';
import { WebhookDispatcher, dispatcherOptionsOf } from './modules/webhooks/dispatcher.js';

// The composition root: the HTTP host (fastify + yoga + SOFA + hand-written routes) and the
// background workers that run in the same process.

export interface Server {
  app: App;
  url: string;
  /** The in-process webhook dispatcher, when it runs. */
  dispatcher: WebhookDispatcher | undefined;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Run the webhook dispatcher in this process (default true); tests drive their own. */
  dispatcher?: boolean;
}

export async function startServer(deps: AppDeps, listen: { port: number; host: string }, options: ServerOptions = {}): Promise<Server> {
  const app = await buildApp(deps);
  await app.fastify.listen({ port: listen.port, host: listen.host });
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const url = `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`;
  const dispatcher = options.dispatcher === false ? undefined : new WebhookDispatcher(dispatcherOptionsOf(deps));
  dispatcher?.start();
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    dispatcher,
    close() {
      closing ??= (async () => {
        await app.fastify.close();
        // In-flight deliveries finish and are recorded before the database closes.
        await dispatcher?.stop();
        await deps.database.close();
      })();
      return closing;
    },
  };
}
