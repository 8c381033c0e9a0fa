import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { seedDataset } from './dataset.js';
import { seedExtras } from './scenarios/extras.js';
import { accessCheckRequest, heartbeatRequest, type BenchRequest } from './scenarios/devices.js';

// `node --import tsx bench/door-cpu.ts`: the server's CPU time per heartbeat and per access check,
// read from /proc/<pid>/stat (user + system) around a fixed number of requests sent a few at a
// time. CPU time, not latency: on a shared, busy machine a request's wall time says how long the
// server waited for a core, its CPU time what the request cost (docs/performance.md, round eighteen).
// DATABASE_URL: a PostgreSQL server (its database DOOR_CPU_DATABASE, default portier_door_cpu, is
// made again). DOOR_CPU_SERVER: `src` (tsx, default) or `dist` (npm start's build).

const REQUESTS = Number(process.env.DOOR_CPU_REQUESTS ?? 3000);
const CONCURRENCY = 4;
const SECRET = 'door-cpu-secret-0123456789abcdef';
const PORT = 3917;

function cpuMs(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  // utime and stime, fields 14 and 15 (1-based) of stat: 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(r: BenchRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, method: r.method, path: r.path, headers: r.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

async function phase(pid: number, name: string, source: (i: number) => BenchRequest): Promise<void> {
  let next = 0;
  let bad = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= REQUESTS) return;
      if ((await send(source(i))) !== 200) bad += 1;
    }
  };
  const before = cpuMs(pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wall = performance.now() - started;
  const spent = cpuMs(pid) - before;
  process.stdout.write(
    `${name}: ${REQUESTS} requests, ${bad} not 200, server CPU ${spent.toFixed(0)} ms = ${(spent / REQUESTS).toFixed(3)} ms/request (wall ${(wall / 1000).toFixed(1)} s, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})\n`,
  );
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('bench/door-cpu.ts needs DATABASE_URL (PostgreSQL)');
  const name = process.env.DOOR_CPU_DATABASE ?? 'portier_door_cpu';
  const url = new URL(base);
  url.pathname = `/${name}`;
  const fresh = process.env.DOOR_CPU_REUSE !== 'true';
  if (fresh) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: url.toString() });
  await migrateToLatest(database.db);
  const dataset = await seedDataset(database.db);
  const extras = await seedExtras(database.db, dataset, SECRET);
  await sql`VACUUM ANALYZE`.execute(database.db);
  await database.close();

  const args = process.env.DOOR_CPU_SERVER === 'dist' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const server = spawn(process.execPath, args, {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORTIER_SECRET: SECRET,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = server.pid;
  if (pid === undefined) throw new Error('the server did not start');
  try {
    for (let i = 0; ; i += 1) {
      try {
        if ((await send({ method: 'GET', path: '/healthz', headers: {} })) === 200) break;
      } catch {
        // not up yet
      }
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const devices = extras.devices;
    const heartbeat = (i: number) => heartbeatRequest(devices[i % devices.length] ?? devices[0]);
    const check = (i: number) => {
      const device = devices[i % devices.length] ?? devices[0];
      return accessCheckRequest(device, { token: extras.nowTokens[device.objectIndex] ?? '', doorId: device.doorId });
    };
    // Warm-up (JIT, prepared statements on each pooled connection), then the measured phases, twice.
    await phase(pid, 'warm-up heartbeat', heartbeat);
    await phase(pid, 'warm-up access check', check);
    for (let round = 1; round <= 2; round += 1) {
      await phase(pid, `heartbeat, round ${round}`, (i) => heartbeat(i + round * REQUESTS));
      await phase(pid, `access check, round ${round}`, (i) => check(i + round * REQUESTS));
    }
  } finally {
    server.kill('SIGTERM');
    agent.destroy();
  }
}

await main();
