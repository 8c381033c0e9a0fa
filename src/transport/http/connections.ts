import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { problem } from '../../kernel/errors.js';

export { descriptorLimit } from '../../kernel/descriptors.js';

// Open connections and slow clients (docs/operations.md#connections-and-timeouts): a cap on open
// connections, server-wide and per client address, that fits the process's descriptor limit, and
// the problem+json answers Node's HTTP parser gives before fastify sees a request.

/**
 * Descriptors kept free for everything that is not a client connection: database connections,
 * PGlite's files, Redis, outgoing webhook and mail connections, logs.
 */
export const DESCRIPTOR_RESERVE = 128;
/** The server-wide cap is never lowered below this, whatever `ulimit -n` says. */
const MIN_CONNECTIONS = 16;

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Why the configured cap was lowered, when it was. */
  lowered?: { configured: number; descriptorLimit: number };
}

/**
 * The caps to apply: the configured ones, with the server-wide cap lowered so that it and the
 * reserve fit the descriptor limit (unknown limit: as configured), and the per-address cap never
 * above the server-wide one.
 */
export function connectionLimits(
  configured: { maxConnections: number; maxConnectionsPerAddress: number },
  descriptorLimit: number | undefined,
): ConnectionLimits {
  let maxConnections = configured.maxConnections;
  let lowered: ConnectionLimits['lowered'];
  if (descriptorLimit !== undefined && maxConnections + DESCRIPTOR_RESERVE > descriptorLimit) {
    maxConnections = Math.max(MIN_CONNECTIONS, descriptorLimit - DESCRIPTOR_RESERVE);
    lowered = { configured: configured.maxConnections, descriptorLimit };
  }
  return {
    maxConnections,
    maxConnectionsPerAddress: Math.min(configured.maxConnectionsPerAddress, maxConnections),
    ...(lowered ? { lowered } : {}),
  };
}

/**
 * Applies the caps to the listening server: Node closes a connection past `maxConnections` as soon
 * as it is accepted; one past the per-address cap is closed here. Both are counted in
 * `connectionsRefused` (read by tests and logs).
 */
export function enforceConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  log: FastifyBaseLogger,
): { refused(): number } {
  server.maxConnections = limits.maxConnections;
  const perAddress = new Map<string, number>();
  let refused = 0;
  const lastWarning = new Map<string, number>();
  const warn = (message: string, fields: Record<string, unknown>) => {
    refused += 1;
    // One line per cap per 10 s at most: a flood must not turn into a flood of log lines.
    if (Date.now() - (lastWarning.get(message) ?? 0) < 10_000) return;
    lastWarning.set(message, Date.now());
    log.warn({ ...fields, refusedSoFar: refused }, message);
  };
  // An accept that fails (EMFILE/ENFILE when every descriptor is in use and libuv's spare one is
  // gone too) is emitted as 'error' on the server, which with no listener would end the process.
  // The listener keeps listening: the next accept succeeds once descriptors are free again.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall === 'accept') warn('connection refused: accept failed', { code: error.code });
    else log.error({ err: error }, 'listener error');
  });
  server.on('drop', (data?: { remoteAddress?: string }) =>
    warn('connection refused: MAX_CONNECTIONS reached', {
      remoteAddress: data?.remoteAddress,
      limit: limits.maxConnections,
    }),
  );
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerAddress) {
      warn('connection refused: MAX_CONNECTIONS_PER_ADDRESS reached', {
        remoteAddress: address,
        limit: limits.maxConnectionsPerAddress,
      });
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  return { refused: () => refused };
}

/**
 * Closes a connection that has not sent a whole request head within `timeoutMs` of opening. Node's
 * headersTimeout is checked on the requests its parser has started, and which connections count as
 * started has changed between Node versions; a connection that never sends a byte must not hold a
 * descriptor (and a place under the caps) for good, whichever Node runs. The timer is the
 * connection's own, cleared at its first request (or WebSocket upgrade); later idle time on a
 * keep-alive connection is keepAliveTimeout's.
 */
export function closeSilentConnections(server: Server, timeoutMs: number): { closed(): number } {
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  let closed = 0;
  const clear = (socket: Socket) => {
    const timer = timers.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.delete(socket);
  };
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    const timer = setTimeout(() => {
      timers.delete(socket);
      if (socket.destroyed) return;
      closed += 1;
      socket.destroy();
    }, timeoutMs);
    timer.unref();
    timers.set(socket, timer);
    socket.once('close', () => clear(socket));
  });
  server.on('request', (req: IncomingMessage) => clear(req.socket));
  server.on('upgrade', (req: IncomingMessage) => clear(req.socket));
  return { closed: () => closed };
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    detail: 'The request did not arrive in time (REQUEST_TIMEOUT_SECONDS, HEADERS_TIMEOUT_SECONDS)',
  },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', detail: 'The request headers are larger than 16 KiB' },
};

/**
 * fastify's clientErrorHandler: what Node's HTTP parser refuses (a request that did not arrive in
 * time, headers too large, a malformed request) is answered problem+json, then the connection is
 * closed.
 */
export function clientErrorHandler(
  this: { log: FastifyBaseLogger },
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || {
    status: 400,
    code: 'bad_request',
    detail: 'The request is not valid HTTP/1.1',
  };
  this.log.debug({ err: error }, 'client error');
  if (socket.writable && !(socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    const body = JSON.stringify(problem(known.status, known.code, known.detail));
    const reason =
      known.status === 408
        ? 'Request Timeout'
        : known.status === 431
          ? 'Request Header Fields Too Large'
          : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${known.status} ${reason}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
