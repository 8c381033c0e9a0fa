import http from 'node:http';
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A scenario's requests: the i-th request to send (lets a scenario rotate keys, tokens, slots). */
export type RequestSource = (i: number) => RequestSpec;

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  /** Only from fixed-rate runs (autocannon reports no 95th percentile); NaN otherwise. */
  p95: number;
  p99: number;
  p999: number;
  errors: number;
  /** Non-2xx responses, by status. */
  statuses: Record<string, number>;
  /**
   * Fixed-rate runs: the seconds of the run (by when each request was due) that had requests slower
   * than SLOW_MS, with how many — where the tail sits in time (one burst, or spread).
   */
  slowBySecond?: Record<number, number>;
  /** Fixed-rate runs: requests answered (or failed) more than DOOR_DEADLINE_MS after they were due. */
  overDoorDeadline?: number;
  /** Fixed-rate runs: how late the sender itself sent (ms after due; p99): a starved load generator. */
  sendLagP99?: number;
  /** Fixed-rate runs: TCP connections the load opened (after `preconnect`'s, which are not counted). */
  connectionsOpened?: number;
}

/** A door gives up on a request after this long (docs/devices.md) and decides offline. */
export const DOOR_DEADLINE_MS = 5_000;

/** A fixed-rate request slower than this counts in `slowBySecond` (ms; `BENCH_SLOW_MS`, default 20). */
export const SLOW_MS = slowMs(process.env.BENCH_SLOW_MS);

function slowMs(given: string | undefined): number {
  if (given === undefined) return 20;
  const ms = Number(given);
  if (!(ms > 0)) throw new Error(`BENCH_SLOW_MS must be a positive number of milliseconds, not "${given}"`);
  return ms;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/**
 * Saturation: as many requests as `connections` keep-alive connections can carry (autocannon,
 * closed loop). Latencies are autocannon's (ms).
 */
export async function saturate(
  baseUrl: string,
  source: RequestSource,
  options: { seconds: number; connections?: number },
): Promise<LoadResult> {
  let i = 0;
  const statuses: Record<string, number> = {};
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections ?? 32,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const spec = source(i++);
          return {
            ...request,
            method: spec.method,
            path: spec.path,
            headers: { ...(spec.headers ?? {}) },
            body: spec.body,
          };
        },
        onResponse: (status: number) => {
          if (status < 200 || status >= 300) statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  });
  const latency = result.latency as unknown as Record<string, number>;
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: latency.p50,
    p95: NaN,
    p99: latency.p99,
    p999: latency.p99_9 ?? latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    statuses,
  };
}

/** The loopback addresses a fixed-rate load sends from (127.0.1.1–8; Linux answers all of 127/8). */
const LOAD_ADDRESSES = Array.from({ length: 8 }, (_, k) => `127.0.1.${k + 1}`);

/**
 * Fixed rate, open loop: request i is due at start + i/rate and is sent then whether or not
 * earlier ones have answered; its latency counts from that due time (so a stalled server or a
 * late sender shows up as latency, not as a lower rate). Resolution: nanoseconds (hrtime).
 */
export async function fixedRate(
  baseUrl: string,
  source: RequestSource,
  options: {
    rate: number;
    seconds: number;
    /**
     * Open this many keep-alive connections before the run (spread over the addresses), as a fleet
     * of doors holds one each; the load then opens none unless the server closes them. Without it,
     * connections are opened as the load needs them, and a server that stalls sees a burst of new
     * connections (up to 1,024) exactly when it can least accept them.
     */
    preconnect?: number;
  },
): Promise<LoadResult> {
  const url = new URL(baseUrl);
  // A fleet's requests come from many addresses (venues, integrators), not one: the sockets are
  // spread over loopback addresses of their own, at most 128 each, so two fixed-rate loads at once
  // stay under MAX_CONNECTIONS_PER_ADDRESS (1,000) however far the server falls behind. From one
  // address, up to 1,024 sockets per load went past it, and the server refused the extra ones
  // (ECONNRESET in round fifteen's door runs; its log said MAX_CONNECTIONS_PER_ADDRESS reached).
  const agents = LOAD_ADDRESSES.map(
    (localAddress) => new http.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 128, localAddress }),
  );
  const known = new WeakSet();
  if (options.preconnect) await preconnect(url, agents, options.preconnect, known);
  let connectionsOpened = 0;
  const sendLags: number[] = [];
  const total = Math.round(options.rate * options.seconds);
  const latencies = new Float64Array(total);
  const statuses: Record<string, number> = {};
  let errors = 0;
  let done = 0;
  let sent = 0;
  const intervalNs = 1e9 / options.rate;
  const start = process.hrtime.bigint() + 20_000_000n;

  await new Promise<void>((resolve) => {
    const send = (index: number, due: bigint) => {
      const spec = source(index);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: spec.method,
          path: spec.path,
          headers: {
            ...(spec.headers ?? {}),
            ...(spec.body ? { 'content-length': Buffer.byteLength(spec.body) } : {}),
          },
          agent: agents[index % agents.length],
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies[index] = Number(process.hrtime.bigint() - due) / 1e6;
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              errors += 1;
              statuses[status] = (statuses[status] ?? 0) + 1;
            }
            if (++done === total) resolve();
          });
        },
      );
      sendLags.push(Number(process.hrtime.bigint() - due) / 1e6);
      req.on('socket', (socket) => {
        if (known.has(socket)) return;
        known.add(socket);
        connectionsOpened += 1;
      });
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', (error: NodeJS.ErrnoException) => {
        latencies[index] = Number(process.hrtime.bigint() - due) / 1e6;
        errors += 1;
        // Named by what went wrong (ECONNRESET, ECONNREFUSED, timeout, …), so a failed run says why.
        const key = `error ${error.code ?? error.message}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (++done === total) resolve();
      });
      if (spec.body) req.end(spec.body);
      else req.end();
    };
    const tick = () => {
      const now = process.hrtime.bigint();
      while (sent < total) {
        const due = start + BigInt(Math.round(sent * intervalNs));
        if (due > now) break;
        send(sent, due);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  for (const agent of agents) agent.destroy();
  const slowBySecond: Record<number, number> = {};
  latencies.forEach((ms, index) => {
    if (ms <= SLOW_MS) return;
    const second = Math.floor(index / options.rate);
    slowBySecond[second] = (slowBySecond[second] ?? 0) + 1;
  });
  const sorted = latencies.slice().sort();
  const lags = Float64Array.from(sendLags).sort();
  return {
    slowBySecond,
    overDoorDeadline: latencies.reduce((n, ms) => n + (ms > DOOR_DEADLINE_MS ? 1 : 0), 0),
    sendLagP99: percentile(lags, 99),
    connectionsOpened,
    requests: total,
    rps: total / options.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    errors,
    statuses,
  };
}

/** Opens `count` connections over the agents (a request each, all at once) and leaves them idle in their agents. */
async function preconnect(url: URL, agents: http.Agent[], count: number, known: WeakSet<object>): Promise<void> {
  await Promise.all(
    Array.from(
      { length: count },
      (_, k) =>
        new Promise<void>((resolve, reject) => {
          const req = http.request(
            { host: url.hostname, port: url.port, method: 'GET', path: '/healthz', agent: agents[k % agents.length] },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('socket', (socket) => known.add(socket));
          req.on('error', reject);
          req.end();
        }),
    ),
  );
}

/** Polls `done` every 2 ms until it holds (true) or `ms` have passed (false). */
export async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}
