import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { onPostgres, runDatabaseUrl, workerRedisUrl } from './worker-services.js';
import { buildVenue } from './builders.js';
import { send, startServerProcess, type ServerProcess } from './server-process.js';

// Two real server processes on one PostgreSQL database and one Redis spend one budget per key.
// CI's PostgreSQL run sets both DATABASE_URL and REDIS_URL; without them this is skipped.

const redisUrl = workerRedisUrl();
const runnable = Boolean(onPostgres && redisUrl);
const title = runnable
  ? 'two server processes sharing Redis'
  : 'two server processes sharing Redis — SKIPPED: set REDIS_URL and DATABASE_URL (PostgreSQL) to run it';

if (!runnable) console.info(title);

describe.skipIf(!runnable)(title, () => {
  let h: Harness;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    h = await harness();
    const env = {
      DATABASE_URL: (await runDatabaseUrl()) ?? '',
      REDIS_URL: redisUrl ?? '',
      PORTIER_SECRET: 'shared-secret-of-both-processes-0123',
      RATE_LIMIT_PER_MINUTE: '10',
    };
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  }, 300_000);

  afterAll(async () => {
    const codes = await Promise.all(servers.map((s) => s.stop()));
    expect(codes).toEqual(servers.map(() => 0));
  });

  it('share one budget per API key', { timeout: 60_000 }, async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const path = `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`;
    const results: { status?: number; remaining?: unknown; limit?: unknown }[] = [];
    for (let i = 0; i < 12; i += 1) {
      // Alternate between the two processes.
      const outcome = await send(servers[i % 2].url + path, {
        headers: { authorization: `Bearer ${apiKey}` },
        id: `shared-${i}`,
      });
      results.push({
        status: outcome.status,
        remaining: outcome.headers?.['x-ratelimit-remaining'],
        limit: outcome.headers?.['x-ratelimit-limit'],
      });
    }
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(results.map((r) => r.remaining)).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0', '0', '0']);
    expect(results.every((r) => r.limit === '10')).toBe(true);
  });
});
