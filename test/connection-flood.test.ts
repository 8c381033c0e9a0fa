import { connect, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseSettings } from './processes.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

// Issue #23, findings 7 and 8, against the built server process (dist/), on the worker's database
// (PostgreSQL when DATABASE_URL is set, else a fresh PGlite directory): a connection flood under a
// lowered `ulimit -n`, slow clients, and SIGTERM with a stalled request body.

const running: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of running) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>, openFilesLimit?: number): Promise<ServerProcess> {
  const { env: database, pgliteDir } = await databaseSettings();
  if (pgliteDir) dirs.push(pgliteDir);
  const server = await startServerProcess({ ...database, ...env }, { openFilesLimit });
  running.push(server);
  return server;
}

const portOf = (url: string) => Number(new URL(url).port);

/** Opens a socket (from `localAddress`); resolves once it is connected or has failed. */
function openSocket(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

/** Everything the server writes to the socket until it closes it. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

async function healthz(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return 0;
  }
}

describe('#23 finding 7: a connection flood', () => {
  it(
    'under ulimit -n 1024: the cap is lowered at start-up, the process survives 1,200 idle connections from three addresses, and serves /healthz once they close',
    { timeout: 420_000 },
    async () => {
      const server = await start(
        { MAX_CONNECTIONS_PER_ADDRESS: '300', HEADERS_TIMEOUT_SECONDS: '120', REQUEST_TIMEOUT_SECONDS: '120' },
        // Not lower: Node 20's ESM loader reads ~550 module files at once while the server starts.
        1024,
      );
      const lowered = await server.waitForLog((line) => String(line.msg).startsWith('MAX_CONNECTIONS lowered'));
      expect(lowered).toMatchObject({ descriptorLimit: 1024, maxConnections: 896, configured: 10_000 });

      const port = portOf(server.url);
      const sockets: Socket[] = [];
      for (let i = 0; i < 400; i += 1) sockets.push(await openSocket(port, '127.0.0.1'));
      for (let i = 0; i < 400; i += 1) sockets.push(await openSocket(port, '127.0.0.2'));
      for (let i = 0; i < 400; i += 1) sockets.push(await openSocket(port, '127.0.0.3'));
      await server.waitForLog((line) => line.msg === 'connection refused: MAX_CONNECTIONS_PER_ADDRESS reached', 60_000);
      await server.waitForLog((line) => line.msg === 'connection refused: MAX_CONNECTIONS reached', 60_000);
      // Past every timer tick (the load-shedding sample runs each second): still alive.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(server.child.exitCode).toBeNull();
      // pino writes levels as numbers: 50 error, 60 fatal.
      expect(server.logs.filter((line) => Number(line.level) >= 50 || String(line.msg).includes('uncaught'))).toEqual(
        [],
      );

      for (const socket of sockets) socket.destroy();
      let status = 0;
      for (let attempt = 0; attempt < 120 && status !== 200; attempt += 1) {
        status = await healthz(server.url);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(status).toBe(200);
      expect(await server.stop()).toBe(0);
    },
  );
});

describe('#23 finding 8: slow clients and a stalled body', () => {
  it(
    'a body that never finishes, slowloris headers and a silent connection are cut off with 408 problem+json',
    { timeout: 420_000 },
    async () => {
      const server = await start({ HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2' });
      const port = portOf(server.url);

      const stalled = await openSocket(port, '127.0.0.1');
      const stalledAnswer = readUntilClosed(stalled);
      stalled.write(
        'POST /api/devices/activate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );

      const slowloris = await openSocket(port, '127.0.0.1');
      const slowlorisAnswer = readUntilClosed(slowloris);
      slowloris.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => slowloris.writable && slowloris.write('X-A: b\r\n'), 200);

      const silent = await openSocket(port, '127.0.0.1');
      const silentAnswer = readUntilClosed(silent);

      const [body, headers] = await Promise.all([stalledAnswer, slowlorisAnswer]);
      clearInterval(drip);
      expect(body).toMatch(/^HTTP\/1\.1 408 /);
      expect(body).toContain('application/problem+json');
      expect(body).toContain('"code":"request_timeout"');
      expect(headers).toMatch(/^HTTP\/1\.1 408 /);
      await silentAnswer; // closed by the server, not by this test
      expect(await healthz(server.url)).toBe(200);
    },
  );

  it(
    'SIGTERM exits 0 within its deadline although a client stalls its body (the nc case of the issue)',
    { timeout: 420_000 },
    async () => {
      const server = await start({ SHUTDOWN_TIMEOUT_SECONDS: '20' });
      const stalled = await openSocket(portOf(server.url), '127.0.0.1');
      const answer = readUntilClosed(stalled);
      stalled.write(
        'POST /api/devices/activate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Request-Id: stalled-body\r\n\r\n{',
      );
      await server.waitForLog((line) => line.msg === 'incoming request' && line.reqId === 'stalled-body', 60_000);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.logs.some((line) => String(line.msg).startsWith('shutdown took too long'))).toBe(false);
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 503 /);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(text).toContain('"code":"shutting_down"');
    },
  );
});
