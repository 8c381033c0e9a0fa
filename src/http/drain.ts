import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem } from '../errors.js';

/** The longest a shutdown waits for accepted connections that have not sent their request yet. */
export const ACCEPTED_CONNECTION_GRACE_MS = 1_000;
/**
 * How long idle keep-alive connections stay open after the signal before they are closed: a client
 * that just got a response may already have sent its next request on the connection, and closing
 * it under that request would reset it. Long enough for a request on its way, short enough to be
 * "at once" for a pooled connection.
 */
export const KEEP_ALIVE_GRACE_MS = 250;

export interface GracefulClose {
  /**
   * Answers every request still in progress 503 (problem+json, Connection: close) and resolves
   * once those responses are written: the last act before a shutdown that ran out of time exits.
   * Returns how many requests were answered so.
   */
  answerUnfinished(): Promise<number>;
}

/**
 * Graceful close of the HTTP listener. Node's server.close() destroys every connection without a
 * request in progress — also one the server accepted a moment ago whose request is still on its
 * way, and a keep-alive connection whose next request is. So on close: stop accepting connections
 * first; from then on every response carries Connection: close (so each connection ends after its
 * response, whenever the request arrived); give accepted connections up to
 * ACCEPTED_CONNECTION_GRACE_MS to deliver their first request and keep-alive connections
 * KEEP_ALIVE_GRACE_MS for a request already on its way; only then let fastify close the idle
 * connections and wait for the requests in flight. (fastify is built with return503OnClosing
 * false: those late requests are served.)
 */
export function registerGracefulClose(app: FastifyInstance): GracefulClose {
  const waiting = new Set<Socket>();
  const inFlight = new Set<FastifyReply>();
  let draining = false;
  app.server.on('connection', (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  app.server.on('request', (req: { socket: Socket }) => waiting.delete(req.socket));

  app.addHook('onRequest', async (_req, reply) => {
    inFlight.add(reply);
    reply.raw.once('close', () => inFlight.delete(reply));
  });
  app.addHook('onSend', async (req, reply) => {
    if (draining && req.raw.httpVersionMajor < 2) reply.header('connection', 'close');
  });

  app.addHook('preClose', async () => {
    draining = true;
    if (!app.server.listening) return;
    NetServer.prototype.close.call(app.server);
    const keepAliveUntil = Date.now() + KEEP_ALIVE_GRACE_MS;
    const acceptedUntil = Date.now() + ACCEPTED_CONNECTION_GRACE_MS;
    while (Date.now() < keepAliveUntil || (waiting.size > 0 && Date.now() < acceptedUntil)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  return {
    async answerUnfinished() {
      const unfinished = [...inFlight].filter((reply) => !reply.raw.headersSent && !reply.raw.writableEnded);
      const body = JSON.stringify(problem(503, 'shutting_down', 'The server is shutting down and this request ran past its deadline; retry it'));
      await Promise.all(
        unfinished.map(
          (reply) =>
            new Promise<void>((resolve) => {
              const res = reply.raw;
              res.once('close', () => resolve());
              res.writeHead(503, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close', 'retry-after': '1', 'x-request-id': String(reply.request.id) });
              res.end(body, () => resolve());
            }),
        ),
      );
      return unfinished.length;
    },
  };
}
