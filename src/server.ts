import type { AppDeps } from './deps.js';
import { buildApp, type App } from './http/app.js';

// The composition root: the HTTP host (fastify + yoga + SOFA + hand-written routes) and the
// background workers that run in the same process.

export interface Server {
  app: App;
  url: string;
  close(): Promise<void>;
}

export async function startServer(deps: AppDeps, listen: { port: number; host: string }): Promise<Server> {
  const app = await buildApp(deps);
  await app.fastify.listen({ port: listen.port, host: listen.host });
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const url = `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    close() {
      closing ??= (async () => {
        await app.fastify.close();
        await deps.database.close();
      })();
      return closing;
    },
  };
}
