import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeDeps } from '../src/app/deps.js';
import { startServer } from '../src/app/server.js';
import { harness, type Harness } from './harness.js';

// Issue #42: a connection that never sends a byte must be closed (docs/operations.md#connections-and-timeouts),
// whatever Node's headersTimeout does with it. The server here waits 120 s for headers, so only
// FIRST_REQUEST_TIMEOUT_SECONDS (1 s) can close the silent connection within the test's bound.

let h: Harness;
let server: Awaited<ReturnType<typeof startServer>>;
let port: number;

beforeAll(async () => {
  h = await harness();
  // The shared database stays open: the server's close of it does nothing.
  const database = { ...h.deps.database, close: async () => undefined };
  const env = { ...h.deps.env, headersTimeoutSeconds: 120, requestTimeoutSeconds: 120, firstRequestTimeoutSeconds: 1 };
  server = await startServer(
    composeDeps({ ...h.deps, env, database }),
    { port: 0, host: '127.0.0.1' },
    {
      dispatcher: false,
    },
  );
  port = Number(new URL(server.url).port);
}, 120_000);
afterAll(async () => server?.close());

/** A connected socket, and a promise of everything the server wrote until it closed it. */
function open(): Promise<{ socket: Socket; closed: Promise<string>; isClosed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let text = '';
    let done = false;
    const closed = new Promise<string>((settle) => {
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', () => undefined);
      socket.once('close', () => {
        done = true;
        settle(text);
      });
    });
    socket.once('connect', () => resolve({ socket, closed, isClosed: () => done }));
    socket.once('error', reject);
  });
}

describe('a connection that never sends a byte', () => {
  it('is closed by the server after FIRST_REQUEST_TIMEOUT_SECONDS', { timeout: 120_000 }, async () => {
    const silent = await open();
    await expect.poll(silent.isClosed, { timeout: 60_000, interval: 200 }).toBe(true);
    expect(await silent.closed).toBe('');
  });

  it('a connection that sent its request is served and kept alive past the timeout', { timeout: 120_000 }, async () => {
    const client = await open();
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    // Well past the 1 s first-request timeout, within keepAliveTimeout: still open, and serves again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(client.isClosed()).toBe(false);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const text = await client.closed;
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });
});
