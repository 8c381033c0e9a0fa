import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServerProcess, finished, freePort, tempDir, ROOT, START_ARGS, childEnv } from './processes.js';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

// The service as a user starts it (README: `npm start`), on a
// fresh embedded database in a temporary PGLITE_DIR, whichever database the suite itself uses.

const started: ServerProcess[] = [];
const start = (env: Record<string, string>) => {
  const server = new ServerProcess(env);
  started.push(server);
  return server;
};

const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the server process on a fresh embedded database', () => {
  it('refuses a busy PORT without seeding, then prints a demo key once, answers on PORT, refuses a second process on the same directory, and keeps its data across a restart', async () => {
    const dir = tempDir('e2e');
    dirs.push(dir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;

    // A start that cannot listen fails clearly, releases the directory and seeds no demo tenant
    // (its key would never be shown).
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const blocked = await finished(
      spawn(process.execPath, START_ARGS, { cwd: ROOT, env: childEnv({ PGLITE_DIR: dir, PORT: String(port) }) }),
    );
    await new Promise((resolve) => blocker.close(resolve));
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toContain('EADDRINUSE');
    expect(blocked.stdout).not.toContain('apiKey');
    expect(existsSync(join(dir, 'portier.lock'))).toBe(false);

    const server = start({ PGLITE_DIR: dir, PORT: String(port) });

    const [, tenantId] = await server.waitFor('stdout', /tenantId: (\S+)/);
    const [, apiKey] = await server.waitFor('stdout', /apiKey: +(svc_\S+)/);
    const [, objects] = await server.waitFor('stdout', /objects: +(.+)\n/);
    await server.waitFor('stdout', /Try: curl/);
    const [objectId, secondObjectId] = objects.split(',').map((s) => s.trim());
    expect(secondObjectId).toBeTruthy();
    // the key is shown once, on stdout only; logs (stderr) never carry it
    expect(server.stdout.split(apiKey).length - 1).toBe(2); // the key line and the curl example
    expect(server.stderr).not.toContain(apiKey);

    const auth = { authorization: `Bearer ${apiKey}` };
    const hours = await fetch(`${base}/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`, {
      headers: auth,
    });
    expect(hours.status).toBe(200);
    const body = await hours.json();
    expect(body.schedule.monday).toEqual({ open: '08:00', close: '22:00' });
    expect(body.specialDates).toEqual([]);

    const graphql = await fetch(`${base}/api/v1/graphql`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ viewer { id } accommodations { name timeZone objects { id name pricePerHour } } }',
      }),
    });
    expect(graphql.status).toBe(200);
    const { data } = await graphql.json();
    expect(data.viewer.id).toBe(tenantId);
    expect(data.accommodations).toEqual([
      {
        name: 'Sportpark Demo',
        timeZone: 'Europe/Berlin',
        objects: [
          { id: objectId, name: 'Court 1', pricePerHour: 2000 },
          { id: secondObjectId, name: 'Court 2', pricePerHour: 2000 },
        ],
      },
    ]);
    const unauthenticated = await fetch(`${base}/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`);
    expect(unauthenticated.status).toBe(401);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    // The demo admin signs in to the dashboard with the password printed once (stdout only).
    const [, dashboard] = await server.waitFor('stdout', /dashboard: +(\S+)/);
    expect(dashboard).toBe(`${base}/dashboard`);
    // Issue #41: the demo's booking page is printed and serves both courts.
    const [, bookingPage] = await server.waitFor('stdout', /booking page \(for guests\): +(\S+)/);
    expect(bookingPage).toBe(`${base}/book/sportpark-demo`);
    const guestPage = await fetch(bookingPage);
    expect(guestPage.status).toBe(200);
    expect(await guestPage.text()).toContain('Court 2');
    const [, email] = await server.waitFor('stdout', /email: +(\S+)/);
    const [, password] = await server.waitFor('stdout', /password: +(\S+)/);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(server.stdout.split(password).length - 1).toBe(1);
    expect(server.stderr).not.toContain(password);
    const signIn = await fetch(`${base}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    expect((await signIn.json()).user).toMatchObject({ email, role: 'admin' });

    // A second process on the same directory is refused, naming it.
    const second = await finished(
      spawn(process.execPath, START_ARGS, {
        cwd: ROOT,
        env: childEnv({ PGLITE_DIR: dir, PORT: String(await freePort()) }),
      }),
    );
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(dir);
    expect(second.stderr).toMatch(/in use by another Portier process/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    // SIGTERM stops it cleanly and releases the directory; the secret stays, mode 0600.
    expect(await server.stop()).toBe(0);
    expect(existsSync(join(dir, 'portier.lock'))).toBe(false);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);

    // A restart keeps the data and creates no second demo tenant.
    const restarted = start({ PGLITE_DIR: dir, PORT: String(port) });
    await restarted.waitFor('stderr', /Portier is listening/);
    const again = await fetch(`${base}/api/v1/tenants/${tenantId}/objects/${objectId}/opening-hours`, {
      headers: auth,
    });
    expect(again.status).toBe(200);
    expect(await restarted.stop()).toBe(0);
    expect(restarted.stdout).not.toContain('apiKey');
  }, 600_000);
});

describe('start-up refusals', () => {
  it('with DATABASE_URL and no PORTIER_SECRET the start stops with a clear message', { timeout: 180_000 }, async () => {
    const result = await finished(
      spawn(process.execPath, START_ARGS, {
        cwd: ROOT,
        env: childEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORT: '0' }),
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('PORTIER_SECRET is required when DATABASE_URL is set');
  });
});
