#!/usr/bin/env node
// A smoke run of a built Portier (dist/) on the Node.js that runs this script:
//   /path/to/node scripts/smoke.mjs [project directory, default: this script's checkout]
// It starts `npm start`'s command on a free port with a fresh embedded database (PGlite), which
// applies the migrations and seeds the demo tenant, then: books through the REST API, registers and
// activates a device and has it check the booking's QR token at a door, signs in to the dashboard
// with the demo admin's password, and reads the OAuth metadata; then starts `npm run worker`'s
// command on the same data and scrapes its GET /metrics (WORKER_METRICS_PORT). Any failure exits non-zero.
// Plain JavaScript, no dependencies: it runs in a production install (npm ci --omit=dev).
// docs/deployment.md, "Supported runtimes" and "Production install"; .ci/run runs it on Node 22 and 24.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const started = Date.now();
const say = (line) => process.stdout.write(`[smoke ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
const fail = (message) => {
  throw new Error(message);
};

function freePort() {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** An npm script's node arguments, from package.json (the smoke starts processes exactly so). */
function nodeArgsOf(script) {
  const [command, ...args] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts[script].split(/\s+/);
  if (command !== 'node') fail(`npm run ${script} is expected to run node, not: ${command}`);
  return args;
}

/** Starts `npm run <script>`'s command with `env`; its output so far, a wait for a line, a stop. */
function start(script, env) {
  const child = spawn(process.execPath, nodeArgsOf(script), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { out: '', err: '' };
  child.stdout.on('data', (chunk) => (proc.out += chunk));
  child.stderr.on('data', (chunk) => (proc.err += chunk));
  const exited = new Promise((done) => child.on('close', (code) => done(code)));
  proc.waitFor = async (line) => {
    const deadline = Date.now() + 180_000;
    // The banner is on stdout, the log (pino) on stderr.
    while (!proc.out.includes(line) && !proc.err.includes(line)) {
      if (child.exitCode !== null)
        fail(`npm run ${script} exited (${child.exitCode}) before "${line}":\n${proc.out}\n${proc.err}`);
      if (Date.now() > deadline) fail(`npm run ${script}: no "${line}" within 180 s:\n${proc.out}\n${proc.err}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  proc.stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return proc;
}

async function main() {
  say(`node ${process.version} (${process.execPath}), project ${root}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portier-smoke-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start('start', { PORT: String(port), PGLITE_DIR: dataDir });
  let worker;
  let err = '';
  try {
    await server.waitFor('Portier is listening');
    const out = server.out;
    const migrations = /"applied":\[([^\]]*)\]/.exec(server.err);
    if (!migrations) fail(`no "migrations applied" line in the log:\n${server.err}`);
    say(`started on ${base}; migrations applied: ${migrations[1].split(',').length}`);
    const field = (name) =>
      /^\s*([\w-]+)/.exec(
        out
          .split('\n')
          .find((l) => l.trimStart().startsWith(`${name}:`))
          ?.split(':')
          .slice(1)
          .join(':') ?? '',
      )?.[1] ?? fail(`the demo banner has no ${name}`);
    const tenantId = field('tenantId');
    const apiKey = field('apiKey');
    const email = /email:\s+(\S+)/.exec(out)?.[1] ?? fail('the demo banner has no email');
    const password = /password:\s+(\S+)/.exec(out)?.[1] ?? fail('the demo banner has no password');
    const objectId = /objects:\s+([\w-]+)/.exec(out)?.[1] ?? fail('the demo banner has no objects');
    const doorId = /doors:\s+([\w-]+)/.exec(out)?.[1] ?? fail('the demo banner has no doors');

    const call = async (method, path, { body, headers = {}, key = apiKey } = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    };
    const expectStatus = (res, status, what) => {
      if (res.status !== status) fail(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
      return res;
    };

    // Book: three days ahead at 10:00 UTC (inside the demo's opening hours), then confirm.
    const slot = new Date(Date.now() + 3 * 86_400_000);
    slot.setUTCHours(10, 0, 0, 0);
    const booked = expectStatus(
      await call('POST', `/api/v1/tenants/${tenantId}/bookings`, {
        body: {
          objectId,
          guestName: 'Smoke Test',
          guestEmail: 'smoke@example.com',
          startTime: slot.toISOString(),
          endTime: new Date(slot.getTime() + 3_600_000).toISOString(),
        },
      }),
      201,
      'POST …/bookings',
    );
    const bookingId = booked.json.booking.id;
    expectStatus(
      await call('PATCH', `/api/v1/tenants/${tenantId}/bookings/${bookingId}`, { body: { status: 'CONFIRMED' } }),
      200,
      'confirming the booking',
    );
    say(`booked ${bookingId} (${slot.toISOString()}) and confirmed it`);

    // Door check: a device for the demo door, activated, checks the booking's QR token.
    const credentials = expectStatus(
      await call('GET', `/api/v1/tenants/${tenantId}/bookings/${bookingId}/credentials`),
      200,
      'GET …/credentials',
    );
    const registered = expectStatus(
      await call('POST', '/api/v1/graphql', {
        body: {
          query:
            'mutation Register($doorIds: [ID!]!) { registerDevice(name: "Smoke gate", doorIds: $doorIds) { activationCode device { id } } }',
          variables: { doorIds: [doorId] },
        },
      }),
      200,
      'registerDevice',
    );
    const activationCode =
      registered.json?.data?.registerDevice?.activationCode ?? fail(`registerDevice: ${registered.text}`);
    const activated = expectStatus(
      await call('POST', '/api/devices/activate', {
        key: null,
        body: { activation_code: activationCode, serial: 'SMOKE-1', firmware_version: '1.0.0' },
      }),
      200,
      'POST /api/devices/activate',
    );
    const check = expectStatus(
      await call('POST', `/api/devices/${activated.json.device_id}/access-check`, {
        key: activated.json.device_key,
        body: { token: credentials.json.qrCode.token, doorId },
      }),
      200,
      'POST …/access-check',
    );
    if (typeof check.json?.allowed !== 'boolean') fail(`access-check answered no decision: ${check.text}`);
    // The booking starts in three days: the door says so (not an unknown or invalid token).
    if (check.json.allowed || ['invalid_token', 'unknown_token'].includes(check.json.reason))
      fail(`unexpected door decision: ${check.text}`);
    say(`door check: allowed=${check.json.allowed} reason=${check.json.reason}`);

    // Dashboard sign-in with the demo admin's password; the session cookie then reads the session.
    const signIn = expectStatus(
      await call('POST', '/dashboard/api/session', { key: null, headers: { origin: base }, body: { email, password } }),
      200,
      'dashboard sign-in (POST /dashboard/api/session)',
    );
    const cookie = (signIn.headers.getSetCookie?.() ?? [signIn.headers.get('set-cookie') ?? ''])
      .map((c) => c.split(';')[0])
      .join('; ');
    const session = expectStatus(
      await call('GET', '/dashboard/api/session', { key: null, headers: { cookie } }),
      200,
      'GET /dashboard/api/session',
    );
    if (session.json?.user?.email !== email) fail(`the session is not the demo admin's: ${session.text}`);
    expectStatus(await call('GET', '/dashboard', { key: null }), 200, 'GET /dashboard');
    say(`signed in to the dashboard as ${email}`);

    // The API reference's renderer comes from the build's copy (dist/vendor/): no @scalar/api-reference installed.
    const renderer = expectStatus(
      await call('GET', '/api/docs/scalar.js', { key: null }),
      200,
      'GET /api/docs/scalar.js',
    );
    if (renderer.text.length < 100_000) fail(`the API reference's renderer is only ${renderer.text.length} characters`);

    // OAuth authorization server metadata (RFC 8414).
    const metadata = expectStatus(
      await call('GET', '/.well-known/oauth-authorization-server', { key: null }),
      200,
      'OAuth metadata',
    );
    if (!metadata.json?.issuer || !metadata.json?.token_endpoint)
      fail(`OAuth metadata without issuer or token_endpoint: ${metadata.text}`);
    say(`OAuth metadata: issuer ${metadata.json.issuer}`);

    const code = await server.stop();
    err = server.err;
    if (code !== 0) fail(`the server exited ${code} on SIGTERM:\n${server.err}`);
    const warnings = server.err
      .split('\n')
      .filter((l) => /warn|unsupported/i.test(l) && !l.startsWith('{"level":30'))
      .slice(0, 5);
    say(
      `server stopped cleanly${warnings.length ? `; stderr warnings:\n  ${warnings.join('\n  ')}` : '; no warnings on stderr'}`,
    );

    // The worker, on the same data (PGlite: one process at a time), serving GET /metrics.
    const metricsPort = await freePort();
    const token = 'smoke-metrics-token-0123456789';
    worker = start('worker', { PGLITE_DIR: dataDir, WORKER_METRICS_PORT: String(metricsPort), METRICS_TOKEN: token });
    await worker.waitFor('webhook worker started');
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await scraped.text();
    if (scraped.status !== 200 || !text.includes('portier_webhook_delivery_attempts_total'))
      fail(`the worker's GET /metrics: ${scraped.status} ${text.slice(0, 300)}`);
    const workerCode = await worker.stop();
    err = worker.err;
    if (workerCode !== 0) fail(`the worker exited ${workerCode} on SIGTERM:\n${worker.err}`);
    say(
      `worker started, served /metrics (${text.split('\n').filter((l) => l.startsWith('# TYPE')).length} metrics) and stopped cleanly`,
    );
    say('PASS');
  } catch (error) {
    await server.stop();
    await worker?.stop();
    err ||= server.err;
    process.stdout.write(`[smoke] FAIL on node ${process.version}: ${error.message}\n`);
    if (err) process.stdout.write(`--- stderr ---\n${err.slice(-4000)}\n`);
    process.exitCode = 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
