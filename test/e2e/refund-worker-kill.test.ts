import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ROOT, childEnv, databaseSettings, runCli } from '../processes.js';
import { nodeArgsOf } from '../start-args.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { startStripeStandIn, type StripeStandIn } from '../stripe-stand-in.js';
import { onPostgres } from '../worker-services.js';
import { graphqlAt } from './dashboard-env.js';
import { CompiledQuery } from 'kysely';
import { openDatabase } from '../../src/kernel/db/database.js';

// Issue #42: kill -9 of the process giving a refund back loses nothing and refunds nothing twice.
// A server process (its refund worker runs in-process) takes the refund intent of a cancellation
// and is killed while the stand-in for Stripe, which has made the refund, is slow to answer. Then
// another process takes the intent again once the claim's lease ends and retries with the same
// idempotency key: the stand-in answers with the refund it already made, and Portier records it once.
//
// PostgreSQL: the other process is `npm run worker`, beside nothing (the killed server's database
// is shared). PGlite is one process per data directory, so there the other process is the server
// itself started again on the same PGLITE_DIR after the kill (the directory's lock dies with the
// killed process); the rows are read by opening the directory once no server holds it.

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { open: '00:00', close: '24:00' },
  ]),
);

let stripe: StripeStandIn;
let server: ServerProcess | undefined;
let worker: ChildProcess | undefined;
let workerLog = '';
let env: Record<string, string> = {};
let pgliteDir: string | undefined;
let db: pg.Client | undefined;
let tenant: { apiKey: string; tenantId: string };

beforeAll(async () => {
  stripe = await startStripeStandIn();
  const settings = await databaseSettings();
  pgliteDir = settings.pgliteDir;
  env = {
    ...settings.env,
    RATE_LIMIT_PER_MINUTE: '100000',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    // A lease of 3 × 2 s + 10 s: the retry after the kill comes within a test's patience.
    STRIPE_REFUND_TIMEOUT_MS: '2000',
  };
  // Before the server starts: on PGlite the CLI cannot open a directory a server holds.
  const created = await runCli(['tenant', 'create', '--name', 'Kill mid-refund'], env);
  if (created.code !== 0) throw new Error(created.stderr);
  tenant = JSON.parse(created.stdout) as { apiKey: string; tenantId: string };
  server = await startServerProcess(env, { startTimeoutMs: 300_000 });
  stripe.webhookUrl = `${server.url}/api/payments/stripe/webhook`;
  if (!pgliteDir) {
    db = new pg.Client({ connectionString: settings.env.DATABASE_URL });
    await db.connect();
  }
}, 600_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker?.on('close', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await server?.stop();
  await stripe?.close();
  await db?.end();
});

/** Rows of a query on the test's database: PostgreSQL directly, PGlite's directory while no server holds it. */
async function rowsOf<T>(text: string, params: unknown[]): Promise<T[]> {
  if (db) return (await db.query(text, params)).rows as T[];
  const database = await openDatabase({ pgliteDir });
  try {
    return (await database.db.executeQuery<T>(CompiledQuery.raw(text, params))).rows;
  } finally {
    await database.close();
  }
}

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; worker log: ${workerLog}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe(`kill -9 mid-refund (${onPostgres ? 'PostgreSQL: npm run worker retries' : 'PGlite: the restarted server retries'})`, () => {
  it(
    'loses nothing and refunds nothing twice: the next process retries with the same idempotency key',
    { timeout: 400_000 },
    async () => {
      const { apiKey, tenantId } = tenant;
      const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
        graphqlAt<T>(server!.url, apiKey, query, variables);
      const { createAccommodation } = await gql<{ createAccommodation: { id: string } }>(
        'mutation { createAccommodation(name: "Riverside Courts", address: "Uferweg 5, 10557 Berlin", timeZone: "Europe/Berlin") { id } }',
      );
      const { createObject } = await gql<{ createObject: { id: string } }>(
        'mutation($a: ID!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: "Court 1", pricePerHour: 2000, openingHours: $h) { id } }',
        { a: createAccommodation.id, h: EVERY_DAY },
      );
      const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 5 * 86_400_000);
      const { createBooking } = await gql<{
        createBooking: { booking: { id: string; paymentUrl: string; totalPrice: number } };
      }>(
        'mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Ada Lovelace", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { id paymentUrl totalPrice } } }',
        { o: createObject.id, s: start.toISOString(), e: new Date(start.getTime() + 3_600_000).toISOString() },
      );
      const booking = createBooking.booking;
      const opened = await fetch(`${server!.url}${new URL(booking.paymentUrl).pathname}`, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(opened.headers.get('location') ?? '')?.[1] ?? '';
      expect(await stripe.deliver(stripe.complete(sessionId))).toBe(200);

      // Stripe makes the refund at once and answers a minute later.
      stripe.latencyMs = 60_000;
      const cancelled = await fetch(`${server!.url}/api/v1/tenants/${tenantId}/bookings/${booking.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ status: 'CANCELLED' }),
      });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as { booking: { status: string } }).booking.status).toBe('CANCELLED');
      const refundCalls = () =>
        stripe.requests.filter(
          (r) => r.path === '/v1/refunds' && (r.form.metadata as Record<string, string>).bookingId === booking.id,
        );
      await until('the server to ask for the refund', () => refundCalls().length > 0);
      server!.child.kill('SIGKILL');
      await server!.exited;
      expect(stripe.refunds.filter((r) => r.metadata.bookingId === booking.id)).toHaveLength(1);
      const before = await rowsOf<{ status: string; attempts: number; amount_refunded: number }>(
        `SELECT r.status, r.attempts, b.amount_refunded FROM refund_intents r JOIN bookings b ON b.id = r.booking_id WHERE r.booking_id = $1`,
        [booking.id],
      );
      // Nothing recorded yet, nothing lost: the intent is still pending, claimed by the dead process.
      expect(before).toEqual([{ status: 'pending', attempts: 1, amount_refunded: 0 }]);

      stripe.latencyMs = 0;
      if (db) {
        const client = db;
        worker = spawn(process.execPath, nodeArgsOf('worker'), {
          cwd: ROOT,
          env: childEnv({ ...env, LOG_LEVEL: 'info' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        worker.stdout?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
        worker.stderr?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
        await until(
          'the worker to record the refund',
          async () =>
            (
              await client.query(`SELECT 1 FROM refund_intents WHERE booking_id = $1 AND status = 'succeeded'`, [
                booking.id,
              ])
            ).rowCount === 1,
          240_000,
        );
      } else {
        // The same directory, a new server: its refund worker takes the intent once the lease ends.
        server = await startServerProcess(env, { startTimeoutMs: 300_000 });
        const restarted = server;
        await until(
          'the restarted server to record the refund',
          async () => {
            const { booking: now } = await graphqlAt<{ booking: { payment: { status: string } } }>(
              restarted.url,
              apiKey,
              'query($id: ID!) { booking(id: $id) { payment { status } } }',
              { id: booking.id },
            );
            return now.payment.status === 'REFUNDED';
          },
          240_000,
        );
        workerLog = restarted.logs.map((line) => JSON.stringify(line)).join('\n');
        // No server holds the directory while the rows are read.
        await restarted.stop();
        server = undefined;
      }

      // One refund at the provider; every request for it carried the same key.
      const refunds = stripe.refunds.filter((r) => r.metadata.bookingId === booking.id);
      expect(refunds).toHaveLength(1);
      expect(refunds[0].amount).toBe(booking.totalPrice);
      const keys = new Set(refundCalls().map((r) => r.headers['idempotency-key']));
      expect(refundCalls().length).toBeGreaterThanOrEqual(2);
      expect([...keys]).toEqual([`portier-cancellation-refund-${booking.id}`]);
      const after = await rowsOf(
        `SELECT b.status, b.payment_status, b.amount_refunded, r.attempts, r.provider_refund_id,
           (SELECT count(*)::int FROM payments p WHERE p.booking_id = b.id AND p.kind = 'refund') AS ledger_refunds,
           (SELECT count(*)::int FROM events e WHERE e.data->'booking'->>'id' = b.id::text AND e.type = 'booking.refunded') AS refunded_events
         FROM bookings b JOIN refund_intents r ON r.booking_id = b.id WHERE b.id = $1`,
        [booking.id],
      );
      expect(after).toEqual([
        {
          status: 'CANCELLED',
          payment_status: 'REFUNDED',
          amount_refunded: booking.totalPrice,
          attempts: 2,
          provider_refund_id: refunds[0].id,
          ledger_refunds: 1,
          refunded_events: 1,
        },
      ]);
    },
  );
});
