import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET } from './builders.js';
import { ROOT, childEnv, databaseSettings, finished, freePort } from './processes.js';
import { onPostgres } from './worker-services.js';
import { Receiver } from './receiver.js';
import { createWebhook, recordEvent } from '../src/modules/webhooks/index.js';
import { ServerSecret } from '../src/kernel/crypto.js';
import { lintExposition, parseExposition, promtoolAvailable, promtoolCheck } from './prom-lint.js';

// `npm run worker` serves GET /metrics on its own port (WORKER_METRICS_PORT, docs/operations.md),
// with METRICS_TOKEN like the API. On PostgreSQL the worker delivers a webhook of this test's
// tenant and counts it; PGlite lets one process open a directory, so there the worker has its own.

const TOKEN = 'worker-metrics-token-0123456789';

let h: Harness;
let port: number;
let workerSecret: string | undefined;
let stopWorker: (() => Promise<number | null>) | undefined;
const receiver = new Receiver();

beforeAll(async () => {
  h = await harness();
  await receiver.start();
  port = await freePort();
  const { env } = await databaseSettings();
  workerSecret = env.PORTIER_SECRET;
  const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: childEnv({
      ...env,
      LOG_LEVEL: 'info',
      METRICS_TOKEN: TOKEN,
      WORKER_METRICS_PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  worker.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  worker.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)));
  stopWorker = () => {
    if (worker.exitCode === null) worker.kill('SIGTERM');
    return exited;
  };
  const deadline = Date.now() + 240_000;
  while (!log.includes('webhook worker started')) {
    if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`worker did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(log).toContain(`"metrics":"http://127.0.0.1:${port}/metrics"`);
}, 300_000);

afterAll(async () => {
  expect(await stopWorker?.()).toBe(0);
  await receiver.stop();
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, path = '/metrics') =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers });

describe('the worker’s GET /metrics', () => {
  it('needs METRICS_TOKEN as a bearer token and serves nothing else', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }] as Record<string, string>[]) {
      const res = await scrape(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toContain('METRICS_TOKEN');
    }
    expect((await scrape(undefined, '/api/v1/graphql')).status).toBe(404);
  });

  it('serves the process’s metrics, named by the rules promtool applies', async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(lintExposition(text, { prefix: 'portier_' })).toEqual([]);
    if (promtoolAvailable()) expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
    const families = parseExposition(text);
    for (const outcome of ['success', 'failure', 'given_up']) {
      expect(
        families.get('portier_webhook_delivery_attempts_total')?.samples.find((s) => s.labels.outcome === outcome)
          ?.value,
      ).toBeGreaterThanOrEqual(0);
    }
    expect(families.get('portier_process_resident_memory_bytes')?.samples[0]?.value).toBeGreaterThan(0);
  });

  it.skipIf(!onPostgres)(
    'counts the webhook attempts it made (PostgreSQL: the worker shares the test’s database)',
    { timeout: 60_000 },
    async () => {
      const successes = async () => {
        const text = await (await scrape()).text();
        return parseExposition(text)
          .get('portier_webhook_delivery_attempts_total')!
          .samples.find((s) => s.labels.outcome === 'success')!.value;
      };
      const before = await successes();
      const { tenantId } = await h.tenant();
      // Sealed with the worker's PORTIER_SECRET (the harness has its own), so the worker can sign.
      const deps = { ...h.deps, secret: new ServerSecret(workerSecret!) };
      await createWebhook(h.deps.database.db, deps, tenantId, {
        url: receiver.url('/worker-metrics'),
        events: ['booking.created'],
        secret: WEBHOOK_SECRET,
      });
      await recordEvent(h.deps.database.db, tenantId, 'booking.created', { booking: { id: 'b-worker' } });
      const deadline = Date.now() + 45_000;
      while (!receiver.requests.some((r) => r.path === '/worker-metrics')) {
        if (Date.now() > deadline) throw new Error('the worker did not deliver the event');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The attempt is counted once its outcome is recorded, just after the receiver answered.
      for (let n = 0; n < 50 && (await successes()) === before; n += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await successes()) - before).toBeGreaterThanOrEqual(1);
    },
  );
});

describe('WORKER_METRICS_PORT', () => {
  it(
    'needs METRICS_TOKEN and a port number (the worker refuses to start, naming the variable)',
    { timeout: 120_000 },
    async () => {
      for (const [env, message] of [
        [{ WORKER_METRICS_PORT: '9464' }, 'WORKER_METRICS_PORT needs METRICS_TOKEN'],
        [{ WORKER_METRICS_PORT: 'x', METRICS_TOKEN: TOKEN }, 'WORKER_METRICS_PORT must be a positive integer'],
        [{ WORKER_METRICS_PORT: '70000', METRICS_TOKEN: TOKEN }, 'WORKER_METRICS_PORT must be a port number'],
      ] as const) {
        const run = await finished(
          spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
            cwd: ROOT,
            env: childEnv({ PGLITE_DIR: 'memory://', ...env }),
          }),
        );
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toContain(`Portier worker failed to start: ${message}`);
      }
    },
  );
});
