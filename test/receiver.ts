import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A local webhook receiver on 127.0.0.1 for delivery tests.

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Resolve this to answer; until then the request hangs (a slow receiver). */
  hold?: Promise<void>;
}

export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  /** How to answer each request; 204 by default. */
  reply: (request: ReceivedRequest) => Reply = () => ({ status: 204 });
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];
  port = 0;

  /** Listens on 127.0.0.1 (on the same port again after stop(), when it had one). */
  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(received);
        this.waiters = this.waiters.filter((w) => (this.requests.length >= w.count ? (w.resolve(), false) : true));
        const reply = this.reply(received);
        const answer = () => {
          res.writeHead(reply.status, reply.headers ?? {});
          res.end(reply.body ?? '');
        };
        if (reply.hold) reply.hold.then(answer, answer);
        else answer();
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening (connections are refused) and drops open connections. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have arrived in all. */
  received(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** The parsed bodies, in arrival order. */
  // The payloads' data is asserted by each test's expect(), field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  bodies(): { id: string; type: string; timestamp: string; data: Record<string, any> }[] {
    return this.requests.map((r) => JSON.parse(r.body));
  }
}

/** A promise with its resolve function, to hold a receiver's answer. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
