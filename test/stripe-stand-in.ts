import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

// A local stand-in for the few Stripe endpoints Portier calls, following Stripe's API reference:
// form-encoded request bodies with bracketed keys, Bearer secret key, Idempotency-Key (the same key
// answers the same object), JSON objects as Stripe returns them, errors as {error: {type, message}}.
//   POST /v1/checkout/sessions            create (expires_at must be 30 minutes to 24 hours ahead)
//   GET  /v1/checkout/sessions/:id        retrieve
//   POST /v1/checkout/sessions/:id/expire expire (only an open session)
//   POST /v1/refunds                      create (never more than charged and not yet refunded)
//   GET  /v1/refunds, /v1/checkout/sessions list (created[gte], limit, starting_after; newest first)
// It also serves a fake hosted checkout page (GET /pay/:sessionId) whose button "pays": the
// session completes, a signed checkout.session.completed event is POSTed to Portier's webhook
// (signed as Stripe signs, with the SDK's generateTestHeaderString), and the guest is sent to the
// success_url. Tests can also complete a session paid by a delayed method (completed but `unpaid`,
// then `checkout.session.async_payment_succeeded`), or build any other event about a session.
// Everything it receives is recorded for assertions. It is NOT Stripe.

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: Record<string, unknown>;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  url: string | null;
  payment_intent: string | null;
  line_items_sent: unknown;
  livemode: false;
  created: number;
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

/** Bracketed form keys (line_items[0][price_data][currency]) into nested objects and arrays. */
export function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/[[\]]+/).filter(Boolean);
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  requests: RecordedRequest[];
  sessions: Map<string, StandInSession>;
  refunds: StandInRefund[];
  /** Where "paying" POSTs the signed event (Portier's /api/payments/stripe/webhook). */
  webhookUrl: string | undefined;
  /** Completes a session as a guest paying would, returning the event (not yet delivered). */
  complete(sessionId: string): Stripe.Event;
  /**
   * Completes a session paid by a delayed method (a bank debit): the session is complete but still
   * `unpaid`, and the `checkout.session.completed` event says so; nothing is charged yet.
   */
  completeDelayed(sessionId: string): Stripe.Event;
  /** The delayed payment of a completed session arrives: `checkout.session.async_payment_succeeded`, charged. */
  settleDelayed(sessionId: string): Stripe.Event;
  /** Any other event about a session (e.g. `checkout.session.async_payment_failed`), as Stripe would send it. */
  eventOf(sessionId: string, type: string): Stripe.Event;
  /** A signed event body and header, as Stripe would POST them (timestamp in real Unix seconds). */
  sign(event: unknown, timestamp?: number): { payload: string; header: string };
  /** POSTs the event to webhookUrl, signed; answers Portier's status. */
  deliver(event: unknown): Promise<number>;
  /**
   * How long the API takes to answer, in ms (0 by default). The work is done first and the answer
   * is late, as with a slow Stripe: a client that gives up has still been refunded.
   */
  latencyMs: number;
  /** Cents charged and refunded per payment intent (what the provider holds). */
  netOf(paymentIntent: string): { charged: number; refunded: number };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export async function startStripeStandIn(options: { now?: () => Date } = {}): Promise<StripeStandIn> {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const signer = new Stripe(secretKey);
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const refunds: StandInRefund[] = [];
  const charged = new Map<string, number>();
  const idempotent = new Map<string, { status: number; body: string }>();
  let base = '';

  const fail = (res: ServerResponse, status: number, message: string, param?: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }));
  };
  const send = (res: ServerResponse, body: unknown, status = 200) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(text);
    return text;
  };

  function createSession(form: Record<string, unknown>): StandInSession | string {
    if (form.mode !== 'payment') return 'mode: must be payment';
    const item = (form.line_items as Record<string, Record<string, Record<string, unknown>>> | undefined)?.['0'];
    const price = item?.price_data;
    const amount = Number(price?.unit_amount);
    if (!price || !Number.isInteger(amount) || amount < 1 || Number(item.quantity) !== 1)
      return 'line_items: one item with price_data.unit_amount and quantity 1';
    const productName = (price.product_data as Record<string, string> | undefined)?.name;
    if (!productName) return 'line_items[0][price_data][product_data][name]: required';
    const expiresAt = Number(form.expires_at ?? now() + 86_400);
    if (!(expiresAt >= now() + 1800 && expiresAt <= now() + 86_400))
      return 'expires_at: must be between 30 minutes and 24 hours from now';
    if (typeof form.success_url !== 'string' || typeof form.cancel_url !== 'string')
      return 'success_url and cancel_url: required';
    const sessionId = id('cs');
    const session: StandInSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency: String(price.currency),
      client_reference_id: (form.client_reference_id as string | undefined) ?? null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      expires_at: expiresAt,
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      url: `${base}/pay/${sessionId}`,
      payment_intent: null,
      line_items_sent: form.line_items,
      livemode: false,
      created: now(),
    };
    sessions.set(sessionId, session);
    return session;
  }

  function sessionOf(sessionId: string): StandInSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return session;
  }

  function eventOf(sessionId: string, type: string): Stripe.Event {
    return {
      id: id('evt'),
      object: 'event',
      type,
      api_version: '2025-01-27',
      created: now(),
      livemode: false,
      data: { object: { ...sessionOf(sessionId) } },
    } as unknown as Stripe.Event;
  }

  function completeSession(sessionId: string, paid: boolean): Stripe.Event {
    const session = sessionOf(sessionId);
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${session.status}`);
    session.status = 'complete';
    session.payment_status = paid ? 'paid' : 'unpaid';
    session.url = null;
    session.payment_intent = id('pi');
    if (paid) charged.set(session.payment_intent, session.amount_total);
    return eventOf(sessionId, 'checkout.session.completed');
  }

  const complete = (sessionId: string) => completeSession(sessionId, true);

  function settleDelayed(sessionId: string): Stripe.Event {
    const session = sessionOf(sessionId);
    if (session.status !== 'complete' || session.payment_status !== 'unpaid' || !session.payment_intent)
      throw new Error(`session ${sessionId} has no delayed payment pending`);
    session.payment_status = 'paid';
    charged.set(session.payment_intent, session.amount_total);
    return eventOf(sessionId, 'checkout.session.async_payment_succeeded');
  }

  const standIn: StripeStandIn = {
    url: '',
    secretKey,
    webhookSecret,
    requests,
    sessions,
    refunds,
    webhookUrl: undefined,
    latencyMs: 0,
    complete,
    completeDelayed: (sessionId) => completeSession(sessionId, false),
    settleDelayed,
    eventOf,
    // Signatures carry the real time: the SDK checks its tolerance against the real clock.
    sign(event, timestamp = Math.floor(Date.now() / 1000)) {
      const payload = JSON.stringify(event);
      return {
        payload,
        header: signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp }),
      };
    },
    async deliver(event) {
      if (!standIn.webhookUrl) throw new Error('webhookUrl is not set');
      const { payload, header } = standIn.sign(event);
      const res = await fetch(standIn.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      await res.text();
      return res.status;
    },
    netOf(paymentIntent) {
      return {
        charged: charged.get(paymentIntent) ?? 0,
        refunded: refunds.filter((r) => r.payment_intent === paymentIntent).reduce((sum, r) => sum + r.amount, 0),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = parseForm(Buffer.concat(chunks).toString());
    const path = url.pathname;

    // The fake hosted checkout page and its "Pay" button.
    const hosted = /^\/pay\/(cs_test_[0-9a-f]+)(\/pay)?$/.exec(path);
    if (hosted) {
      const session = sessions.get(hosted[1]);
      if (!session) return void res.writeHead(404).end('no such session');
      if (req.method === 'GET') {
        const price = new Intl.NumberFormat('en-GB', {
          style: 'currency',
          currency: session.currency.toUpperCase(),
        }).format(session.amount_total / 100);
        const name = (
          session.line_items_sent as Record<string, Record<string, Record<string, Record<string, string>>>>
        )['0'].price_data.product_data.name;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stand-in checkout</title></head><body style="font-family:sans-serif;max-width:30rem;margin:2rem auto">` +
            `<p><strong>Test stand-in for Stripe Checkout</strong> (not Stripe)</p><h1>${name.replace(/[<>&]/g, '')}</h1><p id="amount">${price}</p>` +
            (session.status === 'open'
              ? `<form method="post" action="/pay/${session.id}/pay"><button type="submit">Pay ${price}</button></form>`
              : `<p>This session is ${session.status}.</p>`) +
            `</body></html>`,
        );
      }
      if (session.status !== 'open') return void res.writeHead(409).end(`session is ${session.status}`);
      const event = complete(session.id);
      await standIn.deliver(event);
      res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
      return void res.end();
    }

    requests.push({ method: req.method ?? '', path, headers: req.headers, form });
    if (req.headers.authorization !== `Bearer ${secretKey}`) return fail(res, 401, 'Invalid API Key provided');
    const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const replay = typeof key === 'string' ? idempotent.get(`${path}:${key}`) : undefined;
    const late = () => new Promise((resolve) => setTimeout(resolve, standIn.latencyMs));
    if (replay) {
      if (standIn.latencyMs > 0) await late();
      res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return void res.end(replay.body);
    }
    const remember = (text: string, status = 200) => {
      if (typeof key === 'string') idempotent.set(`${path}:${key}`, { status, body: text });
    };

    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const session = createSession(form);
      if (typeof session === 'string') return fail(res, 400, session);
      remember(JSON.stringify(session));
      if (standIn.latencyMs > 0) await late();
      return void send(res, session);
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (one) {
      const session = sessions.get(one[1]);
      if (!session) return fail(res, 404, `No such checkout.session: '${one[1]}'`, 'session');
      if (req.method === 'GET' && !one[2]) return void send(res, session);
      if (req.method === 'POST' && one[2]) {
        if (session.status !== 'open')
          return fail(
            res,
            400,
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        session.status = 'expired';
        session.url = null;
        return remember(send(res, session));
      }
    }
    if (req.method === 'GET' && (path === '/v1/refunds' || path === '/v1/checkout/sessions')) {
      // Stripe's list shape: newest first, `has_more`, pages by `starting_after` (an object's id).
      const gte = Number(url.searchParams.get('created[gte]') ?? 0);
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 10)));
      const all = (path === '/v1/refunds' ? [...refunds] : [...sessions.values()])
        .filter((o) => o.created >= gte)
        .reverse();
      const after = url.searchParams.get('starting_after');
      const from = after ? all.findIndex((o) => o.id === after) + 1 : 0;
      const data = all.slice(from, from + limit);
      return void send(res, { object: 'list', url: path, has_more: from + limit < all.length, data });
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      const intent = typeof form.payment_intent === 'string' ? form.payment_intent : '';
      const amount = Number(form.amount);
      const net = standIn.netOf(intent);
      if (!charged.has(intent)) return fail(res, 404, `No such payment_intent: '${intent}'`, 'payment_intent');
      if (!Number.isInteger(amount) || amount < 1 || amount > net.charged - net.refunded) {
        return fail(
          res,
          400,
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${net.charged - net.refunded})`,
          'amount',
        );
      }
      const refund: StandInRefund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: 'eur',
        payment_intent: intent,
        status: 'succeeded',
        metadata: (form.metadata as Record<string, string> | undefined) ?? {},
        created: now(),
      };
      refunds.push(refund);
      const text = JSON.stringify(refund);
      remember(text);
      if (standIn.latencyMs > 0) await late();
      return void send(res, refund);
    }
    return fail(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  standIn.url = base;
  return standIn;
}
