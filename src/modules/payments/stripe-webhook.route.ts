import type { FastifyInstance } from 'fastify';
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
    'Called by Stripe, not by integrators: the raw body is verified against the Stripe-Signature header with STRIPE_WEBHOOK_SECRET (5 minutes tolerance). A paid Checkout Session marks its booking paid (booking.paid) and, when the tenant’s confirmOnPayment is on, confirms it (booking.confirmed); a payment for a booking cancelled meanwhile is refunded in full (booking.refunded). A paid session whose amount_total or currency is not what the booking owes marks nothing paid: it is answered 200 with outcome amount_mismatch (Stripe would otherwise retry it for days), audited (payment.amount_mismatch), counted (portier_payment_discrepancies_total) and logged. The same event twice changes nothing the second time. Other event types are acknowledged and ignored.',
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
    503: { description: 'The provider refused a refund this event needs; Stripe retries the event later.', ...PROBLEM },
  },
};

export async function registerStripeWebhook(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // A scope of its own: its body parser hands over the bytes Stripe signed, untouched.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>(
      STRIPE_WEBHOOK_PATH,
      { config: { auth: 'none', openapi: DOC } },
      async (req, reply) => {
        const provider = deps.paymentProvider;
        if (!provider)
          throw new DomainError(
            'NOT_FOUND',
            'payments_not_configured',
            'Payments are not configured on this server (STRIPE_SECRET_KEY)',
          );
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const header = req.headers['stripe-signature'];
        const event = await provider.verifyEvent(raw, Array.isArray(header) ? header[0] : header);
        if (!PAYING_EVENTS.has(event.type)) return reply.send({ received: true, outcome: 'ignored' });
        const session = checkoutSessionOfEvent(event);
        const outcome = await deps.database.db
          .transaction()
          .execute((trx) => applyCheckoutSession(trx, deps, session, event.id));
        req.log.info({ event: event.id, type: event.type, session: session.id, outcome }, 'stripe event received');
        return reply.send({ received: true, outcome });
      },
    );
  });
}
