import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildPendingBooking, buildVenue } from './builders.js';
import { startStripeStandIn, type StandInRefund, type StripeStandIn } from './stripe-stand-in.js';
import { RefundWorker, reconcilePayments } from '../src/modules/payments/index.js';

// Issue #42: "repairs or flags every difference (a dashboard notice, a metric, an audit entry)".
// paymentIssues (GraphQL, and REST through the bridge) lists what Portier could not settle by
// itself — a refund that failed for good, a difference the reconciliation or the webhook's amount
// check found — and staff retry the refund or acknowledge the issue, both audited.

let h: Harness;
let stripe: StripeStandIn;
let app: OwnApp;
const WEBHOOK = '/api/payments/stripe/webhook';
const NOW = '2026-11-20T09:00:00Z';
const ISSUE_FIELDS = 'id kind bookingId amount currency detail reference since retryable acknowledgedAt acknowledgedBy';

beforeAll(async () => {
  h = await harness();
  stripe = await startStripeStandIn({ now: h.clock.now });
  app = await ownApp(h, {
    env: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) } },
  });
  // A test worker's PostgreSQL database outlives its files: refund intents an earlier file left
  // pending (test/payments.test.ts) name payments this file's stand-in never took. Park them, so
  // this file's refund passes attempt only its own.
  await h.deps.database.db
    .updateTable('refund_intents')
    .set({ next_attempt_at: new Date('9999-01-01T00:00:00Z') })
    .where('status', '=', 'pending')
    .execute();
});
afterAll(async () => {
  h?.clock.set(null);
  await app?.close();
  await stripe?.close();
});
beforeEach(() => h.clock.set(NOW));

async function paidBooking() {
  const { v, booking, path } = await buildPendingBooking(h, { via: app });
  const opened = await app.request({ method: 'GET', url: path });
  expect(opened.status, opened.text).toBe(303);
  const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(opened.headers.location))?.[1] ?? '';
  const paid = await postEvent(stripe.complete(sessionId));
  expect(paid.body.outcome).toBe('applied');
  const intent = stripe.sessions.get(sessionId)?.payment_intent ?? '';
  return { v, booking, sessionId, intent };
}

function postEvent(event: unknown) {
  const signed = stripe.sign(event);
  return app.request({
    method: 'POST',
    url: WEBHOOK,
    body: signed.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.header },
  });
}

async function gql(apiKey: string, query: string, variables: Record<string, unknown> = {}) {
  return app.graphql(apiKey, query, variables);
}

async function issuesOf(apiKey: string) {
  const res = await gql(apiKey, `{ paymentIssues { ${ISSUE_FIELDS} } }`);
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data.paymentIssues as {
    id: string;
    kind: string;
    bookingId: string;
    amount: number;
    currency: string;
    detail: string;
    reference: string | null;
    since: string;
    retryable: boolean;
    acknowledgedAt: string | null;
    acknowledgedBy: string | null;
  }[];
}

async function cancel(v: { tenantId: string; apiKey: string }, bookingId: string) {
  const res = await app.request({
    method: 'PATCH',
    url: `/api/v1/tenants/${v.tenantId}/bookings/${bookingId}`,
    apiKey: v.apiKey,
    body: { status: 'CANCELLED' },
  });
  expect(res.status, res.text).toBe(200);
}

async function refundsDone(): Promise<string[]> {
  const worker = new RefundWorker(app.deps);
  const outcomes: string[] = [];
  for (;;) {
    const pass = await worker.runOnce();
    if (pass.length === 0) return outcomes;
    outcomes.push(...pass);
  }
}

/** The booking's payment audit entries (its cancellation's own entry, booking.cancelled, left out). */
async function auditsOf(bookingId: string) {
  return h.deps.database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_label', 'details'])
    .where('target_id', '=', bookingId)
    .where('action', '<>', 'booking.cancelled')
    .orderBy('occurred_at')
    .execute();
}

describe('#42: a failed refund is a payment issue staff can retry', () => {
  it('lists the failed refund (GraphQL and REST), retries it with the same key, and it leaves the list once made', async () => {
    const { v, booking, intent } = await paidBooking();
    // Given back outside Portier: the provider refuses another refund, so the intent fails for good.
    const outside: StandInRefund = {
      id: `re_test_outside_${booking.id.slice(0, 8)}`,
      object: 'refund',
      amount: booking.totalPrice,
      currency: 'eur',
      payment_intent: intent,
      status: 'succeeded',
      metadata: {},
      created: 0,
    };
    stripe.refunds.push(outside);
    await cancel(v, booking.id);
    expect(await refundsDone()).toEqual(['failed']);

    const [issue, ...more] = await issuesOf(v.apiKey);
    expect(more).toEqual([]);
    expect(issue).toMatchObject({
      kind: 'refund_failed',
      bookingId: booking.id,
      amount: booking.totalPrice,
      currency: 'EUR',
      reference: intent,
      since: new Date(NOW).toISOString(),
      retryable: true,
      acknowledgedAt: null,
      acknowledgedBy: null,
    });
    expect(issue.detail).toContain('greater than unrefunded amount');

    // The same list through REST (the bridge runs the same resolver).
    const rest = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/payment-issues`,
      apiKey: v.apiKey,
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toEqual({ paymentIssues: [issue], next: null });

    // Another tenant sees nothing of it and cannot retry it.
    const other = await h.tenant('another venue');
    expect(await issuesOf(other.apiKey)).toEqual([]);
    const foreign = await gql(other.apiKey, 'mutation($b: ID!) { retryRefund(bookingId: $b) { id } }', {
      b: booking.id,
    });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    // The outside refund is reversed (canceled at the provider): a retry can now be made.
    stripe.refunds.splice(stripe.refunds.indexOf(outside), 1);
    h.clock.set('2026-11-20T09:05:00Z');
    const retried = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}/retry-refund`,
      apiKey: v.apiKey,
    });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.booking ?? retried.body).toMatchObject({ id: booking.id, status: 'CANCELLED' });
    expect(await issuesOf(v.apiKey)).toEqual([]);
    expect(await refundsDone()).toEqual(['succeeded']);
    const after = await gql(v.apiKey, 'query($id: ID!) { booking(id: $id) { payment { status amountRefunded } } }', {
      id: booking.id,
    });
    expect(after.body.data.booking.payment).toEqual({ status: 'REFUNDED', amountRefunded: booking.totalPrice });
    // One refund at the provider; every request carried the booking's one key.
    const calls = stripe.requests.filter(
      (r) => r.path === '/v1/refunds' && (r.form.metadata as Record<string, string>).bookingId === booking.id,
    );
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`portier-cancellation-refund-${booking.id}`]),
    );
    expect(stripe.refunds.filter((r) => r.metadata.bookingId === booking.id)).toHaveLength(1);
    const audits = await auditsOf(booking.id);
    expect(audits.map((a) => a.action)).toEqual(['refund.failed', 'refund.retried']);
    expect(audits[1].actor_label).toMatch(/^API key/);
    expect(audits[1].details).toMatchObject({ amount: booking.totalPrice, currency: 'EUR' });

    // Nothing failed is left to retry: 409, named.
    const again = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}/retry-refund`,
      apiKey: v.apiKey,
    });
    expect(again.status, again.text).toBe(409);
    expect(again.body.code).toBe('no_failed_refund');
    const bad = await gql(v.apiKey, 'mutation($b: ID!) { retryRefund(bookingId: $b) { id } }', {
      b: "1'; DROP TABLE refund_intents; --<script>",
    });
    expect(bad.body.errors?.[0]?.extensions?.reason).toBe('validation_failed');
    expect(JSON.stringify(bad.body.errors)).toContain('must be a booking id (uuid)');
  });

  it('a failed refund settled by hand is acknowledged once: audited, gone from the list, not retryable', async () => {
    const { v, booking, intent } = await paidBooking();
    stripe.refunds.push({
      id: `re_test_by_hand_${booking.id.slice(0, 8)}`,
      object: 'refund',
      amount: booking.totalPrice,
      currency: 'eur',
      payment_intent: intent,
      status: 'succeeded',
      metadata: {},
      created: 0,
    });
    await cancel(v, booking.id);
    expect(await refundsDone()).toEqual(['failed']);
    const [issue] = await issuesOf(v.apiKey);
    const ack = `mutation($id: ID!) { acknowledgePaymentIssue(id: $id) { ${ISSUE_FIELDS} } }`;
    const first = await gql(v.apiKey, ack, { id: issue.id });
    expect(first.body.errors, first.text).toBeUndefined();
    expect(first.body.data.acknowledgePaymentIssue).toMatchObject({
      id: issue.id,
      kind: 'refund_failed',
      retryable: false,
      acknowledgedAt: new Date(NOW).toISOString(),
    });
    expect(first.body.data.acknowledgePaymentIssue.acknowledgedBy).toMatch(/^API key/);
    expect(await issuesOf(v.apiKey)).toEqual([]);
    // Again: the same answer, no second audit entry.
    h.clock.set('2026-11-20T10:00:00Z');
    const second = await gql(v.apiKey, ack, { id: issue.id });
    expect(second.body.data.acknowledgePaymentIssue.acknowledgedAt).toBe(new Date(NOW).toISOString());
    // Both entries may carry the same instant (the test clock), so their order is not asserted.
    expect((await auditsOf(booking.id)).map((a) => a.action).sort()).toEqual([
      'payment_issue.acknowledged',
      'refund.failed',
    ]);
    const unknown = await gql(v.apiKey, ack, { id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('#42: differences the reconciliation and the webhook flag', () => {
  it('keeps one issue per provider object however often reconciliation runs; acknowledged (REST) it stays so', async () => {
    const { v, booking } = await paidBooking();
    await cancel(v, booking.id);
    expect(await refundsDone()).toEqual(['succeeded']);
    // The provider no longer lists the refund Portier recorded.
    const index = stripe.refunds.findIndex((r) => r.metadata.bookingId === booking.id);
    const [removed] = stripe.refunds.splice(index, 1);
    try {
      const report = await reconcilePayments(app.deps, 7);
      expect(report.discrepancies).toContainEqual(
        expect.objectContaining({ kind: 'refund_not_at_provider', bookingId: booking.id, reference: removed.id }),
      );
      h.clock.set('2026-11-20T10:00:00Z');
      await reconcilePayments(app.deps, 7);
      const issues = await issuesOf(v.apiKey);
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({
        kind: 'refund_not_at_provider',
        bookingId: booking.id,
        amount: booking.totalPrice,
        currency: 'EUR',
        reference: removed.id,
        since: new Date(NOW).toISOString(),
        retryable: false,
      });
      expect(issues[0].detail).toContain('does not list');
      const rows = await h.deps.database.db
        .selectFrom('payment_discrepancies')
        .select(['first_seen_at', 'last_seen_at'])
        .where('booking_id', '=', booking.id)
        .execute();
      expect(rows).toEqual([{ first_seen_at: new Date(NOW), last_seen_at: new Date('2026-11-20T10:00:00Z') }]);

      // A key that may read bookings sees the notice but may not settle it.
      const reader = await h.key(v.tenantId, ['bookings:read']);
      expect(await issuesOf(reader)).toHaveLength(1);
      const refused = await app.request({
        method: 'POST',
        url: `/api/v1/tenants/${v.tenantId}/payment-issues/${issues[0].id}/acknowledge`,
        apiKey: reader,
      });
      expect(refused.status, refused.text).toBe(403);
      const catalogOnly = await h.key(v.tenantId, ['catalog:read']);
      const hidden = await gql(catalogOnly, '{ paymentIssues { id } }');
      expect(hidden.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

      const acknowledged = await app.request({
        method: 'POST',
        url: `/api/v1/tenants/${v.tenantId}/payment-issues/${issues[0].id}/acknowledge`,
        apiKey: v.apiKey,
      });
      expect(acknowledged.status, acknowledged.text).toBe(200);
      expect(acknowledged.body).toMatchObject({ id: issues[0].id, acknowledgedAt: '2026-11-20T10:00:00.000Z' });
      // The difference is still there at the next run: counted and audited again, not re-opened.
      await reconcilePayments(app.deps, 7);
      expect(await issuesOf(v.apiKey)).toEqual([]);
      const audits = (await auditsOf(booking.id)).map((a) => a.action);
      expect(audits.filter((a) => a === 'payment.discrepancy')).toHaveLength(3);
      expect(audits.filter((a) => a === 'payment_issue.acknowledged')).toHaveLength(1);
    } finally {
      stripe.refunds.push(removed);
    }
  });

  it('a signed paid session for another amount is one issue, however often Stripe sends it', async () => {
    const v = await buildVenue(h, { pricePerHour: 2050 });
    const created = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        startTime: '2026-11-21T09:00:00Z',
        endTime: '2026-11-21T11:00:00Z',
      },
    });
    const booking = created.body.booking as { id: string; paymentUrl: string };
    const opened = await app.request({ method: 'GET', url: new URL(booking.paymentUrl).pathname });
    const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(opened.headers.location))?.[1] ?? '';
    const event = stripe.eventOf(sessionId, 'checkout.session.completed') as { data: { object: object } };
    Object.assign(event.data.object, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_test_forged',
      url: null,
      amount_total: 1,
    });
    for (let i = 0; i < 3; i += 1) expect((await postEvent(event)).body.outcome).toBe('amount_mismatch');
    const issues = await issuesOf(v.apiKey);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      kind: 'checkout_amount_mismatch',
      bookingId: booking.id,
      amount: 1,
      currency: 'EUR',
      reference: sessionId,
    });
    expect(issues[0].detail).toContain('is not what the booking owes (4100 in EUR cents)');
  });
});

describe('#42: the Stripe webhook route’s OpenAPI description', () => {
  it('no longer says a refund can make it answer 503 (refunds go through the outbox)', async () => {
    const res = await app.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.status).toBe(200);
    const webhook = res.body.paths[WEBHOOK].post;
    expect(JSON.stringify(webhook)).not.toMatch(/refused a refund/);
    expect(webhook.responses['503'].description).toMatch(/database_unavailable/);
    expect(webhook.description).toMatch(/refunded in full/);
  });
});
