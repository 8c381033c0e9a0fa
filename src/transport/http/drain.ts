import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem } from '../../kernel/errors.js';

/** The longest a shutdown waits for accepted connections that have not sent their request yet. */
export const ACCEPTED_CONNECTION_GRACE_MS = 1_000;
/**
 * An idle keep-alive connection is closed once its last response is this old: a client that just
 * got a response may already have sent its next request on the connection, and closing it under
 * that request would reset it. A connection idle for longer (a pooled one) is closed at once.
 */
export const KEEP_ALIVE_GRACE_MS = 1_000;

/** What the drain knows of a connection that carried requests. */
interface ConnectionState {
  active: number;
  /** When its last response was written. */
  doneAt: number;
  /** socket.bytesRead then: more bytes since mean a next request is arriving. */
  bytesAtDone: number;
}

/**
 * While draining, a request whose body is still arriving this long after the drain began (or after
 * it started, if later) is answered 503 shutting_down and its connection closed: a client that
 * stalls its body must not hold the shutdown until its deadline.
 */
export const STALLED_BODY_GRACE_MS = 5_000;

export interface GracefulClose {
  /** True from the first moment of a shutdown: /readyz answers 503, every response says Connection: close. */
  readonly draining: boolean;
  /** Requests received and not yet answered (readiness bounds it: READINESS_MAX_REQUESTS_IN_FLIGHT). */
  readonly inFlight: number;
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
 * response, whenever the request arrived); close each idle keep-alive connection once its last
 * response is KEEP_ALIVE_GRACE_MS old (at once for a pooled one) unless a request arrives on it;
 * give accepted connections up to ACCEPTED_CONNECTION_GRACE_MS to deliver their first request;
 * only then let fastify close what is still idle and wait for the requests in flight. (fastify is built with return503OnClosing
 * false: those late requests are served.)
 */
export function registerGracefulClose(app: FastifyInstance): GracefulClose {
  const waiting = new Set<Socket>();
  const connections = new Map<Socket, ConnectionState>();
  const inFlight = new Set<FastifyReply>();
  let draining = false;
  app.server.on('connection', (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => {
      waiting.delete(socket);
      connections.delete(socket);
    });
  });
  const started = new WeakMap<IncomingMessage, number>();
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    started.set(req, Date.now());
    // Node writes Connection: close itself for a response that must not keep its connection.
    if (draining) res.shouldKeepAlive = false;
    waiting.delete(socket);
    const state = connections.get(socket) ?? { active: 0, doneAt: 0, bytesAtDone: 0 };
    connections.set(socket, state);
    state.active += 1;
    res.once('close', () => {
      state.active -= 1;
      state.doneAt = Date.now();
      state.bytesAtDone = socket.bytesRead;
    });
  });
  /** Closes keep-alive connections with nothing in progress whose last response is old enough; true while young ones remain. */
  const closeIdleKeepAlive = (): boolean => {
    let young = false;
    for (const [socket, state] of connections) {
      if (state.active > 0 || socket.bytesRead !== state.bytesAtDone) continue;
      if (Date.now() - state.doneAt >= KEEP_ALIVE_GRACE_MS) socket.destroy();
      else young = true;
    }
    return young;
  };

  app.addHook('onRequest', async (_req, reply) => {
    inFlight.add(reply);
    reply.raw.once('close', () => inFlight.delete(reply));
  });
  app.addHook('onSend', async (req, reply) => {
    if (draining && req.raw.httpVersionMajor < 2) reply.header('connection', 'close');
  });

  /** During the drain: requests whose body stalls past STALLED_BODY_GRACE_MS are answered 503 and their connections closed. */
  let drainStartedAt = 0;
  const cutStalledBodies = () => {
    const now = Date.now();
    for (const reply of inFlight) {
      const req = reply.request.raw;
      if (req.complete || reply.raw.headersSent || reply.raw.writableEnded) continue;
      if (now - Math.max(drainStartedAt, started.get(req) ?? 0) < STALLED_BODY_GRACE_MS) continue;
      inFlight.delete(reply);
      void answer(reply, true);
    }
  };

  app.addHook('preClose', async () => {
    draining = true;
    drainStartedAt = Date.now();
    // Responses already under way (headers not yet written) end their connections too.
    for (const reply of inFlight) if (!reply.raw.headersSent) reply.raw.shouldKeepAlive = false;
    const watch = setInterval(cutStalledBodies, 250);
    watch.unref();
    app.server.once('close', () => clearInterval(watch));
    if (!app.server.listening) return;
    NetServer.prototype.close.call(app.server);
    const acceptedUntil = Date.now() + ACCEPTED_CONNECTION_GRACE_MS;
    while (closeIdleKeepAlive() || (waiting.size > 0 && Date.now() < acceptedUntil)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  const answer = (reply: FastifyReply, stalled: boolean) =>
    new Promise<void>((resolve) => {
      const res = reply.raw;
      const detail = stalled
        ? 'The server is shutting down and this request’s body did not arrive; retry it'
        : 'The server is shutting down and this request ran past its deadline; retry it';
      const body = JSON.stringify(problem(503, 'shutting_down', detail));
      res.once('close', () => resolve());
      res.writeHead(503, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
        'retry-after': '1',
        'x-content-type-options': 'nosniff',
        'x-request-id': reply.request.id,
      });
      // A stalled body is never read to its end: the connection is closed once the answer is out.
      res.end(body, () => {
        if (stalled) res.socket?.destroySoon();
        resolve();
      });
    });

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    async answerUnfinished() {
      const unfinished = [...inFlight].filter((reply) => !reply.raw.headersSent && !reply.raw.writableEnded);
      await Promise.all(unfinished.map((reply) => answer(reply, false)));
      return unfinished.length;
    },
  };
}
