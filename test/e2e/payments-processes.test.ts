import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { databaseSettings, runCli } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { startStripeStandIn, type StripeStandIn } from '../stripe-stand-in.js';
import { onPostgres } from '../worker-services.js';
import { graphqlAt } from './dashboard-env.js';

// Issue #26: "two processes receiving the same event concurrently → one transition", with two real
// OS processes (`npm start`'s node command, dist/) on one PostgreSQL database, both POSTed the same
// signed checkout.session.completed event at the same moment. Repeated over several bookings, and
// once for a booking cancelled meanwhile (one automatic refund, not two: both processes run the
// refund worker, and its claims skip each other's intents).
//
// PostgreSQL only: PGlite is one process per directory (docs/configuration.md), so two server
// processes cannot share an embedded database. On PGlite, test/payments.test.ts ("two processes
// receiving the same event") runs two app instances in one process instead (docs/payments.md).

const ROUNDS = 6;
const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { open: '00:00', close: '24:00' },
  ]),
);

let stripe: StripeStandIn;
const servers: ServerProcess[] = [];
let apiKey = '';
let tenantId = '';
let objectId = '';
let db: pg.Client;

beforeAll(async () => {
  if (!onPostgres) return;
  stripe = await startStripeStandIn();
  const settings = await databaseSettings();
  const created = await runCli(['tenant', 'create', '--name', 'Two processes'], settings.env);
  if (created.code !== 0) throw new Error(created.stderr);
  ({ apiKey, tenantId } = JSON.parse(created.stdout) as { apiKey: string; tenantId: string });
  const env = {
    ...settings.env,
    RATE_LIMIT_PER_MINUTE: '100000',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  };
  servers.push(
    ...(await Promise.all([
      startServerProcess(env, { startTimeoutMs: 300_000 }),
      startServerProcess(env, { startTimeoutMs: 300_000 }),
    ])),
  );
  const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
    graphqlAt<T>(servers[0].url, apiKey, query, variables);
  const { createAccommodation } = await gql<{ createAccommodation: { id: string } }>(
    'mutation { createAccommodation(name: "Riverside Courts", address: "Uferweg 5, 10557 Berlin", timeZone: "Europe/Berlin") { id } }',
  );
  const { createObject } = await gql<{ createObject: { id: string } }>(
    'mutation($a: ID!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: "Court 1", pricePerHour: 2000, openingHours: $h) { id } }',
    { a: createAccommodation.id, h: EVERY_DAY },
  );
  objectId = createObject.id;
  db = new pg.Client({ connectionString: settings.env.DATABASE_URL });
  await db.connect();
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await stripe?.close();
  await db?.end();
});

async function newBooking(round: number): Promise<{ id: string; path: string; totalPrice: number }> {
  const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + (3 + round) * 86_400_000);
  const { createBooking } = await graphqlAt<{
    createBooking: { booking: { id: string; paymentUrl: string; totalPrice: number } };
  }>(
    servers[0].url,
    apiKey,
    'mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Ada Lovelace", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { id paymentUrl totalPrice } } }',
    { o: objectId, s: start.toISOString(), e: new Date(start.getTime() + 3_600_000).toISOString() },
  );
  return { ...createBooking.booking, path: new URL(createBooking.booking.paymentUrl).pathname };
}

/** Opens the paymentUrl on one of the servers as a browser would; answers the Checkout Session it sends the guest to. */
async function sessionOf(server: ServerProcess, path: string): Promise<string> {
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(res.headers.get('location') ?? '')?.[1];
  expect(sessionId).toBeDefined();
  return sessionId!;
}

/** The same signed body and header to both processes, the two requests started together. */
async function deliverToBoth(event: unknown): Promise<{ status: number; outcome: string }[]> {
  const { payload, header } = stripe.sign(event);
  return Promise.all(
    servers.map(async (server) => {
      const res = await fetch(`${server.url}/api/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      const body = (await res.json()) as { outcome?: string };
      return { status: res.status, outcome: body.outcome ?? JSON.stringify(body) };
    }),
  );
}

async function eventTypesOf(bookingId: string): Promise<string[]> {
  const { rows } = await db.query<{ type: string }>(
    `SELECT type FROM events WHERE data->'booking'->>'id' = $1 ORDER BY (data->>'sequence')::int`,
    [bookingId],
  );
  return rows.map((r) => r.type);
}

async function paymentOf(bookingId: string) {
  const { booking, paymentRecords } = await graphqlAt<{
    booking: { status: string; payment: { status: string; amountPaid: number; amountRefunded: number } };
    paymentRecords: { kind: string; amount: number }[];
  }>(
    servers[1].url,
    apiKey,
    'query($id: ID!) { booking(id: $id) { status payment { status amountPaid amountRefunded } } paymentRecords(bookingId: $id) { kind amount } }',
    {
      id: bookingId,
    },
  );
  return { ...booking, records: paymentRecords };
}

describe.runIf(onPostgres)('two server processes receiving the same Stripe event at once (PostgreSQL)', () => {
  it('are two OS processes on one database', () => {
    expect(servers).toHaveLength(2);
    expect(servers[0].child.pid).not.toBe(servers[1].child.pid);
    expect(servers.every((s) => s.child.exitCode === null)).toBe(true);
    expect(tenantId).not.toBe('');
  });

  it(
    `make one transition per event: one booking.paid, one booking.confirmed, one payment record (${ROUNDS} rounds)`,
    { timeout: 300_000 },
    async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const booking = await newBooking(round);
        const sessionId = await sessionOf(servers[round % 2], booking.path);
        const answers = await deliverToBoth(stripe.complete(sessionId));
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
        expect(answers.map((a) => a.outcome).sort(), `round ${round}`).toEqual(['applied', 'duplicate']);
        const after = await paymentOf(booking.id);
        expect(after).toEqual({
          status: 'CONFIRMED',
          payment: { status: 'PAID', amountPaid: booking.totalPrice, amountRefunded: 0 },
          records: [{ kind: 'payment', amount: booking.totalPrice }],
        });
        expect(await eventTypesOf(booking.id)).toEqual(['booking.created', 'booking.paid', 'booking.confirmed']);
        const held = stripe.netOf(stripe.sessions.get(sessionId)?.payment_intent ?? '');
        expect(held).toEqual({ charged: booking.totalPrice, refunded: 0 });
      }
    },
  );

  it(
    'refund a payment that arrives for a booking cancelled meanwhile once, not once per process',
    { timeout: 120_000 },
    async () => {
      const booking = await newBooking(ROUNDS + 1);
      const sessionId = await sessionOf(servers[0], booking.path);
      const cancelled = await fetch(`${servers[1].url}/api/v1/tenants/${tenantId}/bookings/${booking.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ status: 'CANCELLED' }),
      });
      expect(cancelled.status).toBe(200);
      const answers = await deliverToBoth(stripe.complete(sessionId));
      expect(answers.map((a) => a.outcome).sort()).toEqual(['duplicate', 'refunded_after_cancellation']);
      const intent = stripe.sessions.get(sessionId)?.payment_intent ?? '';
      // Both processes run the refund worker (docs/payments.md, "Refunds"): one of them gives it back.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (await paymentOf(booking.id)).payment.status !== 'REFUNDED')
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
      expect(stripe.netOf(intent)).toEqual({ charged: booking.totalPrice, refunded: booking.totalPrice });
      const after = await paymentOf(booking.id);
      expect(after.status).toBe('CANCELLED');
      expect(after.payment).toEqual({
        status: 'REFUNDED',
        amountPaid: booking.totalPrice,
        amountRefunded: booking.totalPrice,
      });
      expect(await eventTypesOf(booking.id)).toEqual([
        'booking.created',
        'booking.cancelled',
        'booking.paid',
        'booking.refunded',
      ]);
    },
  );
});

describe.skipIf(onPostgres)('two server processes (PGlite)', () => {
  it.skip('cannot share an embedded database: test/payments.test.ts runs two app instances in one process instead', () =>
    undefined);
});
