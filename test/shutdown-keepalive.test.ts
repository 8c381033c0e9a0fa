import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harness } from './harness.js';
import { onPostgres, runDatabaseUrl } from './worker-services.js';
import { buildVenue } from './builders.js';
import { send, startServerProcess, type ServerProcess } from './server-process.js';

// Finding 6 of issue 12: SIGTERM under keep-alive load (20 connections) on the suite's database
// (PGlite: a server on its own directory; PostgreSQL: the suite's database). No request whose
// bytes the server received is reset, responses during the drain say Connection: close, an idle
// keep-alive connection is closed at once, and the process exits 0; a request that outlives
// SHUTDOWN_TIMEOUT_SECONDS is answered 503 before the exit.

const dirs: string[] = [];
const servers: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Target {
  env: Record<string, string>;
  /** A GET path that reads the database, and its credentials. */
  path: (server: ServerProcess) => { path: string; headers: Record<string, string> };
}

async function target(): Promise<Target> {
  const common = { RATE_LIMIT_PER_MINUTE: '1000000' };
  const databaseUrl = await runDatabaseUrl();
  if (databaseUrl) {
    const h = await harness();
    const venue = await buildVenue(h);
    return {
      env: { ...common, DATABASE_URL: databaseUrl, PORTIER_SECRET: 'shutdown-test-secret-0123456789' },
      path: () => ({
        path: `/api/v1/tenants/${venue.tenantId}/objects/${venue.object.id}/opening-hours`,
        headers: { authorization: `Bearer ${venue.apiKey}` },
      }),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'portier-keepalive-'));
  dirs.push(dir);
  return {
    env: { ...common, PGLITE_DIR: dir },
    path: (server) => {
      const banner = server.stdout.join('');
      const apiKey = /apiKey:\s+(svc_\S+)/.exec(banner)?.[1] ?? '';
      const tenantId = /tenantId:\s+(\S+)/.exec(banner)?.[1] ?? '';
      const objectId = /objects:\s+([0-9a-f-]{36})/.exec(banner)?.[1] ?? '';
      return {
        path: `/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`,
        headers: { authorization: `Bearer ${apiKey}` },
      };
    },
  };
}

/**
 * The demo banner (stdout) and the "listening" log line (stderr) come through two pipes, so the
 * banner may arrive a moment after the line the start waited for; PostgreSQL starts print none.
 */
async function bannerPrinted(server: ServerProcess, env: Record<string, string>): Promise<void> {
  if (!env.PGLITE_DIR) return;
  for (let waited = 0; waited < 30_000 && !server.stdout.join('').includes('objects:'); waited += 50)
    await new Promise((r) => setTimeout(r, 50));
}

interface Outcome {
  id: string;
  status?: number;
  connection?: string;
  complete: boolean;
  /** The request went out on a connection that had carried an earlier one. */
  reused: boolean;
  error?: string;
}

/** One GET through a keep-alive agent. */
function get(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  id: string,
  onSocket?: (socket: Socket) => void,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    let reused = false;
    const done = (outcome: Omit<Outcome, 'id' | 'reused'>) => {
      if (!settled) resolve({ id, reused, ...outcome });
      settled = true;
    };
    const req = httpRequest(url, { agent, headers: { ...headers, 'x-request-id': id } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        done({ status: res.statusCode, connection: res.headers.connection, complete: res.complete && body.length > 0 }),
      );
      res.on('error', (error: NodeJS.ErrnoException) =>
        done({ status: res.statusCode, complete: false, error: error.code ?? error.message }),
      );
    });
    req.on('socket', (socket: Socket) => {
      reused = req.reusedSocket;
      onSocket?.(socket);
    });
    req.on('error', (error: NodeJS.ErrnoException) => done({ complete: false, error: error.code ?? error.message }));
    req.end();
  });
}

async function until(what: string, check: () => boolean, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe(`SIGTERM under keep-alive load on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let settings: Target;
  beforeAll(async () => {
    settings = await target();
  });

  it(
    'resets nothing, says Connection: close while draining, closes idle connections at once, and exits 0',
    { timeout: 420_000 },
    async () => {
      const server = await startServerProcess(settings.env);
      servers.push(server);
      await bannerPrinted(server, settings.env);
      const { path, headers } = settings.path(server);
      const url = server.url + path;

      // An idle keep-alive connection: one request, then it sits in its agent's pool.
      const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      let idleSocket: Socket | undefined;
      expect((await get(idleAgent, url, headers, 'idle-0', (socket) => (idleSocket = socket))).status).toBe(200);
      let idleClosed = false;
      idleSocket?.once('close', () => (idleClosed = true));

      // A request in flight at the signal: its body arrives only after the idle connection was closed.
      const shuttingDown = server.waitForLog((line) => String(line.msg).startsWith('shutting down'));
      const idleClosedAfterSignal = shuttingDown.then(() =>
        until('the idle connection to be closed', () => idleClosed),
      );
      const slow = send(`${server.url}/api/v1/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: '{ viewer { id } }' }),
        id: 'slow',
        pauseBody: idleClosedAfterSignal,
      });
      await server.waitForLog((line) => line.msg === 'incoming request' && line.reqId === 'slow');

      // 20 keep-alive connections, each sending requests back to back until the server is gone.
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      const outcomes: Outcome[] = [];
      const workers = Array.from({ length: 20 }, async (_, w) => {
        for (let n = 0; n < 100_000; n += 1) {
          const outcome = await get(agent, url, headers, `c${w}-${n}`);
          outcomes.push(outcome);
          if (outcome.error) return;
        }
      });
      await until(
        'load on every connection',
        () => outcomes.filter((o) => o.status === 200).length >= 200 && outcomes.filter((o) => o.reused).length >= 100,
      );

      server.child.kill('SIGTERM');
      await idleClosedAfterSignal;
      const slowOutcome = await slow;
      await Promise.all(workers);
      const exitCode = await server.exited;
      agent.destroy();
      idleAgent.destroy();

      // The idle connection was closed while a request was still in flight: at once, not at the end.
      expect(slowOutcome).toMatchObject({ id: 'slow', status: 200, complete: true });
      expect(slowOutcome.headers?.connection).toBe('close');

      const resets = outcomes.filter((o) => o.error && o.error !== 'ECONNREFUSED');
      expect(resets, JSON.stringify(resets.slice(0, 5))).toEqual([]);
      // Every request the server took in got its whole response.
      const accepted = new Set(server.logs.filter((l) => l.msg === 'incoming request').map((l) => String(l.reqId)));
      for (const outcome of outcomes) {
        if (accepted.has(outcome.id)) expect(outcome, outcome.id).toMatchObject({ complete: true });
        else expect(outcome.error, outcome.id).toBe('ECONNREFUSED');
      }
      // Responses completed after the signal told the client to close the connection.
      const signalAt = server.logs.findIndex((l) => String(l.msg).startsWith('shutting down'));
      const drained = new Set(
        server.logs
          .slice(signalAt)
          .filter((l) => l.msg === 'request completed')
          .map((l) => String(l.reqId)),
      );
      const duringDrain = outcomes.filter((o) => drained.has(o.id));
      expect(duringDrain.length).toBeGreaterThan(0);
      for (const outcome of duringDrain) expect(outcome.connection, outcome.id).toBe('close');
      // Each of the 20 connections ended with a refused new connection, not a reset.
      expect(outcomes.filter((o) => o.error === 'ECONNREFUSED')).toHaveLength(20);

      expect(exitCode).toBe(0);
      expect(server.logs.some((l) => l.msg === 'stopped')).toBe(true);
      console.info(
        `keep-alive shutdown on ${onPostgres ? 'PostgreSQL' : 'PGlite'}: ${outcomes.length} requests, ${duringDrain.length} answered while draining, ${resets.length} resets, exit ${exitCode}`,
      );
    },
  );

  it('answers a request that outlives SHUTDOWN_TIMEOUT_SECONDS 503 before exiting', { timeout: 420_000 }, async () => {
    const server = await startServerProcess({ ...settings.env, SHUTDOWN_TIMEOUT_SECONDS: '2' });
    servers.push(server);
    // Its body never completes, so it is still running at the deadline (a route without credentials).
    const body = JSON.stringify({
      activation_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG',
      serial: 'SN',
      firmware_version: '1',
    });
    const stuck = send(`${server.url}/api/devices/activate`, {
      method: 'POST',
      body,
      id: 'stuck',
      pauseBody: new Promise(() => {}),
    });
    await server.waitForLog((line) => line.msg === 'incoming request' && line.reqId === 'stuck');
    server.child.kill('SIGTERM');
    const outcome = await stuck;
    expect(outcome).toMatchObject({ status: 503, complete: true });
    expect(outcome.headers?.connection).toBe('close');
    expect(outcome.headers?.['content-type']).toContain('application/problem+json');
    expect(JSON.parse(outcome.body ?? '{}')).toMatchObject({ status: 503, code: 'shutting_down' });
    expect(await server.exited).toBe(1);
    expect(server.logs.some((l) => l.msg === 'unfinished requests answered 503' && l.answered === 1)).toBe(true);
  });
});
