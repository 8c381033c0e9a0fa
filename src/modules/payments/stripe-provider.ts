import type Stripe from 'stripe';
import { DomainError } from '../../kernel/errors.js';

// The payment provider behind a booking's paymentUrl: Stripe Checkout through the official SDK.
// Built once by composeDeps (src/deps.ts) from STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and
// STRIPE_API_BASE; absent a key there is no provider and guests pay at the venue.

export interface CheckoutRequest {
  bookingId: string;
  tenantId: string;
  /** Cents. */
  amount: number;
  currency: string;
  /** The line item's name: the object and the local time. */
  description: string;
  expiresAt: Date;
  successUrl: string;
  cancelUrl: string;
  /** Stripe's Idempotency-Key: a retry of the same request returns the same session. */
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  expiresAt: Date;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotal: number;
  currency: string;
  paymentIntent: string | null;
  metadata: Record<string, string>;
  clientReferenceId: string | null;
}

export interface RefundRequest {
  paymentIntent: string;
  amount: number;
  bookingId: string;
  idempotencyKey: string;
}

export interface ProviderRefund {
  id: string;
  amount: number;
  status: string;
  /** Listed refunds only. */
  currency?: string;
  paymentIntent?: string | null;
  metadata?: Record<string, string>;
  created?: Date;
}

/** What Portier asks of a provider; tests point the Stripe one at a local stand-in. */
export interface PaymentProvider {
  readonly name: 'stripe';
  /** One refund call's deadline, in ms (the refund worker's lease follows it). */
  readonly refundTimeoutMs: number;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string): Promise<CheckoutSession>;
  expireCheckout(sessionId: string): Promise<void>;
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** Refunds created since `since` (the reconciliation; every page). */
  listRefunds(since: Date): Promise<ProviderRefund[]>;
  /** Checkout Sessions created since `since` (the reconciliation; every page). */
  listCheckoutSessions(since: Date): Promise<CheckoutSession[]>;
  /** The verified event, or a DomainError 400 (unsigned, tampered, stale, or not a Stripe event). */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event>;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** The SDK's host, port and protocol come from this URL (default https://api.stripe.com). */
  apiBase: URL | undefined;
  /** One refund call's deadline (default REFUND_DEADLINE_MS). */
  refundTimeoutMs?: number;
  /** How old a signed event may be, in seconds (the SDK's default tolerance: 300). */
  toleranceSeconds?: number;
}

/**
 * One interactive call's deadline (a guest waiting on the paymentUrl's redirect), with one retry:
 * 2 × 8 s stays under the 30 s a browser or proxy commonly waits.
 */
export const INTERACTIVE_DEADLINE_MS = 8_000;
/** One refund call's deadline (the refund worker; nobody waits on it), with two retries. */
export const REFUND_DEADLINE_MS = 45_000;

/** The provider refused or could not be reached: the caller's change rolls back (503). */
export const providerUnavailable = (what: string, error: unknown) =>
  new DomainError(
    'UNAVAILABLE',
    'payment_provider_unavailable',
    `The payment provider could not ${what}: ${(error as Error).message}`,
  );

function sessionOf(session: Stripe.Checkout.Session): CheckoutSession {
  const intent = session.payment_intent;
  return {
    id: session.id,
    url: session.url ?? '',
    expiresAt: new Date(session.expires_at * 1000),
    status: (session.status ?? 'open') as CheckoutSession['status'],
    paymentStatus: session.payment_status as CheckoutSession['paymentStatus'],
    amountTotal: session.amount_total ?? 0,
    currency: (session.currency ?? '').toUpperCase(),
    paymentIntent: typeof intent === 'string' ? intent : (intent?.id ?? null),
    metadata: session.metadata ?? {},
    clientReferenceId: session.client_reference_id,
  };
}

/** The checkout session an event carries (checkout.session.*), in Portier's shape. */
export const checkoutSessionOfEvent = (event: Stripe.Event): CheckoutSession =>
  sessionOf(event.data.object as Stripe.Checkout.Session);

/**
 * The provider, with the SDK loaded on its first use: a process that takes no payment never loads
 * it (~6 MB of heap, docs/performance.md round thirteen).
 */
export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const base = settings.apiBase;
  let client: Promise<Stripe> | undefined;
  const sdk = () =>
    (client ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(settings.secretKey, {
          ...(base
            ? {
                host: base.hostname,
                port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
                protocol: base.protocol === 'http:' ? 'http' : 'https',
              }
            : {}),
          maxNetworkRetries: 2,
          timeout: 20_000,
          appInfo: { name: 'Portier' },
        }),
    ));
  const tolerance = settings.toleranceSeconds ?? 300;
  const refundTimeoutMs = settings.refundTimeoutMs ?? REFUND_DEADLINE_MS;
  return {
    name: 'stripe',
    refundTimeoutMs,
    async createCheckout(r) {
      const stripe = await sdk();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: r.currency.toLowerCase(),
                unit_amount: r.amount,
                product_data: { name: r.description },
              },
            },
          ],
          metadata: { bookingId: r.bookingId, tenantId: r.tenantId },
          payment_intent_data: { metadata: { bookingId: r.bookingId, tenantId: r.tenantId } },
          client_reference_id: r.bookingId,
          expires_at: Math.floor(r.expiresAt.getTime() / 1000),
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        },
        { idempotencyKey: r.idempotencyKey, timeout: INTERACTIVE_DEADLINE_MS, maxNetworkRetries: 1 },
      );
      return sessionOf(session);
    },
    async retrieveCheckout(sessionId) {
      return sessionOf(
        await (
          await sdk()
        ).checkout.sessions.retrieve(sessionId, {}, { timeout: INTERACTIVE_DEADLINE_MS, maxNetworkRetries: 1 }),
      );
    },
    async expireCheckout(sessionId) {
      await (await sdk()).checkout.sessions.expire(sessionId);
    },
    async refund(r) {
      const refund = await (
        await sdk()
      ).refunds.create(
        { payment_intent: r.paymentIntent, amount: r.amount, metadata: { bookingId: r.bookingId } },
        { idempotencyKey: r.idempotencyKey, timeout: refundTimeoutMs, maxNetworkRetries: 2 },
      );
      return { id: refund.id, amount: refund.amount, status: refund.status ?? 'pending' };
    },
    async listRefunds(since) {
      const out: ProviderRefund[] = [];
      const list = (await sdk()).refunds.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 });
      for await (const refund of list) {
        const intent = refund.payment_intent;
        out.push({
          id: refund.id,
          amount: refund.amount,
          status: refund.status ?? 'pending',
          currency: refund.currency.toUpperCase(),
          paymentIntent: typeof intent === 'string' ? intent : (intent?.id ?? null),
          metadata: refund.metadata ?? {},
          created: new Date(refund.created * 1000),
        });
      }
      return out;
    },
    async listCheckoutSessions(since) {
      const out: CheckoutSession[] = [];
      const list = (await sdk()).checkout.sessions.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: 100,
      });
      for await (const session of list) out.push(sessionOf(session));
      return out;
    },
    async verifyEvent(rawBody, signature) {
      if (!signature)
        throw new DomainError('BAD_USER_INPUT', 'invalid_signature', 'Stripe-Signature: the header is missing');
      const stripe = await sdk();
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret, tolerance);
      } catch (error) {
        throw new DomainError('BAD_USER_INPUT', 'invalid_signature', `Stripe-Signature: ${(error as Error).message}`);
      }
    },
  };
}
