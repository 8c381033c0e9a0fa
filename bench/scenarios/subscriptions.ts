import http from 'node:http';
import type { Dataset } from '../dataset.js';
import { waitUntil } from '../load.js';
import { rssMb, sampleProcess } from '../proc.js';
import { createBookings } from './core.js';

// Subscriptions fan-out (issue #28): 1,000 SSE subscribers of bookingChanged on the one server
// process, then booking changes through the API, each of which must reach all 1,000.
// - The per-key cap (MAX_SUBSCRIPTIONS_PER_KEY, default 20) is kept: 50 API keys with
//   bookings:read are created through the API, 20 subscriptions each, as 50 integrators would;
//   each key's subscribers connect from a loopback address of their own (127.0.0.10–59), as
//   integrators come from their own hosts (MAX_CONNECTIONS_PER_ADDRESS, 1,000, counts per address).
// - Each subscriber is a plain node:http request with a socket of its own (no agent); a chunk is
//   timestamped when it arrives and only the booking id is picked out of it.
// - One unmeasured change first: once all 1,000 have it, every subscription is known to listen.
// - Then CHANGES bookings are created, one every PACE_MS, each request sent on time; a delivery's
//   latency is counted from the creating request's answer (the commit precedes it) and from its
//   sending. Server RSS is read idle, with all connected, after the changes and after closing.

export const SUBSCRIPTIONS_SCENARIO = 'subscriptions: 1000 SSE subscribers, one change → all';
const SUBSCRIBERS = 1_000;
const KEYS = 50;
const CHANGES = 20;
const PACE_MS = 300;
/** Subscriptions opened at once while connecting. */
const OPENING = 50;
/** Far from the create-booking (0…) and webhook (200,000…) scenarios' slots. */
const SLOT_OFFSET = 300_000;
const QUERY = 'subscription { bookingChanged { eventId type booking { id } } }';

export interface SubscriptionsResult {
  subscribers: number;
  changes: number;
  /** Delivery latency after the creating request's answer (after commit), ms, over subscribers × changes. */
  afterCommit: { p50: number; p95: number; p99: number; max: number; count: number };
  /** The same, from when the creating request was sent. */
  afterSent: { p50: number; p95: number; p99: number; max: number };
  /** The creating requests' own latency (sent → answered), ms. */
  requestMs: { p50: number; max: number };
  /** From each change's answer to its last subscriber's arrival, ms: p50 and max over the changes. */
  lastArrival: { p50: number; max: number };
  missing: number;
  duplicates: number;
  /** Opening all subscribers (ms), and refusals while opening. */
  connectMs: number;
  refused: number;
  rss: { idleMb: number; connectedMb: number; afterChangesMb: number; closedMb: number; perSubscriberKb: number };
  /** Server CPU during the measured changes: ms per delivery, and % of one core. */
  cpu: { msPerDelivery: number; percent: number };
  summary: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function graphql(baseUrl: string, apiKey: string, query: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/api/v1/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
  if (!res.ok || body.errors || !body.data) throw new Error(`graphql: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

const BOOKING_ID = '"booking":{"id":"';

/** One SSE subscriber: the arrival time of each booking id it was sent (first arrival), and repeats. */
class Subscriber {
  readonly arrivals = new Map<string, number>();
  duplicates = 0;
  private request: http.ClientRequest | undefined;
  private buffer = '';

  /** Resolves to the status once the server answered (200: the stream is open). */
  open(baseUrl: string, apiKey: string, localAddress: string): Promise<number> {
    const body = JSON.stringify({ query: QUERY });
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${baseUrl}/api/v1/graphql`,
        {
          method: 'POST',
          agent: false,
          localAddress,
          headers: {
            accept: 'text/event-stream',
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => this.onChunk(chunk, performance.now()));
          res.on('error', () => undefined);
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
      this.request = req;
    });
  }

  private onChunk(chunk: string, at: number): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const i = block.indexOf(BOOKING_ID);
      if (i < 0) continue;
      const from = i + BOOKING_ID.length;
      const id = block.slice(from, block.indexOf('"', from));
      if (this.arrivals.has(id)) this.duplicates += 1;
      else this.arrivals.set(id, at);
    }
  }

  close(): void {
    this.request?.destroy();
  }
}

export async function subscriptionsFanOut(
  baseUrl: string,
  d: Dataset,
  serverPid: number,
): Promise<SubscriptionsResult> {
  const keys: string[] = [];
  for (let k = 0; k < KEYS; k += 1) {
    const data = await graphql(
      baseUrl,
      d.apiKey,
      `mutation { createApiKey(name: "bench subscriber ${k + 1}", scopes: ["bookings:read"]) { apiKey } }`,
    );
    keys.push((data.createApiKey as { apiKey: string }).apiKey);
  }
  const source = createBookings(d, SLOT_OFFSET);
  let made = 0;
  const change = async (): Promise<{ id: string; sent: number; answered: number }> => {
    const spec = source(made++);
    const sent = performance.now();
    const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
    const answered = performance.now();
    const body = (await res.json()) as { booking?: { id: string } };
    if (res.status !== 201 || !body.booking) throw new Error(`create booking: ${res.status} ${JSON.stringify(body)}`);
    return { id: body.booking.id, sent, answered };
  };

  await sleep(1000);
  const idleMb = rssMb(serverPid);
  const subscribers = Array.from({ length: SUBSCRIBERS }, () => new Subscriber());
  let refused = 0;
  const connectStart = performance.now();
  try {
    for (let i = 0; i < SUBSCRIBERS; i += OPENING) {
      const statuses = await Promise.all(
        subscribers.slice(i, i + OPENING).map((s, j) => {
          const k = (i + j) % KEYS;
          return s.open(baseUrl, keys[k], `127.0.0.${10 + k}`);
        }),
      );
      refused += statuses.filter((s) => s !== 200).length;
    }
    if (refused > 0) throw new Error(`${refused} of ${SUBSCRIBERS} subscriptions were refused`);
    // The unmeasured change: once every subscriber has it, all of them listen.
    const warm = await change();
    const allListen = await waitUntil(() => subscribers.every((s) => s.arrivals.has(warm.id)), 60_000);
    const connectMs = performance.now() - connectStart;
    if (!allListen)
      throw new Error(
        `only ${subscribers.filter((s) => s.arrivals.has(warm.id)).length} of ${SUBSCRIBERS} subscribers got the first change within 60 s`,
      );
    await sleep(1000);
    const connectedMb = rssMb(serverPid);

    const sampler = sampleProcess(serverPid);
    const t0 = performance.now();
    const pending: Promise<{ id: string; sent: number; answered: number }>[] = [];
    for (let c = 0; c < CHANGES; c += 1) {
      const wait = t0 + c * PACE_MS - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(change());
    }
    const changes = await Promise.all(pending);
    const delivered = () => changes.every((c) => subscribers.every((s) => s.arrivals.has(c.id)));
    await waitUntil(delivered, 30_000);
    const proc = sampler.stop();
    await sleep(1000);
    const afterChangesMb = rssMb(serverPid);

    const afterCommit: number[] = [];
    const afterSent: number[] = [];
    const lastArrival: number[] = [];
    let missing = 0;
    for (const c of changes) {
      let last = -Infinity;
      for (const s of subscribers) {
        const at = s.arrivals.get(c.id);
        if (at === undefined) {
          missing += 1;
          continue;
        }
        afterCommit.push(at - c.answered);
        afterSent.push(at - c.sent);
        last = Math.max(last, at);
      }
      if (last > -Infinity) lastArrival.push(last - c.answered);
    }
    const duplicates = subscribers.reduce((n, s) => n + s.duplicates, 0);
    afterCommit.sort((a, b) => a - b);
    afterSent.sort((a, b) => a - b);
    lastArrival.sort((a, b) => a - b);
    const requestTimes = changes.map((c) => c.answered - c.sent).sort((a, b) => a - b);

    for (const s of subscribers) s.close();
    await sleep(2000);
    const closedMb = rssMb(serverPid);

    const result: Omit<SubscriptionsResult, 'summary'> = {
      subscribers: SUBSCRIBERS,
      changes: CHANGES,
      afterCommit: {
        p50: percentile(afterCommit, 50),
        p95: percentile(afterCommit, 95),
        p99: percentile(afterCommit, 99),
        max: afterCommit[afterCommit.length - 1] ?? NaN,
        count: afterCommit.length,
      },
      afterSent: {
        p50: percentile(afterSent, 50),
        p95: percentile(afterSent, 95),
        p99: percentile(afterSent, 99),
        max: afterSent[afterSent.length - 1] ?? NaN,
      },
      requestMs: { p50: percentile(requestTimes, 50), max: requestTimes[requestTimes.length - 1] ?? NaN },
      lastArrival: { p50: percentile(lastArrival, 50), max: lastArrival[lastArrival.length - 1] ?? NaN },
      missing,
      duplicates,
      connectMs,
      refused,
      rss: {
        idleMb,
        connectedMb,
        afterChangesMb,
        closedMb,
        perSubscriberKb: ((connectedMb - idleMb) * 1024) / SUBSCRIBERS,
      },
      cpu: {
        msPerDelivery: afterCommit.length > 0 ? (proc.cpuSeconds * 1000) / afterCommit.length : NaN,
        percent: proc.cpuPercent,
      },
    };
    const f = (n: number) => n.toFixed(1);
    const summary =
      `${SUBSCRIBERS} subscribers on ${KEYS} keys (connected and listening in ${(connectMs / 1000).toFixed(1)} s), ` +
      `${CHANGES} changes every ${PACE_MS} ms: ${result.afterCommit.count}/${SUBSCRIBERS * CHANGES} delivered, ` +
      `${missing} missing, ${duplicates} duplicates; after commit p50 ${f(result.afterCommit.p50)} ms, ` +
      `p95 ${f(result.afterCommit.p95)}, p99 ${f(result.afterCommit.p99)}, max ${f(result.afterCommit.max)}; ` +
      `after the request was sent p50 ${f(result.afterSent.p50)}, p99 ${f(result.afterSent.p99)}, max ${f(result.afterSent.max)} ` +
      `(request p50 ${f(result.requestMs.p50)} ms); last subscriber of a change p50 ${f(result.lastArrival.p50)} ms, ` +
      `max ${f(result.lastArrival.max)} after commit; server CPU ${f(result.cpu.percent)} %, ` +
      `${result.cpu.msPerDelivery.toFixed(3)} ms per delivery; RSS idle ${f(idleMb)} MB, connected ${f(connectedMb)} MB ` +
      `(+${f(result.rss.perSubscriberKb)} KB per subscriber), after the changes ${f(afterChangesMb)} MB, ` +
      `closed ${f(closedMb)} MB`;
    return { ...result, summary };
  } finally {
    for (const s of subscribers) s.close();
  }
}
