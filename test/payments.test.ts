import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import {
  buildActiveDevice,
  buildCancellationPolicy,
  buildDoor,
  buildPendingBooking,
  buildVenue,
  bookViaRest,
} from './builders.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';
import { runDatabaseUrl } from './worker-services.js';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { RefundWorker, reconcilePayments, sweepExpiredHolds } from '../src/modules/payments/index.js';

// Payments against a local stand-in for Stripe (test/stripe-stand-in.ts): the SDK is pointed at it
// with STRIPE_API_BASE; events are signed as Stripe signs them. Nothing reaches the internet.

let h: Harness;
let stripe: StripeStandIn;
let app: OwnApp;
const WEBHOOK = '/api/payments/stripe/webhook';
const NOW = '2026-11-20T09:00:00Z';

beforeAll(async () => {
  h = await harness();
  stripe = await startStripeStandIn({ now: h.clock.now });
  app = await ownApp(h, {
    env: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) } },
  });
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});
beforeEach(() => h.clock.set(NOW));
afterEach(async () => {
  h.clock.set(null);
  // Issue #26's property, checked after every case below (payments, refunds, duplicate events,
  // payment after cancellation, holds, pay at the venue, two processes, the random orders).
  for (const booking of touched.splice(0)) await expectLedgerAgrees(booking);
});

/** Every booking a case made (through `booked`), for the ledger check after the case. */
const touched: { apiKey: string; id: string; providerRefundedOutside?: boolean }[] = [];

/**
 * Paid − refunded ≥ 0 and equals what the stand-in recorded for the booking's Checkout Sessions
 * (charged and refunded per payment intent); the payment status follows the amounts; the booking's
 * events (booking.paid amounts, booking.refunded refund amounts) and its ledger (paymentRecords)
 * add up to the same amounts. A booking paid at the venue holds nothing at the stand-in.
 */
async function expectLedgerAgrees(booking: {
  apiKey: string;
  id: string;
  providerRefundedOutside?: boolean;
}): Promise<void> {
  const { payment } = await bookingOf(booking.apiKey, booking.id);
  const why = `booking ${booking.id}: ${JSON.stringify(payment)}`;
  const { amountPaid: paid, amountRefunded: refunded } = payment;
  expect(paid - refunded, why).toBeGreaterThanOrEqual(0);
  expect(refunded, why).toBeGreaterThanOrEqual(0);
  const status =
    paid === 0 ? 'UNPAID' : refunded === 0 ? 'PAID' : refunded === paid ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  expect(payment.status, why).toBe(status);

  const held = { charged: 0, refunded: 0 };
  for (const session of stripe.sessions.values()) {
    if (session.metadata.bookingId !== booking.id || !session.payment_intent) continue;
    const net = stripe.netOf(session.payment_intent);
    held.charged += net.charged;
    held.refunded += net.refunded;
  }
  if (payment.provider === 'venue') expect(held, why).toEqual({ charged: 0, refunded: 0 });
  else if (booking.providerRefundedOutside) expect(paid, why).toBe(held.charged);
  else expect({ charged: paid, refunded }, why).toEqual(held);

  const events = await eventsOf(booking.id);
  const sum = (values: unknown[]) => values.reduce<number>((total, value) => total + Number(value ?? 0), 0);
  expect(
    sum(events.filter((e) => e.type === 'booking.paid').map((e) => e.data.amount)),
    `${why}: booking.paid events`,
  ).toBe(paid);
  expect(
    sum(
      events
        .filter((e) => e.type === 'booking.refunded')
        .map((e) => (e.data.refund as { amount?: number } | undefined)?.amount),
    ),
    `${why}: booking.refunded events`,
  ).toBe(refunded);

  const records = await app.graphql(
    booking.apiKey,
    'query($id: ID!) { paymentRecords(bookingId: $id) { kind amount } }',
    { id: booking.id },
  );
  const rows = records.body.data.paymentRecords as { kind: string; amount: number }[];
  expect(sum(rows.filter((r) => r.kind === 'payment').map((r) => r.amount)), `${why}: payment records`).toBe(paid);
  expect(sum(rows.filter((r) => r.kind === 'refund').map((r) => r.amount)), `${why}: refund records`).toBe(refunded);
}

async function booked(options: { pricePerHour?: number; start?: string; end?: string } = {}) {
  const pending = await buildPendingBooking(h, { via: app, ...options });
  touched.push({ apiKey: pending.v.apiKey, id: pending.booking.id });
  return pending;
}

/** Opens the paymentUrl as the guest's browser does; answers the session it was sent to. */
async function openCheckout(path: string) {
  const res = await app.request({ method: 'GET', url: path });
  expect(res.status, res.text).toBe(303);
  const location = String(res.headers.location);
  const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(location)?.[1];
  expect(sessionId, location).toBeDefined();
  return { location, sessionId: sessionId as string };
}

function postEvent(target: OwnApp, event: unknown, signed: { payload: string; header: string } = stripe.sign(event)) {
  return target.request({
    method: 'POST',
    url: WEBHOOK,
    body: signed.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.header },
  });
}

async function bookingOf(apiKey: string, id: string) {
  const res = await app.graphql(
    apiKey,
    'query($id: ID!) { booking(id: $id) { status refundAmount payment { status amountPaid amountRefunded currency provider paidAt } } }',
    {
      id,
    },
  );
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data.booking as {
    status: string;
    refundAmount: number | null;
    payment: {
      status: string;
      amountPaid: number;
      amountRefunded: number;
      currency: string;
      provider: string | null;
      paidAt: string | null;
    };
  };
}

async function eventsOf(bookingId: string) {
  const rows = await h.deps.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where(sql<string>`data->'booking'->>'id'`, '=', bookingId)
    .orderBy(sql`(data->>'sequence')::int`)
    .execute();
  return rows.map((r) => ({
    type: r.type,
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }));
}

const createsFor = (bookingId: string) =>
  stripe.requests.filter(
    (r) =>
      r.path === '/v1/checkout/sessions' &&
      (r.form.metadata as Record<string, string> | undefined)?.bookingId === bookingId,
  );

async function payThroughStandIn(path: string) {
  const { sessionId } = await openCheckout(path);
  const event = stripe.complete(sessionId);
  const res = await postEvent(app, event);
  expect(res.status, res.text).toBe(200);
  return { sessionId, event, outcome: res.body.outcome as string };
}

/** How many PostgreSQL sessions of the test's database sit idle inside a transaction. */
async function sessionsIdleInTransaction(): Promise<number> {
  const held = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.execute(h.deps.database.db);
  return held.rows[0].n;
}

/** Checkout Session creations the stand-in has received so far. */
function checkoutCalls(): number {
  return stripe.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').length;
}

/** Waits until the stand-in has received a creation beyond the `before` it had. */
async function checkoutCallStarted(before: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (checkoutCalls() === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** The refund worker's passes until nothing due is left (the background loop in production). */
async function refundsDone(target: OwnApp = app): Promise<string[]> {
  const worker = new RefundWorker(target.deps);
  const outcomes: string[] = [];
  for (;;) {
    const pass = await worker.runOnce();
    if (pass.length === 0) return outcomes;
    outcomes.push(...pass);
  }
}

describe('paying a booking through Stripe Checkout', () => {
  it('sends the guest to a Checkout Session for the price, then the signed event marks it paid and confirms it', async () => {
    const { v, booking, path } = await booked();
    const { location, sessionId } = await openCheckout(path);
    expect(location.startsWith(`${stripe.url}/pay/`)).toBe(true);
    const [create] = createsFor(booking.id);
    expect(create.headers['idempotency-key']).toBe(`portier-checkout-${booking.id}-1`);
    expect(create.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(create.form).toMatchObject({
      mode: 'payment',
      client_reference_id: booking.id,
      metadata: { bookingId: booking.id, tenantId: v.tenantId },
      line_items: {
        0: {
          quantity: '1',
          price_data: {
            currency: 'eur',
            unit_amount: '4100',
            product_data: { name: 'Court 1, Saturday 21 November 2026, 10:00–12:00 (Europe/Berlin)' },
          },
        },
      },
      expires_at: String(Date.parse(NOW) / 1000 + 86_400),
    });
    expect(create.form.success_url).toBe(`${booking.paymentUrl}/done?session_id={CHECKOUT_SESSION_ID}`);
    expect(create.form.cancel_url).toBe(`${booking.paymentUrl}/cancelled`);

    const event = stripe.complete(sessionId);
    const res = await postEvent(app, event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'applied' });
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CONFIRMED');
    expect(after.payment).toEqual({
      status: 'PAID',
      amountPaid: 4100,
      amountRefunded: 0,
      currency: 'EUR',
      provider: 'stripe',
      paidAt: '2026-11-20T09:00:00.000Z',
    });
    const events = await eventsOf(booking.id);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.paid', 'booking.confirmed']);
    expect(events[1].data).toMatchObject({
      amount: 4100,
      payment: { status: 'PAID', amountPaid: 4100, provider: 'stripe' },
    });

    // The success page sends the guest to their own page, which shows it confirmed and paid; the
    // paymentUrl now says "already paid" and starts nothing.
    const done = await app.request({ method: 'GET', url: `${path}/done?session_id=${sessionId}` });
    expect(done.status).toBe(303);
    expect(done.headers.location).toMatch(/^\/b\/[A-Za-z0-9_-]{54}\?done=paid$/);
    const landed = await app.request({ method: 'GET', url: String(done.headers.location) });
    expect(landed.text).toContain('data-done="paid"');
    expect(landed.text).toContain('data-status="CONFIRMED"');
    expect(landed.text).toContain('data-qr');
    const again = await app.request({ method: 'GET', url: path });
    expect(again.status).toBe(200);
    expect(again.text).toContain('This booking is already paid.');
    expect(createsFor(booking.id)).toHaveLength(1);
  });

  it('applies the same provider event once: the second delivery changes nothing', async () => {
    const { v, booking, path } = await booked();
    const { event } = await payThroughStandIn(path);
    const second = await postEvent(app, event);
    expect(second.status).toBe(200);
    expect(second.body.outcome).toBe('duplicate');
    // The success page asking the provider about the same session changes nothing either.
    await app.request({ method: 'GET', url: `${path}/done?session_id=${(event.data.object as { id: string }).id}` });
    expect((await bookingOf(v.apiKey, booking.id)).payment).toMatchObject({ status: 'PAID', amountPaid: 4100 });
    expect((await eventsOf(booking.id)).filter((e) => e.type === 'booking.paid')).toHaveLength(1);
  });

  it('refuses unsigned, tampered and stale events with a 400 problem, and nothing changes', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const event = stripe.complete(sessionId);
    const signed = stripe.sign(event);
    const unsigned = await app.request({
      method: 'POST',
      url: WEBHOOK,
      body: signed.payload,
      headers: { 'content-type': 'application/json' },
    });
    const tampered = await postEvent(app, event, {
      payload: signed.payload.replace('"amount_total":4100', '"amount_total":1'),
      header: signed.header,
    });
    const stale = await postEvent(app, event, stripe.sign(event, Math.floor(Date.now() / 1000) - 600));
    const wrongSecret = await postEvent(app, event, {
      payload: signed.payload,
      header: signed.header.replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`),
    });
    for (const res of [unsigned, tampered, stale, wrongSecret]) {
      expect(res.status, res.text).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid_signature');
    }
    expect(stale.body.detail).toMatch(/tolerance/i);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment.status).toBe('UNPAID');
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
    // The genuine delivery (Stripe retries it) then applies: the money the stand-in took is on the booking.
    expect((await postEvent(app, event, signed)).body.outcome).toBe('applied');
    expect((await bookingOf(v.apiKey, booking.id)).payment).toMatchObject({ status: 'PAID', amountPaid: 4100 });
  });

  it('changes nothing for an event naming an unknown booking or another tenant', async () => {
    const { v, booking, path } = await booked();
    const other = await buildVenue(h);
    const { sessionId } = await openCheckout(path);
    // Typed as what the test reads (an id and the session object), not as Stripe.Event: spread into the
    // two copies below, Stripe's union of every event type makes types that
    // @typescript-eslint/no-unsafe-enum-assignment spent minutes comparing (docs/development.md, "Lint").
    const event = stripe.complete(sessionId) as { id: string; data: { object: { metadata: Record<string, string> } } };
    const foreign = {
      ...event,
      id: `${event.id}x`,
      data: { object: { ...event.data.object, metadata: { bookingId: booking.id, tenantId: other.tenantId } } },
    };
    const unknown = {
      ...event,
      id: `${event.id}y`,
      data: {
        object: {
          ...event.data.object,
          client_reference_id: null,
          metadata: { bookingId: '00000000-0000-4000-8000-000000000000', tenantId: v.tenantId },
        },
      },
    };
    expect((await postEvent(app, foreign)).body.outcome).toBe('unknown_booking');
    expect((await postEvent(app, unknown)).body.outcome).toBe('unknown_booking');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
    // The session's own event then applies to its own booking.
    expect((await postEvent(app, event)).body.outcome).toBe('applied');
    expect((await bookingOf(v.apiKey, booking.id)).payment).toMatchObject({ status: 'PAID', amountPaid: 4100 });
  });

  it('refunds in full, automatically, a payment that arrives for a booking cancelled meanwhile', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const cancel = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancel.status).toBe(200);
    // Nothing was paid: the cancellation refunds nothing and asks the provider for nothing.
    expect(cancel.body.booking.payment).toEqual({
      status: 'UNPAID',
      amountPaid: 0,
      amountRefunded: 0,
      currency: 'EUR',
      provider: null,
      paidAt: null,
    });
    const page = await app.request({ method: 'GET', url: path });
    expect(page.text).toContain('Nothing was paid and nothing is due.');
    expect(page.text).not.toContain('€0.00 refund');

    const event = stripe.complete(sessionId);
    const res = await postEvent(app, event);
    expect(res.body.outcome).toBe('refunded_after_cancellation');
    // The refund is an intent until the refund worker gives it back (docs/payments.md, "Refunds").
    expect(stripe.refunds).not.toContainEqual(expect.objectContaining({ metadata: { bookingId: booking.id } }));
    expect((await bookingOf(v.apiKey, booking.id)).payment).toMatchObject({ status: 'PAID', amountRefunded: 0 });
    expect(await refundsDone()).toEqual(['succeeded']);
    const intent = stripe.sessions.get(sessionId)?.payment_intent ?? '';
    const refund = stripe.refunds.find((r) => r.payment_intent === intent);
    expect(refund?.amount).toBe(4100);
    expect(
      stripe.requests.find((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent)?.headers[
        'idempotency-key'
      ],
    ).toBe(`portier-late-payment-refund-${sessionId}`);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CANCELLED');
    expect(after.payment).toMatchObject({ status: 'REFUNDED', amountPaid: 4100, amountRefunded: 4100 });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.cancelled',
      'booking.paid',
      'booking.refunded',
    ]);
    expect(app.logs.some((line) => line.includes('payment arrived for a cancelled booking'))).toBe(true);
    // Delivered again: no second refund.
    expect((await postEvent(app, event)).body.outcome).toBe('duplicate');
    expect(await refundsDone()).toEqual([]);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
  });

  it('refunds the policy’s share when a paid booking is cancelled, once, with one idempotency key per booking', async () => {
    const { v, booking, path } = await booked();
    // 21 November 09:00 UTC is 24 hours away: the 12-hour tier refunds half.
    await buildCancellationPolicy(h, v.tenantId, {
      isDefault: true,
      tiers: [
        { hoursBeforeStart: 48, refundPercent: 100 },
        { hoursBeforeStart: 12, refundPercent: 50 },
      ],
    });
    await payThroughStandIn(path);
    const quote = await app.graphql(
      v.apiKey,
      'query($id: ID!) { cancellationQuote(bookingId: $id) { refundAmount amountPaid moneyBack } }',
      { id: booking.id },
    );
    expect(quote.body.data.cancellationQuote).toEqual({ refundAmount: 2050, amountPaid: 4100, moneyBack: 2050 });
    const cancel = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.refundAmount).toBe(2050);
    expect(cancel.body.booking.status).toBe('CANCELLED');
    // The cancellation answers before the provider is asked; the refund is recorded when it is made.
    expect(cancel.body.booking.payment).toMatchObject({ status: 'PAID', amountPaid: 4100, amountRefunded: 0 });
    expect(await refundsDone()).toEqual(['succeeded']);
    expect(await refundsDone()).toEqual([]);
    const refundRequests = stripe.requests.filter(
      (r) => r.path === '/v1/refunds' && (r.form.metadata as Record<string, string>).bookingId === booking.id,
    );
    expect(refundRequests).toHaveLength(1);
    expect(refundRequests[0].headers['idempotency-key']).toBe(`portier-cancellation-refund-${booking.id}`);
    expect(refundRequests[0].form.amount).toBe('2050');
    const events = await eventsOf(booking.id);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'booking.paid',
      'booking.confirmed',
      'booking.cancelled',
      'booking.refunded',
    ]);
    expect(events[4].data).toMatchObject({
      refund: { amount: 2050, reason: 'cancellation' },
      payment: { status: 'PARTIALLY_REFUNDED', amountRefunded: 2050 },
    });
    // The REST get and list carry the payment.
    const got = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
    });
    expect(got.body.booking.payment).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      amountPaid: 4100,
      amountRefunded: 2050,
      currency: 'EUR',
      provider: 'stripe',
      paidAt: '2026-11-20T09:00:00.000Z',
    });
    const list = await app.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}/bookings`, apiKey: v.apiKey });
    expect(list.body.bookings[0].payment).toEqual(got.body.booking.payment);
    // The ledger behind the timeline.
    const records = await app.graphql(
      v.apiKey,
      'query($id: ID!) { paymentRecords(bookingId: $id) { kind provider amount reason actor } }',
      { id: booking.id },
    );
    expect(records.body.data.paymentRecords).toEqual([
      { kind: 'payment', provider: 'stripe', amount: 4100, reason: 'checkout', actor: 'Stripe Checkout' },
      { kind: 'refund', provider: 'stripe', amount: 2050, reason: 'cancellation', actor: 'Portier' },
    ]);
  });

  it('#42: a refund the provider refuses is marked failed and flagged; the cancellation stands', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const paid = await postEvent(app, stripe.complete(sessionId));
    expect(paid.body.outcome).toBe('applied');
    // The provider already gave everything back (outside Portier): it refuses another refund.
    const intent = stripe.sessions.get(sessionId)?.payment_intent ?? '';
    touched.find((t) => t.id === booking.id)!.providerRefundedOutside = true;
    stripe.refunds.push({
      id: 're_test_outside',
      object: 'refund',
      amount: 4100,
      currency: 'eur',
      payment_intent: intent,
      status: 'succeeded',
      metadata: {},
      created: 0,
    });
    const cancel = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.booking.status).toBe('CANCELLED');
    // A 400 from the provider is not tried again: the intent fails at once, audited and logged.
    expect(await refundsDone()).toEqual(['failed']);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CANCELLED');
    expect(after.payment).toMatchObject({ status: 'PAID', amountRefunded: 0 });
    const row = await h.deps.database.db
      .selectFrom('refund_intents')
      .select(['status', 'attempts', 'last_error', 'amount'])
      .where('booking_id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, amount: 4100 });
    expect(row.last_error).toContain('greater than unrefunded amount');
    const audits = await h.deps.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', booking.id)
      .execute();
    expect(audits.map((a) => a.action)).toContain('refund.failed');
    expect(app.logs.some((line) => line.includes('a refund was given up'))).toBe(true);
  });

  it('reuses an open Checkout Session and makes a new one once it has expired', async () => {
    const { booking, path } = await booked();
    const first = await openCheckout(path);
    const second = await openCheckout(path);
    expect(second.sessionId).toBe(first.sessionId);
    expect(createsFor(booking.id)).toHaveLength(1);
    h.clock.set('2026-11-21T08:59:30Z'); // 30 seconds before the 24-hour session expires
    const third = await openCheckout(path);
    expect(third.sessionId).not.toBe(first.sessionId);
    expect(createsFor(booking.id)).toHaveLength(2);
    expect(createsFor(booking.id)[1].headers['idempotency-key']).toBe(`portier-checkout-${booking.id}-2`);
  });

  it('never starts a payment for a cancelled or completed booking', async () => {
    const { v, booking, path } = await booked();
    await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CONFIRMED' },
    });
    await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'COMPLETED' },
    });
    const res = await app.request({ method: 'GET', url: path });
    expect(res.status).toBe(200);
    expect(res.text).toContain('This booking is completed; no payment is taken here.');
    expect(res.text).toContain('data-amount-cents="0"');
    expect(createsFor(booking.id)).toHaveLength(0);
  });

  it('#26: never starts a payment for a cancelled booking', async () => {
    const { v, booking, path } = await booked();
    const cancel = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    for (let visit = 0; visit < 2; visit += 1) {
      const res = await app.request({ method: 'GET', url: path });
      expect(res.status).toBe(200);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('data-page-state="cancelled"');
      expect(res.text).toContain('This booking was cancelled. Nothing was paid and nothing is due.');
      expect(res.text).toContain('data-amount-cents="0"');
    }
    expect(createsFor(booking.id)).toHaveLength(0);
    expect(
      stripe.requests.filter((r) => r.path.startsWith('/v1/') && JSON.stringify(r.form).includes(booking.id)),
    ).toEqual([]);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CANCELLED');
    expect(after.payment.status).toBe('UNPAID');
  });

  it('#26: async_payment_succeeded marks the booking paid and confirms it (after a completed but unpaid session changed nothing)', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    // A bank debit: the guest finishes Checkout, the money has not arrived.
    const completed = stripe.completeDelayed(sessionId);
    expect((completed.data.object as { payment_status: string }).payment_status).toBe('unpaid');
    const first = await postEvent(app, completed);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: 'not_paid' });
    let after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment).toMatchObject({ status: 'UNPAID', amountPaid: 0, provider: null, paidAt: null });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
    // The success page asks the provider, which says unpaid: the page waits and nothing changes.
    const waiting = await app.request({ method: 'GET', url: `${path}/done?session_id=${sessionId}` });
    expect(waiting.status).toBe(200);
    expect(waiting.text).toContain('data-page-state="waiting"');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');

    h.clock.set('2026-11-20T11:30:00Z');
    const succeeded = stripe.settleDelayed(sessionId);
    expect(succeeded.type).toBe('checkout.session.async_payment_succeeded');
    const second = await postEvent(app, succeeded);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toEqual({ received: true, outcome: 'applied' });
    after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CONFIRMED');
    expect(after.payment).toEqual({
      status: 'PAID',
      amountPaid: 4100,
      amountRefunded: 0,
      currency: 'EUR',
      provider: 'stripe',
      paidAt: '2026-11-20T11:30:00.000Z',
    });
    const events = await eventsOf(booking.id);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.paid', 'booking.confirmed']);
    expect(events[1].data).toMatchObject({ amount: 4100, payment: { status: 'PAID', provider: 'stripe' } });
    // Stripe delivering either event again changes nothing.
    expect((await postEvent(app, succeeded)).body.outcome).toBe('duplicate');
    expect((await postEvent(app, completed)).body.outcome).toBe('not_paid');
    expect((await eventsOf(booking.id)).filter((e) => e.type === 'booking.paid')).toHaveLength(1);
  });

  it('#26: a checkout.session.completed with payment_status unpaid changes nothing: the booking stays unpaid', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const event = stripe.completeDelayed(sessionId);
    for (let delivery = 0; delivery < 2; delivery += 1) {
      const res = await postEvent(app, event);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'not_paid' });
    }
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment).toEqual({
      status: 'UNPAID',
      amountPaid: 0,
      amountRefunded: 0,
      currency: 'EUR',
      provider: null,
      paidAt: null,
    });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
    const records = await app.graphql(v.apiKey, 'query($id: ID!) { paymentRecords(bookingId: $id) { kind } }', {
      id: booking.id,
    });
    expect(records.body.data.paymentRecords).toEqual([]);
  });

  it('#42: a signed paid session for another amount or currency does not mark the booking paid (200, audited, counted)', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const forged = (change: { amount_total?: number; currency?: string }) => {
      const event = stripe.eventOf(sessionId, 'checkout.session.completed') as Stripe.Event & {
        data: { object: Record<string, unknown> };
      };
      Object.assign(event.data.object, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: 'pi_test_forged',
        url: null,
        ...change,
      });
      return event;
    };
    // 1 cent instead of 41 €, and the right number in yen.
    for (const event of [forged({ amount_total: 1 }), forged({ currency: 'jpy' })]) {
      const res = await postEvent(app, event);
      // 200: Stripe would retry an error for days; the difference is flagged instead.
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'amount_mismatch' });
    }
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment).toMatchObject({ status: 'UNPAID', amountPaid: 0, provider: null });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
    const audits = await h.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('tenant_id', '=', v.tenantId)
      .where('action', '=', 'payment.amount_mismatch')
      .execute();
    expect(audits).toEqual([
      { action: 'payment.amount_mismatch', target_id: booking.id },
      { action: 'payment.amount_mismatch', target_id: booking.id },
    ]);
    expect(
      app.logs.filter((line) => line.includes('does not match what the booking owes') && line.includes(booking.id)),
    ).toHaveLength(2);
    // The real payment still goes through.
    expect((await postEvent(app, stripe.complete(sessionId))).body.outcome).toBe('applied');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('PAID');
  });

  it('#26: an event type Portier ignores answers 2xx and changes nothing', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const delayed = stripe.completeDelayed(sessionId);
    expect((await postEvent(app, delayed)).body.outcome).toBe('not_paid');
    // Types Portier does not subscribe to, about this very session; one even carries a paid session.
    const paidLooking = stripe.eventOf(sessionId, 'checkout.session.expired') as Stripe.Event & {
      data: { object: { payment_status: string; amount_total: number } };
    };
    paidLooking.data.object.payment_status = 'paid';
    const ignored = [
      stripe.eventOf(sessionId, 'checkout.session.async_payment_failed'),
      paidLooking,
      { ...stripe.eventOf(sessionId, 'charge.refunded'), data: { object: { id: 'ch_test_1', object: 'charge' } } },
      { ...stripe.eventOf(sessionId, 'customer.created'), data: { object: { id: 'cus_test_1', object: 'customer' } } },
    ];
    for (const event of ignored) {
      const res = await postEvent(app, event);
      expect(res.status, `${event.type}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, event.type).toBeLessThan(300);
      expect(res.body, event.type).toEqual({ received: true, outcome: 'ignored' });
    }
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment.status).toBe('UNPAID');
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual(['booking.created']);
  });

  it('#26: the success page applies a paid session itself when the webhook is lost or late; the late webhook then changes nothing', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    // The guest pays; the stand-in marks the session paid but its event is never sent (yet).
    const event = stripe.complete(sessionId);
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');
    const retrievesBefore = stripe.requests.filter((r) => r.method === 'GET' && r.path.endsWith(sessionId)).length;

    const done = await app.request({ method: 'GET', url: `${path}/done?session_id=${sessionId}` });
    expect(done.status).toBe(303);
    const landed = await app.request({ method: 'GET', url: String(done.headers.location) });
    expect(landed.text).toContain('data-done="paid"');
    expect(landed.text).toContain('data-status="CONFIRMED"');
    expect(landed.text).not.toContain('http-equiv="refresh"');
    // It asked the provider about the session (retrieve), then applied it.
    expect(
      stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`).length,
    ).toBe(retrievesBefore + 1);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('CONFIRMED');
    expect(after.payment).toMatchObject({ status: 'PAID', amountPaid: 4100, provider: 'stripe' });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.paid',
      'booking.confirmed',
    ]);
    // Reloading the page and the webhook arriving late change nothing.
    expect((await app.request({ method: 'GET', url: `${path}/done?session_id=${sessionId}` })).headers.location).toBe(
      done.headers.location,
    );
    const late = await postEvent(app, event);
    expect(late.status).toBe(200);
    expect(late.body.outcome).toBe('duplicate');
    expect((await eventsOf(booking.id)).filter((e) => e.type === 'booking.paid')).toHaveLength(1);
    const records = await app.graphql(v.apiKey, 'query($id: ID!) { paymentRecords(bookingId: $id) { kind } }', {
      id: booking.id,
    });
    expect(records.body.data.paymentRecords).toEqual([{ kind: 'payment' }]);
  });

  it('#26: the success page applies nothing for a session that is not the booking’s, nor for an unpaid one', async () => {
    const { v, booking, path } = await booked();
    const other = await booked();
    const mine = await openCheckout(path);
    const theirs = await openCheckout(other.path);
    stripe.complete(theirs.sessionId); // paid, its event not sent
    // Another booking's paid session named on this booking's page: not applied to either.
    const foreign = await app.request({ method: 'GET', url: `${path}/done?session_id=${theirs.sessionId}` });
    expect(foreign.status).toBe(200);
    expect(foreign.text).toContain('data-page-state="waiting"');
    expect(foreign.text).toContain('http-equiv="refresh" content="3"');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');
    expect((await bookingOf(other.v.apiKey, other.booking.id)).payment.status).toBe('UNPAID');
    // This booking's own session, still open (the guest did not pay): waiting, nothing applied.
    const unpaid = await app.request({ method: 'GET', url: `${path}/done?session_id=${mine.sessionId}` });
    expect(unpaid.text).toContain('data-page-state="waiting"');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');
    // The other booking's own page applies its own payment.
    const theirsDone = await app.request({
      method: 'GET',
      url: `${other.path}/done?session_id=${theirs.sessionId}`,
    });
    expect(theirsDone.status).toBe(303);
    expect(theirsDone.headers.location).toMatch(/\?done=paid$/);
    expect((await bookingOf(other.v.apiKey, other.booking.id)).payment.status).toBe('PAID');
    expect((await bookingOf(v.apiKey, booking.id)).payment.status).toBe('UNPAID');
    // A token Portier did not issue: 404, revealing nothing.
    const bogus = await app.request({ method: 'GET', url: `/pay/not-a-token/done?session_id=${mine.sessionId}` });
    expect(bogus.status).toBe(404);
    expect(bogus.text).toContain('Payment link not found');
  });

  it('#26: the /cancelled return page answers: nothing was charged, a link back to pay, the booking unchanged', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const res = await app.request({ method: 'GET', url: `${path}/cancelled` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('data-page-state="abandoned"');
    expect(res.text).toContain('Nothing was charged.');
    expect(res.text).toContain(`<a href="${path}">Try again</a>`);
    expect(res.text).toContain('data-payment-status="UNPAID"');
    expect(res.text).toContain('data-amount-cents="4100"');
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.status).toBe('PENDING');
    expect(after.payment.status).toBe('UNPAID');
    // "Try again" resumes the same open session.
    expect((await openCheckout(path)).sessionId).toBe(sessionId);
    const bogus = await app.request({ method: 'GET', url: '/pay/not-a-token/cancelled' });
    expect(bogus.status).toBe(404);
  });

  it('answers 503 with a page when the provider cannot be reached, and charges nothing', async () => {
    const { path } = await booked();
    const down = await ownApp(h, {
      env: {
        stripe: {
          secretKey: stripe.secretKey,
          webhookSecret: stripe.webhookSecret,
          apiBase: new URL('http://127.0.0.1:9'),
        },
      },
    });
    try {
      const res = await down.request({ method: 'GET', url: path });
      expect(res.status).toBe(503);
      expect(res.text).toContain('Payment is unavailable right now');
    } finally {
      await down.close();
    }
  });
});

/** A door, an active device for it and a valid QR token inside its booking's window at NOW. */
async function doorAtNow() {
  const venue = await buildVenue(h, { pricePerHour: 0 });
  const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
  const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
  h.clock.set('2026-11-20T07:00:00Z');
  const bookingId = await bookViaRest(h, {
    tenantId: venue.tenantId,
    apiKey: venue.apiKey,
    objectId: venue.object.id,
    startTime: '2026-11-20T08:00:00Z',
    endTime: '2026-11-20T10:00:00Z',
    status: 'CONFIRMED',
  });
  const credentials = await h.request({
    method: 'GET',
    url: `/api/v1/tenants/${venue.tenantId}/bookings/${bookingId}/credentials`,
    apiKey: venue.apiKey,
  });
  expect(credentials.status, credentials.text).toBe(200);
  h.clock.set(NOW);
  const token = credentials.body.qrCode.token as string;
  return { doorId: door.id, ...device, token };
}

/** `count` access checks one after another on `target`, each allowed; each one's time in ms. */
async function accessCheckTimes(
  target: OwnApp,
  door: Awaited<ReturnType<typeof doorAtNow>>,
  count = 200,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await target.request({
      method: 'POST',
      url: `/api/devices/${door.deviceId}/access-check`,
      apiKey: door.deviceKey,
      body: { token: door.token, doorId: door.doorId },
    });
    times.push(performance.now() - started);
    expect(res.status, res.text).toBe(200);
    expect(res.body.allowed, res.text).toBe(true);
  }
  return times;
}

const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.99) - 1];

describe('#42: a slow provider and the refund outbox', () => {
  afterEach(() => {
    stripe.latencyMs = 0;
  });

  it('20 cancellations at once answer promptly while Stripe takes 30 s; each refund is recorded once; no connection waits on Stripe; access checks on the same app stay under 50 ms p99 meanwhile', async () => {
    // The door of issue #42's "done means": checked on the same app while the 20 refunds hang.
    const door = await doorAtNow();
    await accessCheckTimes(app, door, 10); // warm: connections and prepared statements, as a door's steady state
    // The host's own p99 with nothing slow going on. The bound is 50 ms, or twice that baseline on a
    // host so busy that even an idle app misses 50 ms (as in test/door-bulkhead.test.ts).
    const unloaded = p99(await accessCheckTimes(app, door));
    const bound = Math.max(50, 2 * unloaded);
    const paid = [];
    for (let i = 0; i < 20; i += 1) {
      // Each its own venue: the 20 cancellations touch 20 rows, not one.
      const b = await booked();
      await payThroughStandIn(b.path);
      paid.push(b);
    }
    stripe.latencyMs = 30_000;
    const started = performance.now();
    const answers = await Promise.all(
      paid.map(({ v, booking }) =>
        app.request({
          method: 'PATCH',
          url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
          apiKey: v.apiKey,
          body: { status: 'CANCELLED' },
        }),
      ),
    );
    // Far below the provider's 30 s: the cancellations did not wait on it.
    expect(performance.now() - started).toBeLessThan(20_000);
    for (const [i, res] of answers.entries()) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.booking.status).toBe('CANCELLED');
      expect(res.body.refundAmount).toBe(paid[i].booking.totalPrice);
    }

    const ids = new Set(paid.map((p) => p.booking.id));
    const refundCalls = () =>
      stripe.requests.filter(
        (r) => r.path === '/v1/refunds' && ids.has((r.form.metadata as Record<string, string>).bookingId),
      );
    const worker = refundsDone();
    const deadline = Date.now() + 60_000;
    while (refundCalls().length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(refundCalls()).toHaveLength(20);
    // All 20 calls are waiting on the provider now. The database is free meanwhile: PGlite has one
    // connection, so this read would wait behind a transaction held across the call; on PostgreSQL
    // no session is left idle in a transaction.
    const during = performance.now();
    const read = await bookingOf(paid[0].v.apiKey, paid[0].booking.id);
    expect(read.status).toBe('CANCELLED');
    expect(performance.now() - during).toBeLessThan(10_000);
    if (h.deps.database.kind === 'postgres') expect(await sessionsIdleInTransaction()).toBe(0);
    expect(stripe.refunds.filter((r) => ids.has(r.metadata.bookingId))).toHaveLength(20);
    // The door meanwhile: 200 access checks while every refund still waits on the provider.
    let settled = false;
    void worker.finally(() => (settled = true));
    const duringChecks = await accessCheckTimes(app, door);
    expect(settled, 'the refunds were still waiting on the provider while the doors were checked').toBe(false);
    console.info(
      `access checks during 20 hanging refunds (${h.deps.database.kind}): p99 ${p99(duringChecks).toFixed(1)} ms; with nothing slow: p99 ${unloaded.toFixed(1)} ms; bound ${bound.toFixed(1)} ms`,
    );
    expect(p99(duringChecks)).toBeLessThan(bound);
    const outcomes = await worker;
    expect(outcomes).toEqual(Array(20).fill('succeeded'));
    expect(await refundsDone()).toEqual([]);

    for (const { v, booking } of paid) {
      const after = await bookingOf(v.apiKey, booking.id);
      expect(after.status).toBe('CANCELLED');
      expect(after.payment).toMatchObject({ status: 'REFUNDED', amountRefunded: booking.totalPrice });
      expect((await eventsOf(booking.id)).filter((e) => e.type === 'booking.refunded')).toHaveLength(1);
    }
    // The ledger equals the stand-in's refunds: checked for every booking after the case (expectLedgerAgrees).
  }, 240_000);
});

describe('#42: a slow provider and checkout creation', () => {
  afterEach(() => {
    stripe.latencyMs = 0;
  });

  it('opens a Checkout Session with no transaction held while Stripe answers; five clicks at once make one session', async () => {
    const { v, booking, path } = await booked();
    stripe.latencyMs = 3_000;
    const before = checkoutCalls();
    const clicks = Promise.all(Array.from({ length: 5 }, () => app.request({ method: 'GET', url: path })));
    await checkoutCallStarted(before);
    // A call is waiting on the provider: the booking's row and the database are free meanwhile (on
    // the old code the click held the row lock, and on PGlite the one connection, for the call).
    const during = performance.now();
    const read = await bookingOf(v.apiKey, booking.id);
    expect(read.status).toBe('PENDING');
    expect(performance.now() - during).toBeLessThan(2_500);
    if (h.deps.database.kind === 'postgres') expect(await sessionsIdleInTransaction()).toBe(0);
    const answers = await clicks;
    const locations = new Set(
      answers.map((res) => (expect(res.status, res.text).toBe(303), String(res.headers.location))),
    );
    expect(locations.size).toBe(1);
    const stored = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM checkout_sessions WHERE booking_id = ${booking.id}`.execute(h.deps.database.db);
    expect(stored.rows[0].n).toBe(1);
  }, 120_000);

  it('a booking cancelled while its session is being made gets its page, not the redirect', async () => {
    const { v, booking, path } = await booked();
    stripe.latencyMs = 2_000;
    const before = checkoutCalls();
    const click = app.request({ method: 'GET', url: path });
    await checkoutCallStarted(before);
    const cancelled = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const res = await click;
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  }, 120_000);
});

describe('#42: the payment reconciliation', () => {
  it('records a refund the provider made that Portier did not, and flags a refund the provider does not have', async () => {
    const created = Math.floor(new Date(NOW).getTime() / 1000);
    // A refund made at the provider (e.g. its worker died after the call): Portier has no record.
    const missed = await booked();
    const paidMissed = await payThroughStandIn(missed.path);
    const intent = stripe.sessions.get(paidMissed.sessionId)?.payment_intent ?? '';
    stripe.refunds.push({
      id: 're_test_missed_' + missed.booking.id.slice(0, 8),
      object: 'refund',
      amount: 1000,
      currency: 'eur',
      payment_intent: intent,
      status: 'succeeded',
      metadata: { bookingId: missed.booking.id },
      created,
    });
    // A refund Portier recorded that the provider does not list (it was removed from the stand-in).
    const ghost = await booked();
    await payThroughStandIn(ghost.path);
    const cancel = await app.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${ghost.v.tenantId}/bookings/${ghost.booking.id}`,
      apiKey: ghost.v.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(await refundsDone()).toEqual(['succeeded']);
    const ghostRefund = stripe.refunds.findIndex((r) => r.metadata.bookingId === ghost.booking.id);
    const [removed] = stripe.refunds.splice(ghostRefund, 1);
    touched.find((t) => t.id === ghost.booking.id)!.providerRefundedOutside = true;

    const report = await reconcilePayments(app.deps, 7);
    expect(report.repaired).toContainEqual({
      kind: 'refund_recorded',
      bookingId: missed.booking.id,
      reference: `re_test_missed_${missed.booking.id.slice(0, 8)}`,
    });
    expect(report.discrepancies).toContainEqual(
      expect.objectContaining({ kind: 'refund_not_at_provider', bookingId: ghost.booking.id, reference: removed.id }),
    );
    const repaired = await bookingOf(missed.v.apiKey, missed.booking.id);
    expect(repaired.payment).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: 1000 });
    expect((await eventsOf(missed.booking.id)).filter((e) => e.type === 'booking.refunded')).toHaveLength(1);
    const audits = await h.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('target_id', 'in', [missed.booking.id, ghost.booking.id])
      .where('action', 'in', ['payment.repaired', 'payment.discrepancy'])
      .execute();
    expect(audits).toEqual(
      expect.arrayContaining([
        { action: 'payment.repaired', target_id: missed.booking.id },
        { action: 'payment.discrepancy', target_id: ghost.booking.id },
      ]),
    );
    // Run again: nothing more is repaired (the refund is recorded once).
    const again = await reconcilePayments(app.deps, 7);
    expect(again.repaired.filter((r) => r.bookingId === missed.booking.id)).toEqual([]);
    expect((await bookingOf(missed.v.apiKey, missed.booking.id)).payment.amountRefunded).toBe(1000);
    stripe.refunds.push(removed);
    touched.find((t) => t.id === ghost.booking.id)!.providerRefundedOutside = false;
  });
});

describe('the paymentStatus filter', () => {
  it('#26: the REST listing and bookingPage filter by paymentStatus: exactly the bookings with that status; a bad value names the field', async () => {
    const v = await buildVenue(h, { pricePerHour: 2050 });
    // 21 November 09:00 UTC is 24 hours away: the 12-hour tier refunds half of a paid booking.
    await buildCancellationPolicy(h, v.tenantId, {
      isDefault: true,
      tiers: [{ hoursBeforeStart: 12, refundPercent: 50 }],
    });
    const book = async (hour: number) => {
      const res = await app.request({
        method: 'POST',
        url: `/api/v1/tenants/${v.tenantId}/bookings`,
        apiKey: v.apiKey,
        body: {
          objectId: v.object.id,
          guestName: `Guest ${hour}`,
          guestEmail: `guest-${hour}@example.com`,
          startTime: `2026-11-21T${String(hour).padStart(2, '0')}:00:00Z`,
          endTime: `2026-11-21T${String(hour + 1).padStart(2, '0')}:00:00Z`,
        },
      });
      expect(res.status, res.text).toBe(201);
      const booking = res.body.booking as { id: string; paymentUrl: string };
      touched.push({ apiKey: v.apiKey, id: booking.id });
      return { id: booking.id, path: new URL(booking.paymentUrl).pathname };
    };
    const cancel = async (id: string) => {
      const res = await app.request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${id}`,
        apiKey: v.apiKey,
        body: { status: 'CANCELLED' },
      });
      expect(res.status, res.text).toBe(200);
    };
    // In start-time order: unpaid; paid (confirmed); unpaid and cancelled; partly refunded; paid with
    // confirmOnPayment left on (confirmed); refunded in full (paid after it was cancelled).
    const unpaid = await book(8);
    const paid = await book(9);
    await payThroughStandIn(paid.path);
    const unpaidCancelled = await book(10);
    await cancel(unpaidCancelled.id);
    const partly = await book(11);
    await payThroughStandIn(partly.path);
    await cancel(partly.id);
    await refundsDone();
    const paidToo = await book(12);
    await payThroughStandIn(paidToo.path);
    const refunded = await book(13);
    const { sessionId } = await openCheckout(refunded.path);
    await cancel(refunded.id);
    expect((await postEvent(app, stripe.complete(sessionId))).body.outcome).toBe('refunded_after_cancellation');
    await refundsDone();

    const expected: Record<string, string[]> = {
      UNPAID: [unpaid.id, unpaidCancelled.id],
      PAID: [paid.id, paidToo.id],
      PARTIALLY_REFUNDED: [partly.id],
      REFUNDED: [refunded.id],
    };
    const list = (query: string) =>
      app.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}/bookings${query}`, apiKey: v.apiKey });
    const PAGE =
      'query($p: PaymentStatus, $s: BookingStatus) { bookingPage(paymentStatus: $p, status: $s, pageSize: 100) { bookings { id payment { status } } pagination { total } } }';
    for (const [status, ids] of Object.entries(expected)) {
      const rest = await list(`?paymentStatus=${status}&pageSize=100`);
      expect(rest.status, rest.text).toBe(200);
      expect(
        rest.body.bookings.map((b: { id: string }) => b.id),
        status,
      ).toEqual(ids);
      expect(rest.body.bookings.every((b: { payment: { status: string } }) => b.payment.status === status)).toBe(true);
      expect(rest.body.pagination.total, status).toBe(ids.length);
      const gql = await app.graphql(v.apiKey, PAGE, { p: status });
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(
        gql.body.data.bookingPage.bookings.map((b: { id: string }) => b.id),
        status,
      ).toEqual(ids);
      expect(gql.body.data.bookingPage.pagination.total, status).toBe(ids.length);
    }
    // Unfiltered: all six; with the booking status too: both filters hold.
    expect((await list('')).body.pagination.total).toBe(6);
    expect(
      (await list('?status=CANCELLED&paymentStatus=UNPAID')).body.bookings.map((b: { id: string }) => b.id),
    ).toEqual([unpaidCancelled.id]);
    const both = await app.graphql(v.apiKey, PAGE, { p: 'PAID', s: 'CONFIRMED' });
    expect(both.body.data.bookingPage.bookings.map((b: { id: string }) => b.id)).toEqual([paid.id, paidToo.id]);

    // A value that is not a payment status: 400 naming the field (REST), a GraphQL error (GraphQL).
    for (const bad of ['SETTLED', 'paid', 'UNPAID,PAID']) {
      const res = await list(`?paymentStatus=${bad}`);
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors, bad).toEqual([expect.objectContaining({ field: 'paymentStatus' })]);
      expect(res.body.detail, bad).toContain('paymentStatus');
    }
    const variable = await app.graphql(v.apiKey, PAGE, { p: 'SETTLED' });
    expect(variable.body.data ?? null).toBeNull();
    expect(variable.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(variable.body.errors[0].message).toContain('PaymentStatus');
    const literal = await app.graphql(v.apiKey, '{ bookingPage(paymentStatus: SETTLED) { pagination { total } } }');
    expect(literal.body.data ?? null).toBeNull();
    expect(literal.body.errors[0].extensions.code).toMatch(/^[A-Z_]+$/);
    expect(literal.body.errors[0].message).toContain('PaymentStatus');
  });
});

describe('settings, holds and pay at the venue', () => {
  it('holds an unpaid booking for pendingExpiryMinutes, then cancels it (payment_expired), expires its session and frees the slot', async () => {
    const { v, booking, path } = await booked();
    const set = await app.graphql(
      v.apiKey,
      'mutation { updateTenantSettings(input: { pendingExpiryMinutes: 15 }) { confirmOnPayment pendingExpiryMinutes } }',
    );
    expect(set.body.data.updateTenantSettings).toEqual({ confirmOnPayment: true, pendingExpiryMinutes: 15 });
    const { sessionId } = await openCheckout(path);
    // Stripe takes 30 minutes at least: the session gets 30, the sweep expires it when the hold ends.
    expect(stripe.sessions.get(sessionId)?.expires_at).toBe(Date.parse(NOW) / 1000 + 1800);

    h.clock.set('2026-11-20T09:14:59Z');
    await sweepExpiredHolds(app.deps, h.clock.now());
    expect((await bookingOf(v.apiKey, booking.id)).status).toBe('PENDING');
    h.clock.set('2026-11-20T09:15:00Z');
    expect(await sweepExpiredHolds(app.deps, h.clock.now())).toBeGreaterThanOrEqual(1);
    expect((await bookingOf(v.apiKey, booking.id)).status).toBe('CANCELLED');
    const cancelled = (await eventsOf(booking.id)).find((e) => e.type === 'booking.cancelled');
    expect(cancelled?.data.reason).toBe('payment_expired');
    expect(stripe.sessions.get(sessionId)?.status).toBe('expired');
    expect(app.deps.dispatcherSweeps.map((s) => s.name)).toContain('payment holds');

    // The slot is free again.
    const again = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'Grace Hopper',
        guestEmail: 'grace@example.com',
        startTime: '2026-11-21T09:00:00Z',
        endTime: '2026-11-21T11:00:00Z',
      },
    });
    expect(again.status, again.text).toBe(201);
  });

  it('does not cancel a paid booking when its hold ends', async () => {
    const { v, booking, path } = await booked();
    await app.graphql(
      v.apiKey,
      'mutation { updateTenantSettings(input: { pendingExpiryMinutes: 15, confirmOnPayment: false }) { pendingExpiryMinutes } }',
    );
    await payThroughStandIn(path);
    h.clock.set('2026-11-20T12:00:00Z');
    await sweepExpiredHolds(app.deps, h.clock.now());
    const after = await bookingOf(v.apiKey, booking.id);
    // confirmOnPayment off: paid, still PENDING, and not swept.
    expect(after.status).toBe('PENDING');
    expect(after.payment.status).toBe('PAID');
  });

  it('refuses settings out of range, naming the field', async () => {
    const { v } = await booked();
    const res = await app.graphql(
      v.apiKey,
      'mutation { updateTenantSettings(input: { pendingExpiryMinutes: 0 }) { pendingExpiryMinutes } }',
    );
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toContain('pendingExpiryMinutes');
    const read = await app.graphql(v.apiKey, '{ tenantSettings { confirmOnPayment pendingExpiryMinutes } }');
    expect(read.body.data.tenantSettings).toEqual({ confirmOnPayment: true, pendingExpiryMinutes: null });
  });

  it('marks a booking paid at the venue (audited), and a cancellation records the refund to hand back', async () => {
    const noProvider = await ownApp(h);
    try {
      const { v, booking, path } = await booked();
      const page = await noProvider.request({ method: 'GET', url: path });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Please pay €41.00 at the venue');
      const paid = await noProvider.graphql(
        v.apiKey,
        'mutation($id: ID!) { markBookingPaid(id: $id, amount: 4100, note: "cash") { status payment { status amountPaid provider } } }',
        { id: booking.id },
      );
      expect(paid.body.data.markBookingPaid).toEqual({
        status: 'CONFIRMED',
        payment: { status: 'PAID', amountPaid: 4100, provider: 'venue' },
      });
      const twice = await noProvider.graphql(
        v.apiKey,
        'mutation($id: ID!) { markBookingPaid(id: $id, amount: 4100) { status } }',
        { id: booking.id },
      );
      expect(twice.body.errors[0].extensions.code).toBe('CONFLICT');
      const audit = await h.deps.database.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('tenant_id', '=', v.tenantId)
        .where('action', '=', 'booking.marked_paid')
        .execute();
      expect(audit).toHaveLength(1);
      const cancel = await noProvider.request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
        apiKey: v.apiKey,
        body: { status: 'CANCELLED' },
      });
      expect(cancel.body.booking.payment).toMatchObject({ status: 'REFUNDED', amountRefunded: 4100 });
      const records = await noProvider.graphql(
        v.apiKey,
        'query($id: ID!) { paymentRecords(bookingId: $id) { kind provider amount note } }',
        { id: booking.id },
      );
      expect(records.body.data.paymentRecords).toEqual([
        { kind: 'payment', provider: 'venue', amount: 4100, note: 'cash' },
        { kind: 'refund', provider: 'venue', amount: 4100, note: 'To be handed back at the venue' },
      ]);
      const bad = await noProvider.graphql(
        v.apiKey,
        'mutation($id: ID!) { markBookingPaid(id: $id, amount: -5) { status } }',
        { id: booking.id },
      );
      expect(bad.body.errors[0].message).toContain('amount');
    } finally {
      await noProvider.close();
    }
  });
});

describe('two processes receiving the same event', () => {
  let second: OwnApp;
  let secondDatabase: Database | undefined;
  beforeAll(async () => {
    // On PostgreSQL the second "process" has its own connection pool, as a second server would.
    const url = await runDatabaseUrl();
    secondDatabase = url ? await openDatabase({ databaseUrl: url }) : undefined;
    second = await ownApp(
      { ...h, deps: { ...h.deps, database: secondDatabase ?? h.deps.database } },
      { env: app.deps.env },
    );
  });
  afterAll(async () => {
    await second.close();
    await secondDatabase?.close();
  });

  it('makes one transition: one booking.paid, one booking.confirmed', async () => {
    const { v, booking, path } = await booked();
    const { sessionId } = await openCheckout(path);
    const event = stripe.complete(sessionId);
    const [a, b] = await Promise.all([postEvent(app, event), postEvent(second, event)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.outcome, b.body.outcome].sort()).toEqual(['applied', 'duplicate']);
    const after = await bookingOf(v.apiKey, booking.id);
    expect(after.payment).toMatchObject({ status: 'PAID', amountPaid: 4100 });
    expect((await eventsOf(booking.id)).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.paid',
      'booking.confirmed',
    ]);
  });
});

describe('property: what the booking says was paid and refunded is what the provider holds', () => {
  it('paid − refunded ≥ 0 and equals the stand-in’s charged − refunded, whatever the order of events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          hours: fc.integer({ min: 1, max: 3 }),
          refundPercent: fc.integer({ min: 0, max: 100 }),
          cancelFirst: fc.boolean(),
          cancel: fc.boolean(),
          deliveries: fc.integer({ min: 1, max: 3 }),
        }),
        async ({ hours, refundPercent, cancelFirst, cancel, deliveries }) => {
          h.clock.set(NOW);
          const start = new Date('2026-11-22T08:00:00Z');
          const { v, booking, path } = await booked({
            start: start.toISOString(),
            end: new Date(start.getTime() + hours * 3_600_000).toISOString(),
          });
          await buildCancellationPolicy(h, v.tenantId, {
            isDefault: true,
            tiers: [{ hoursBeforeStart: 1, refundPercent }],
          });
          const { sessionId } = await openCheckout(path);
          const event = stripe.complete(sessionId);
          const cancelNow = () =>
            app.request({
              method: 'PATCH',
              url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
              apiKey: v.apiKey,
              body: { status: 'CANCELLED' },
            });
          if (cancel && cancelFirst) expect((await cancelNow()).status).toBe(200);
          for (let i = 0; i < deliveries; i += 1) expect((await postEvent(app, event)).status).toBe(200);
          if (cancel && !cancelFirst) expect((await cancelNow()).status).toBe(200);
          const { payment } = await bookingOf(v.apiKey, booking.id);
          const held = stripe.netOf(stripe.sessions.get(sessionId)?.payment_intent ?? '');
          expect(payment.amountPaid - payment.amountRefunded).toBeGreaterThanOrEqual(0);
          expect(payment.amountPaid).toBe(held.charged);
          expect(payment.amountRefunded).toBe(held.refunded);
        },
      ),
      { numRuns: 8, seed: 26 },
    );
  });
});
