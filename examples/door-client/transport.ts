import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

// How the reference door talks to Portier (docs/devices.md#connections): one kept-alive connection
// reused by every heartbeat and scan, and a connect that gives up after a second and tries again.
//
// A door that opens a connection per request needs the server's accept queue exactly when a busy
// host has stalled the server, and a connection the kernel drops there is retried by TCP after 1 s,
// 3 s and 7 s — past the door's 5 s deadline (issue #42 item 6: p99 7.2 s at 300 checks/s). A
// kept connection skips the queue; a connect that is not accepted within CONNECT_TIMEOUT_MS is
// abandoned and made again, so a dropped SYN costs a second rather than TCP's back-off.

/** Keep an idle connection this long: longer than the heartbeat interval (15 s), shorter than Portier's keep-alive (72 s). */
export const KEEP_ALIVE_MS = 60_000;
/** Abandon a TCP (and TLS) connect not accepted within this long, and make a new one. */
export const CONNECT_TIMEOUT_MS = 1_000;
/** Connects tried per request, while its own deadline (the caller's signal) allows. */
export const CONNECT_ATTEMPTS = 3;

export interface DoorTransportOptions {
  keepAliveMs?: number;
  connectTimeoutMs?: number;
  connectAttempts?: number;
  /** Tests: how a connection is made (default the agent's, net/tls.connect). */
  createConnection?: (options: object) => Socket;
}

export interface DoorTransport {
  /** A `fetch` for DoorClient's `fetch` option: same inputs, a standard Response. */
  fetch: typeof fetch;
  /** Connections opened so far (a reused one counts once). */
  connectionsOpened(): number;
  /** Closes the kept connections. */
  close(): void;
}

class ConnectTimeout extends Error {
  readonly code = 'ECONNTIMEOUT';
}

/** A `fetch` over a keep-alive agent of its own (one per door controller), with connect timeout and retry. */
export function doorTransport(options: DoorTransportOptions = {}): DoorTransport {
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const attempts = options.connectAttempts ?? CONNECT_ATTEMPTS;
  // A few sockets: a heartbeat and a scan may overlap; idle ones are closed after keepAliveMs.
  const agentOptions = { keepAlive: true, maxSockets: 4, maxFreeSockets: 4, timeout: keepAliveMs };
  const agents = {
    'http:': new http.Agent(agentOptions),
    'https:': new https.Agent(agentOptions),
  };
  if (options.createConnection) {
    const create = options.createConnection;
    for (const agent of Object.values(agents))
      (agent as unknown as { createConnection: (o: object) => Socket }).createConnection = (o) => create(o);
  }
  const seen = new WeakSet<Socket>();
  let opened = 0;

  const once = (url: URL, init: RequestInit, body: string | undefined): Promise<Response> =>
    new Promise((resolve, reject) => {
      const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const request = url.protocol === 'https:' ? https.request : http.request;
      const headers = new Headers(init.headers);
      if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
      const req = request(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 502;
          const nullBody = status === 204 || status === 304 || chunks.length === 0;
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      req.on('socket', (socket: Socket) => {
        if (!seen.has(socket)) {
          seen.add(socket);
          opened += 1;
        }
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(new ConnectTimeout(`connect timed out after ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      req.on('error', reject);
      const signal = init.signal;
      if (signal) {
        if (signal.aborted) req.destroy(signal.reason as Error);
        else signal.addEventListener('abort', () => req.destroy(signal.reason as Error), { once: true });
      }
      req.end(body);
    });

  const doorFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
      throw new TypeError('doorTransport sends string bodies only');
    const body = init.body ?? undefined;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await once(url, init, body);
      } catch (error) {
        // Only a connect that never completed is tried again: nothing of the request was sent.
        if (!(error instanceof ConnectTimeout) || attempt >= attempts || init.signal?.aborted) throw error;
      }
    }
  };
  return {
    fetch: doorFetch,
    connectionsOpened: () => opened,
    close: () => {
      for (const agent of Object.values(agents)) agent.destroy();
    },
  };
}
