import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, databaseSettings } from '../processes.js';
import { startServerProcess } from '../server-process.js';

// The SDKs of optional integrations are loaded only when configured, and then on first use
// (docs/performance.md, round thirteen: ~8 MB of an idle server's heap): Stripe with the first
// payment call, nodemailer with the first mail, the OpenTelemetry SDK at start when
// OTEL_EXPORTER_OTLP_ENDPOINT is set. A real server process (dist/) records what it imports.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function importsOf(env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'portier-imports-'));
  dirs.push(dir);
  const file = join(dir, 'imports.txt');
  const settings = await databaseSettings();
  if (settings.pgliteDir) dirs.push(settings.pgliteDir);
  const server = await startServerProcess({
    ...settings.env,
    ...env,
    NODE_OPTIONS: `--import ${join(ROOT, 'test/fixtures/record-imports.mjs')}`,
    RECORD_IMPORTS_FILE: file,
  });
  try {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
  } finally {
    await server.stop();
  }
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

const loads = (imports: string[], pkg: string) => imports.some((url) => url.includes(`/node_modules/${pkg}/`));

describe('optional SDKs', () => {
  it('a server with payments, mail and tracing configured loads none of their SDKs until used, but for tracing at start', async () => {
    const bare = await importsOf({});
    // The recording works: the server's own modules and its database driver are there.
    expect(bare.some((url) => url.endsWith('/dist/src/main.js'))).toBe(true);
    expect(loads(bare, 'kysely')).toBe(true);
    for (const pkg of [
      'stripe',
      'nodemailer',
      '@opentelemetry/sdk-trace-node',
      '@opentelemetry/exporter-trace-otlp-http',
    ])
      expect(loads(bare, pkg), pkg).toBe(false);

    const configured = await importsOf({
      STRIPE_SECRET_KEY: 'sk_test_sdk_loading',
      STRIPE_WEBHOOK_SECRET: 'whsec_sdk_loading',
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'bookings@example.com',
      // Nothing listens there: the spans of the start are lost, the server runs on.
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
    });
    expect(loads(configured, 'stripe')).toBe(false);
    expect(loads(configured, 'nodemailer')).toBe(false);
    expect(loads(configured, '@opentelemetry/sdk-trace-node')).toBe(true);
  });
});
