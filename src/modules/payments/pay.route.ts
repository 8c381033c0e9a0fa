import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { bookingIdOfPaymentToken, paymentUrl } from '../bookings/index.js';
import { afterCheckout, openPayment } from './checkout.service.js';
import { findPaymentView } from './payments.repository.js';
import { NOT_FOUND_HTML, UNAVAILABLE_HTML, cancelledCheckoutHtml, paymentPageHtml, successPageHtml } from './pages.js';

// GET /pay/:token — the page a booking's paymentUrl opens — and the pages the provider sends the
// guest back to. The token is the only credential: a token Portier did not issue gets the same 404
// as a booking that no longer exists.

const HTML = 'text/html';
const htmlDoc = (description: string) => ({
  description,
  contentType: HTML,
  schema: { type: 'string', description: 'An HTML document.' },
});
const TOKEN = {
  type: 'object',
  properties: { token: { type: 'string', description: 'The opaque token of the booking’s paymentUrl.' } },
  required: ['token'],
} as const;
const NOT_FOUND_DOC = htmlDoc(
  'The token is not one Portier issued, or its booking no longer exists (an HTML page that reveals nothing).',
);

const PAYMENT_PAGE_DOC: RouteDoc = {
  operationId: 'paymentPage',
  summary: 'The page a booking’s paymentUrl opens',
  description:
    'With a payment provider configured, a payable booking (PENDING or CONFIRMED, unpaid, priced) is answered 303 to its Stripe Checkout Session (reused while it has not expired). A cancelled, completed, already paid or free booking gets a page saying so and never starts a payment; without a provider the page shows the amount and asks the guest to pay at the venue. Not cached, not indexed.',
  tags: ['payments'],
  params: TOKEN,
  responses: {
    200: htmlDoc('The booking’s page: why no payment is taken, or how to pay at the venue.'),
    303: { description: 'To the Checkout Session’s URL (Location).' },
    404: NOT_FOUND_DOC,
    503: htmlDoc('The payment provider could not be reached; nothing was charged.'),
  },
};

const SUCCESS_PAGE_DOC: RouteDoc = {
  operationId: 'paymentSuccessPage',
  summary: 'Where the payment provider sends the guest after paying',
  description:
    'Shows the booking as it is now (confirmed once the payment arrived). Until the provider confirms the payment, the page refreshes itself.',
  tags: ['payments'],
  params: TOKEN,
  querystring: {
    type: 'object',
    properties: {
      session_id: { type: 'string', description: 'The Checkout Session the guest paid (Stripe fills it in).' },
    },
  },
  responses: { 200: htmlDoc('The booking and its payment.'), 404: NOT_FOUND_DOC },
};

const CANCEL_PAGE_DOC: RouteDoc = {
  operationId: 'paymentCancelledPage',
  summary: 'Where the payment provider sends a guest who went back without paying',
  tags: ['payments'],
  params: TOKEN,
  responses: { 200: htmlDoc('Nothing was charged; a link to try again.'), 404: NOT_FOUND_DOC },
};

function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8');
}

export function registerPaymentPages(app: FastifyInstance, deps: AppDeps): void {
  const linkOf = (bookingId: string) => paymentUrl(deps.env.publicUrl, deps.secret, bookingId);

  app.get<{ Params: { token: string } }>(
    '/pay/:token',
    { config: { auth: 'none', openapi: PAYMENT_PAGE_DOC } },
    async (req, reply) => {
      htmlHeaders(reply);
      const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
      if (!bookingId) return reply.status(404).send(NOT_FOUND_HTML);
      const link = linkOf(bookingId);
      let opened;
      try {
        opened = await openPayment(deps, bookingId, {
          success: `${link}/done?session_id={CHECKOUT_SESSION_ID}`,
          cancel: `${link}/cancelled`,
        });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'payment_provider_unavailable')
          return reply.status(503).header('Retry-After', '60').send(UNAVAILABLE_HTML);
        // Rescheduled while its session was being made: open it again, for the new price.
        if (error instanceof DomainError && error.code === 'booking_changed') return reply.redirect(req.url, 303);
        throw error;
      }
      if (!opened) return reply.status(404).send(NOT_FOUND_HTML);
      if (opened.kind === 'redirect') return reply.redirect(opened.url, 303);
      return reply.send(paymentPageHtml(opened.view, opened.state));
    },
  );

  app.get<{ Params: { token: string }; Querystring: { session_id?: string } }>(
    '/pay/:token/done',
    { config: { auth: 'none', openapi: SUCCESS_PAGE_DOC } },
    async (req, reply) => {
      htmlHeaders(reply);
      const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
      const sessionId = typeof req.query.session_id === 'string' ? req.query.session_id : undefined;
      const view = bookingId ? await afterCheckout(deps, bookingId, sessionId) : undefined;
      if (!view) return reply.status(404).send(NOT_FOUND_HTML);
      return reply.send(successPageHtml(view, new URL(linkOf(view.id)).pathname));
    },
  );

  app.get<{ Params: { token: string } }>(
    '/pay/:token/cancelled',
    { config: { auth: 'none', openapi: CANCEL_PAGE_DOC } },
    async (req, reply) => {
      htmlHeaders(reply);
      const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
      const view = bookingId ? await findPaymentView(deps.database.db, bookingId) : undefined;
      if (!view) return reply.status(404).send(NOT_FOUND_HTML);
      return reply.send(cancelledCheckoutHtml(view, new URL(linkOf(view.id)).pathname));
    },
  );
}
