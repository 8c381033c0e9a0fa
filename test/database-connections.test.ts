import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { onPostgres, runDatabaseUrl } from './worker-services.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { readEnv } from '../src/kernel/env.js';
import { DEFAULT_POOL_IDLE_MS, openDatabase } from '../src/kernel/db/database.js';

// A pooled PostgreSQL connection can break while it sits idle: PostgreSQL restarts, an
// administrator runs pg_terminate_backend, a proxy or a failover drops it. The pool then emits
// 'error'; unobserved, that ends the process. The server must log it, replace the connection on
// the next query and go on answering. PostgreSQL only: PGlite has no connections to break.

const title = onPostgres
  ? 'a server whose idle database connections are terminated'
  : 'a server whose idle database connections are terminated — SKIPPED: needs DATABASE_URL (PostgreSQL); PGlite has no connections';
if (!onPostgres) console.info(title);

describe.skipIf(!onPostgres)(title, () => {
  const applicationName = `portier-broken-connections-${process.pid}`;
  let server: ServerProcess;
  let admin: pg.Client;
  let h: Harness;

  beforeAll(async () => {
    h = await harness();
    const url = new URL((await runDatabaseUrl()) ?? '');
    url.searchParams.set('application_name', applicationName);
    server = await startServerProcess({
      DATABASE_URL: url.toString(),
      PORTIER_SECRET: 'broken-connections-secret-0123456789',
    });
    admin = new pg.Client({ connectionString: inject('postgresRun')?.adminUrl });
    await admin.connect();
  });

  afterAll(async () => {
    await admin.end();
    await server.stop();
  });

  const terminate = async () => {
    const { rows } = await admin.query<{ terminated: boolean }>(
      'select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return rows.filter((row) => row.terminated).length;
  };

  it('logs each broken connection, stays up, and answers the next requests from new connections', async () => {
    // Several requests at once, so the pool holds more than one idle connection.
    const ready = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/readyz`)));
    expect(ready.map((res) => res.status)).toEqual([200, 200, 200, 200]);

    expect(await terminate()).toBeGreaterThan(0);
    await server.waitForLog(
      (line) => line.msg === 'a database connection broke; the pool opens a new one on the next query',
      30_000,
    );

    for (let round = 0; round < 3; round += 1) {
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(200);
    }
    expect(server.child.exitCode).toBeNull();

    // And again, with connections the pool opened after the first break.
    expect(await terminate()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });

  it('answers a readiness probe sent the moment its pooled connections are ended: the probe tries a fresh connection', async () => {
    for (let round = 0; round < 5; round += 1) {
      const warm = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/readyz`)));
      expect(warm.map((res) => res.status)).toEqual([200, 200, 200, 200]);
      expect(await terminate()).toBeGreaterThan(0);
      const probes = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/readyz`)));
      expect(probes.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    }
    expect(server.child.exitCode).toBeNull();
  });

  it('answers API reads caught by a broken connection 503 with Retry-After (never 500), and the retry succeeds', async () => {
    const v = await buildVenue(h);
    const auth = { authorization: `Bearer ${v.apiKey}` };
    const rest = () => fetch(`${server.url}/api/v1/tenants/${v.tenantId}/bookings?pageSize=5`, { headers: auth });
    const graphql = () =>
      fetch(`${server.url}/api/v1/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ bookableObjects { id } }` }),
      });
    const seen = new Set<number>();
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(Array.from({ length: 4 }, rest));
      expect(await terminate()).toBeGreaterThan(0);
      const answers = await Promise.all([rest(), graphql(), rest(), graphql()]);
      for (const res of answers) {
        seen.add(res.status);
        const body = (await res.json()) as { code?: string; errors?: { extensions?: { reason?: string } }[] };
        if (res.status !== 200 || body.errors) {
          expect(res.status === 503 || res.status === 200).toBe(true);
          expect(body.code ?? body.errors?.[0]?.extensions?.reason).toBe('database_unavailable');
          if (res.status === 503) expect(res.headers.get('retry-after')).toBe('1');
        }
      }
      // The retry a client makes as told (Retry-After: 1) succeeds: by then the pool has dropped
      // every connection the termination broke (it learns of each asynchronously, from its socket).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await rest()).status).toBe(200);
      expect((await graphql()).status).toBe(200);
    }
    expect(seen.has(500)).toBe(false);
    expect(server.child.exitCode).toBeNull();
  });
});

// Idle pooled connections are closed after DATABASE_POOL_IDLE_SECONDS (default 300 s, was
// node-postgres' 10 s, which cost the door's tail: docs/deployment.md#connections).
describe.skipIf(!onPostgres)('idle pooled connections', () => {
  it('are kept 300 s by default and closed after DATABASE_POOL_IDLE_SECONDS', async () => {
    expect(readEnv({}).databasePoolIdleSeconds).toBe(300);
    expect(readEnv({ DATABASE_POOL_IDLE_SECONDS: '0' }).databasePoolIdleSeconds).toBe(0);
    for (const wrong of ['-1', '1.5', 'ten'])
      expect(() => readEnv({ DATABASE_POOL_IDLE_SECONDS: wrong })).toThrow(
        `DATABASE_POOL_IDLE_SECONDS must be 0 or a positive integer, got "${wrong}"`,
      );
    const keeping = await openDatabase({ databaseUrl: (await runDatabaseUrl()) ?? '' });
    expect(keeping.pool.options.idleTimeoutMillis).toBe(DEFAULT_POOL_IDLE_MS);
    await keeping.close();

    const applicationName = `portier-idle-connections-${process.pid}`;
    const url = new URL((await runDatabaseUrl()) ?? '');
    url.searchParams.set('application_name', applicationName);
    const server = await startServerProcess({
      DATABASE_URL: url.toString(),
      PORTIER_SECRET: 'idle-connections-secret-0123456789',
      DATABASE_POOL_IDLE_SECONDS: '1',
    });
    const admin = new pg.Client({ connectionString: inject('postgresRun')?.adminUrl });
    await admin.connect();
    try {
      // The pool's connections (not the dispatcher's listening one, which is not pooled).
      const pooled = async () =>
        Number(
          (
            await admin.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where application_name = $1 and query not like 'LISTEN%'`,
              [applicationName],
            )
          ).rows[0].n,
        );
      // Eight reads at once open several pooled connections.
      const v = await buildVenue(await harness());
      const reads = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${server.url}/api/v1/tenants/${v.tenantId}/bookings?pageSize=5`, {
            headers: { authorization: `Bearer ${v.apiKey}` },
          }),
        ),
      );
      expect(reads.map((res) => res.status)).toEqual(Array(8).fill(200));
      const opened = await pooled();
      expect(opened).toBeGreaterThan(1);
      // Then, idle, they close. The background jobs' polls (webhooks, notifications, refunds, the
      // live event tail) reuse one or two, so the count alone cannot tell: what must never be
      // seen is a pooled connection idle for well over DATABASE_POOL_IDLE_SECONDS.
      const staleIdle = async () =>
        Number(
          (
            await admin.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where application_name = $1 and query not like 'LISTEN%'
                 and state = 'idle' and state_change < now() - interval '4 seconds'`,
              [applicationName],
            )
          ).rows[0].n,
        );
      const deadline = Date.now() + 30_000;
      while ((await pooled()) > 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await pooled()).toBeLessThanOrEqual(2);
      for (let i = 0; i < 12; i += 1) {
        expect(await staleIdle()).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await admin.end();
      await server.stop();
    }
  });
});
