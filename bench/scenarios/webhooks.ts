import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { Dataset } from '../dataset.js';
import { waitUntil } from '../load.js';
import { createBookings } from './core.js';

// Webhook throughput (issue #28): one subscription, a local receiver answering in 1 ms.
// - paced: 100 bookings created through the API over ~1.3 s; each booking.created's first delivery
//   is timed from the moment its creating request was sent (the commit comes before the answer,
//   so this over-states the latency after commit by the request's own time);
// - burst (PostgreSQL): 500 events committed in one transaction by another connection (as another
//   process would); deliveries/s is how fast the server's one dispatcher drains them, from the
//   commit to the last arrival.
// The server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (the receiver is on 127.0.0.1).

export const WEBHOOK_SCENARIO = 'webhook throughput (100 events in 1.3 s, receiver 1 ms)';
const PACED_EVENTS = 100;
const PACED_SECONDS = 1.3;
const BURST_EVENTS = 500;
/** Far from the create-booking scenario's slots (it counts from 0). */
const SLOT_OFFSET = 200_000;

export interface WebhookResult {
  /** Paced phase: first-delivery latency after the creating request was sent (ms). */
  latency: { p50: number; p99: number; max: number; count: number };
  /** Paced phase: from the first request to the last delivery (ms). */
  pacedAllDeliveredMs: number;
  /** Burst phase (PostgreSQL only): deliveries per second from commit to the last arrival. */
  burst?: { events: number; deliveriesPerSecond: number; firstAfterCommitMs: number; drainMs: number };
  /** Deliveries that did not arrive within the wait. */
  missing: number;
  summary: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A receiver that answers 204 after 1 ms and notes when each event (by booking id) first arrived. */
async function startReceiver() {
  const firstArrival = new Map<string, number>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      requests += 1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { booking?: { id?: string } } };
        const id = body.data?.booking?.id;
        if (id && !firstArrival.has(id)) firstArrival.set(id, at);
      } catch {
        // not an event: counted, not timed
      }
      setTimeout(() => {
        res.writeHead(204);
        res.end();
      }, 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench-hook`,
    firstArrival,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function webhookThroughput(
  baseUrl: string,
  d: Dataset,
  options: { databaseUrl?: string },
): Promise<WebhookResult> {
  const receiver = await startReceiver();
  const created = (await api(baseUrl, d.apiKey, 'POST', `/api/v1/tenants/${d.tenantId}/webhooks`, {
    url: receiver.url,
    events: ['booking.created'],
    secret: 'bench-webhook-secret-0123456789',
  })) as { webhook: { id: string } };
  const webhookPath = `/api/v1/tenants/${d.tenantId}/webhooks/${created.webhook.id}`;
  try {
    // Paced: one booking every 13 ms, each request sent on time whatever the previous one does.
    const source = createBookings(d, SLOT_OFFSET);
    const sentAt = new Map<string, number>();
    // When its answer arrived: the commit came before it, so timing from here under-states.
    const answeredAt = new Map<string, number>();
    const t0 = performance.now();
    const requests: Promise<void>[] = [];
    for (let i = 0; i < PACED_EVENTS; i += 1) {
      const due = t0 + (i * PACED_SECONDS * 1000) / PACED_EVENTS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const spec = source(i);
      const sent = performance.now();
      requests.push(
        fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body }).then(
          async (res) => {
            const body = (await res.json()) as { booking?: { id: string } };
            if (res.status !== 201 || !body.booking) throw new Error(`create booking: ${res.status}`);
            sentAt.set(body.booking.id, sent);
            answeredAt.set(body.booking.id, performance.now());
          },
        ),
      );
    }
    await Promise.all(requests);
    const ids = [...sentAt.keys()];
    await waitUntil(() => ids.every((id) => receiver.firstArrival.has(id)), 60_000);
    const latencies: number[] = [];
    const afterAnswer: number[] = [];
    let lastPaced = NaN;
    for (const id of ids) {
      const arrived = receiver.firstArrival.get(id);
      const sent = sentAt.get(id);
      if (arrived === undefined || sent === undefined) continue;
      latencies.push(arrived - sent);
      afterAnswer.push(arrived - (answeredAt.get(id) ?? sent));
      lastPaced = Number.isNaN(lastPaced) ? arrived : Math.max(lastPaced, arrived);
    }
    latencies.sort((a, b) => a - b);
    afterAnswer.sort((a, b) => a - b);
    let missing = ids.length - latencies.length;

    let burst: WebhookResult['burst'];
    if (options.databaseUrl) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        const before = receiver.firstArrival.size;
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO events (tenant_id, type, data)
           SELECT $1::uuid, 'booking.created', jsonb_build_object('booking', jsonb_build_object('id', gen_random_uuid()), 'sequence', 1)
           FROM generate_series(1, $2)`,
          [d.tenantId, BURST_EVENTS],
        );
        await client.query('COMMIT');
        const committed = performance.now();
        await waitUntil(() => receiver.firstArrival.size >= before + BURST_EVENTS, 120_000);
        const arrivals = [...receiver.firstArrival.values()].filter((at) => at >= committed).sort((a, b) => a - b);
        const drainMs = arrivals[arrivals.length - 1] - committed;
        missing += BURST_EVENTS - arrivals.length;
        burst = {
          events: arrivals.length,
          deliveriesPerSecond: arrivals.length / (drainMs / 1000),
          firstAfterCommitMs: arrivals[0] - committed,
          drainMs,
        };
      } finally {
        await client.end();
      }
    }
    const latency = {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? NaN,
      count: latencies.length,
    };
    const pacedAllDeliveredMs = lastPaced - t0;
    const summary =
      `paced: ${latencies.length}/${PACED_EVENTS} delivered, first delivery after the creating request p50 ${latency.p50.toFixed(1)} ms, ` +
      `p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms (after its answer: p50 ${percentile(afterAnswer, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(afterAnswer, 99).toFixed(1)} ms), all within ${(pacedAllDeliveredMs / 1000).toFixed(2)} s of the first request` +
      (burst
        ? `; burst: ${burst.events} events committed at once drained in ${(burst.drainMs / 1000).toFixed(2)} s = ${burst.deliveriesPerSecond.toFixed(0)} deliveries/s, first ${burst.firstAfterCommitMs.toFixed(1)} ms after commit`
        : '; burst: skipped (PostgreSQL only)');
    return { latency, pacedAllDeliveredMs, burst, missing, summary };
  } finally {
    // Later scenarios must not pay for this subscription.
    await api(baseUrl, d.apiKey, 'DELETE', webhookPath).catch(() => undefined);
    await receiver.close();
  }
}
