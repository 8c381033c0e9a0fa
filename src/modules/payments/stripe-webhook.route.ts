import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { applyCheckoutSession } from './payments.service.js';
import { checkoutSessionOfEvent } from './stripe-provider.js';

// POST /api/payments/stripe/webhook — Stripe's events. The signature is checked by the SDK over the
// raw body (this route's own body parser keeps the bytes), with the signing secret and the SDK's
// tolerance; anything unsigned, tampered or stale is a 400 problem and changes nothing.

export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

/** The events that pay a booking; every other type is acknowledged and ignored. */
const PAYING_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

const PROBLEM = { contentType: 'application/problem+json', schema: { $ref: '#/components/schemas/Problem' } };

const DOC: RouteDoc = {
  operationId: 'stripeWebhook',
  summary: 'Stripe’s webhook endpoint (checkout.session.completed, checkout.session.async_payment_succeeded)',
  description:
    'Called by Stripe, not by integrators: the raw body is verified against the Stripe-Signature header with STRIPE_WEBHOOK_SECRET (5 minutes tolerance). A paid Checkout Session marks its booking paid (booking.paid) and, when the tenant’s confirmOnPayment is on, confirms it (booking.confirmed); a payment for a booking cancelled meanwhile is refunded in full through the refund outbox (booking.refunded follows once the provider made it). A paid session whose amount_total or currency is not what the booking owes marks nothing paid: it is answered 200 with outcome amount_mismatch (Stripe would otherwise retry it for days), audited (payment.amount_mismatch), counted (portier_payment_discrepancies_total) and logged. The same event twice changes nothing the second time. Other event types are acknowledged and ignored.',
  tags: ['payments'],
  body: { type: 'object', description: 'A Stripe Event object, as Stripe sends it.' },
  responses: {
    200: {
      description: 'Received (applied, already applied, or nothing to do).',
      schema: {
        type: 'object',
        properties: { received: { type: 'boolean', const: true }, outcome: { type: 'string' } },
        required: ['received'],
      },
    },
    400: { description: 'Unsigned, tampered or stale (invalid_signature), or not JSON; nothing changed.', ...PROBLEM },
    404: { description: 'Payments are not configured (no STRIPE_SECRET_KEY).', ...PROBLEM },
    // No provider call runs while an event is applied (a refund goes through the outbox): a 503 is
    // only ever the server's own state, never the provider's answer.
    503: {
      description:
        'The server is overloaded or shutting down, or its database connection was interrupted (database_unavailable); nothing changed, and Stripe retries the event later.',
      ...PROBLEM,
    },
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A venue's own Stripe account's endpoint (keys set in the dashboard: docs/payments.md). */
const TENANT_DOC: RouteDoc = {
  ...DOC,
  operationId: 'stripeTenantWebhook',
  summary: 'Stripe’s webhook endpoint for a venue’s own Stripe keys (set in the dashboard)',
  description:
    'As POST /api/payments/stripe/webhook, verified with the signing secret the venue stored (setStripeCredentials), and applying only the venue’s own Checkout Sessions (others: outcome ignored). When STRIPE_SECRET_KEY is set the environment’s account and secret are used here too.',
  params: {
    type: 'object',
    properties: {
      tenantId: { type: 'string', description: 'The venue’s tenant id (ProviderCredentials.stripeWebhookUrl).' },
    },
    required: ['tenantId'],
  },
  responses: {
    ...DOC.responses,
    404: { description: 'No Stripe keys for this tenant (nor STRIPE_SECRET_KEY).', ...PROBLEM },
  },
};

export async function registerStripeWebhook(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // A scope of its own: its body parser hands over the bytes Stripe signed, untouched.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const receive = async (
      req: FastifyRequest<{ Body: Buffer; Params: { tenantId?: string } }>,
      reply: FastifyReply,
    ) => {
      const tenantId = req.params.tenantId;
      // The environment's account on the plain path; a venue's own keys (dashboard) on its path.
      const provider = tenantId
        ? UUID.test(tenantId)
          ? await deps.providers.payment(tenantId)
          : null
        : deps.paymentProvider;
      if (!provider)
        throw new DomainError(
          'NOT_FOUND',
          'payments_not_configured',
          tenantId
            ? 'Payments are not configured for this tenant (no Stripe keys set in the dashboard, nor STRIPE_SECRET_KEY)'
            : 'Payments are not configured on this server (STRIPE_SECRET_KEY)',
        );
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['stripe-signature'];
      const event = await provider.verifyEvent(raw, Array.isArray(header) ? header[0] : header);
      if (!PAYING_EVENTS.has(event.type)) return reply.send({ received: true, outcome: 'ignored' });
      const session = checkoutSessionOfEvent(event);
      // A venue's endpoint applies its own sessions only.
      if (tenantId && session.metadata.tenantId !== tenantId) return reply.send({ received: true, outcome: 'ignored' });
      const outcome = await deps.database.db
        .transaction()
        .execute((trx) => applyCheckoutSession(trx, deps, session, event.id));
      req.log.info({ event: event.id, type: event.type, session: session.id, outcome }, 'stripe event received');
      return reply.send({ received: true, outcome });
    };
    scope.post<{ Body: Buffer; Params: { tenantId?: string } }>(
      STRIPE_WEBHOOK_PATH,
      { config: { auth: 'none', openapi: DOC } },
      receive,
    );
    scope.post<{ Body: Buffer; Params: { tenantId: string } }>(
      `${STRIPE_WEBHOOK_PATH}/:tenantId`,
      { config: { auth: 'none', openapi: TENANT_DOC } },
      receive,
    );
  });
}
