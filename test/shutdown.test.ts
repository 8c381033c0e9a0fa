import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { send, startServerProcess, type Outcome, type ServerProcess } from './server-process.js';

// The real server process on a temporary embedded database: SIGTERM arrives while a burst of
// requests is being served. Every request the server accepted (it logged "incoming request" for
// its X-Request-Id) must get its whole response, and the process must exit 0.

const dir = mkdtempSync(join(tmpdir(), 'portier-shutdown-'));
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('finishes every accepted request, stops, and exits 0', { timeout: 420_000 }, async () => {
    server = await startServerProcess({ PGLITE_DIR: dir, RATE_LIMIT_PER_MINUTE: '1000000' });
    // The banner is printed before the "listening" line, but through another pipe.
    for (let waited = 0; waited < 30_000 && !server.stdout.join('').includes('objects:'); waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    const banner = server.stdout.join('');
    const apiKey = /apiKey:\s+(svc_\S+)/.exec(banner)?.[1];
    const tenantId = /tenantId:\s+(\S+)/.exec(banner)?.[1];
    const objectId = /objects:\s+([0-9a-f-]{36})/.exec(banner)?.[1];
    expect(apiKey && tenantId && objectId, `demo banner: ${banner}`).toBeTruthy();
    const auth = { authorization: `Bearer ${apiKey}` };
    const introspection = JSON.stringify({ query: getIntrospectionQuery() });
    const running = server;

    const burst = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => {
        const id = `${prefix}-${i}`;
        switch (i % 3) {
          case 0:
            return send(`${running.url}/api/v1/graphql`, { method: 'POST', headers: auth, body: introspection, id });
          case 1:
            return send(`${running.url}/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`, {
              headers: auth,
              id,
            });
          default:
            return send(`${running.url}/readyz`, { id });
        }
      });

    // One request is certainly in flight when the signal arrives: its body is only half sent.
    const shuttingDown = running.waitForLog((line) => String(line.msg).startsWith('shutting down'));
    const slow = send(`${running.url}/api/v1/graphql`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ query: '{ viewer { id name } }' }),
      id: 'slow',
      pauseBody: shuttingDown,
    });
    await running.waitForLog((line) => line.msg === 'incoming request' && line.reqId === 'slow');

    const before = burst('before', 60);
    let seen = 0;
    await running.waitForLog(
      (line) => line.msg === 'incoming request' && String(line.reqId).startsWith('before-') && ++seen >= 10,
    );
    running.child.kill('SIGTERM');
    await shuttingDown;
    const after = burst('after', 15);
    const outcomes: Outcome[] = await Promise.all([slow, ...before, ...after]);
    const exitCode = await running.exited;

    const accepted = new Set(running.logs.filter((l) => l.msg === 'incoming request').map((l) => String(l.reqId)));
    const signalAt = running.logs.findIndex((l) => String(l.msg).startsWith('shutting down'));

    // The request in flight at the signal was finished after it, completely.
    expect(outcomes[0]).toMatchObject({ id: 'slow', status: 200, complete: true });
    expect(JSON.parse(outcomes[0].body!).data.viewer.id).toBe(tenantId);
    expect(running.logs.findIndex((l) => l.msg === 'request completed' && l.reqId === 'slow')).toBeGreaterThan(
      signalAt,
    );

    // Each accepted request got its whole response; nothing was cut off half-way.
    for (const outcome of outcomes) {
      if (accepted.has(outcome.id)) {
        expect(outcome, `accepted request ${outcome.id}`).toMatchObject({ complete: true });
        expect(() => JSON.parse(outcome.body!)).not.toThrow();
      }
      if (outcome.status !== undefined) expect(outcome.complete, `${outcome.id}: ${outcome.error}`).toBe(true);
    }
    expect(outcomes.filter((o) => accepted.has(o.id) && o.status === 200).length).toBeGreaterThan(10);
    // Connections the server never took (the listener was closed, or they still sat in the
    // kernel's queue) were refused or reset before any byte of a response: never half-served.
    for (const outcome of outcomes.filter((o) => !accepted.has(o.id))) {
      expect(outcome.status, `${outcome.id}: ${outcome.body}`).toBeUndefined();
      expect(outcome.error, outcome.id).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
    }

    expect(exitCode).toBe(0);
    expect(running.logs.some((l) => l.msg === 'stopped')).toBe(true);
  });
});
