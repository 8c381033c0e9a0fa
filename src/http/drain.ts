import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The longest a shutdown waits for accepted connections that have not sent their request yet. */
export const ACCEPTED_CONNECTION_GRACE_MS = 1_000;

/**
 * Graceful close of the HTTP listener. Node's server.close() destroys every connection without a
 * request in progress — also one the server accepted a moment ago whose request is still on its
 * way. So on close: stop accepting connections first, give the accepted ones up to
 * ACCEPTED_CONNECTION_GRACE_MS to deliver their request, and only then let fastify close idle
 * connections and wait for the requests in flight. (fastify is built with return503OnClosing
 * false: those late requests are served, with Connection: close.)
 */
export function registerGracefulClose(app: FastifyInstance): void {
  const waiting = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  app.server.on('request', (req: { socket: Socket }) => waiting.delete(req.socket));

  app.addHook('preClose', async () => {
    if (!app.server.listening) return;
    NetServer.prototype.close.call(app.server);
    const deadline = Date.now() + ACCEPTED_CONNECTION_GRACE_MS;
    while (waiting.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
}
