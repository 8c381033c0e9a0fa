import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';
import { isLocale, negotiateLocale, type Locale } from '../../kernel/i18n.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { bookingIdOfPaymentToken, manageUrl, paymentUrl } from '../bookings/index.js';
import { afterCheckout, openPayment } from './checkout.service.js';
import { findPaymentView } from './payments.repository.js';
import { cancelledCheckoutHtml, notFoundHtml, paymentPageHtml, successPageHtml, unavailableHtml } from './pages.js';
import type { PaymentView } from './payments.repository.js';

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
const LANG = {
  type: 'object',
  properties: {
    lang: {
      type: 'string',
      description: 'The page’s language (en or de); without it the guest’s own, then Accept-Language.',
    },
  },
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
  querystring: LANG,
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
    'Once the payment arrived (the webhook, or the provider asked about session_id): 303 to the guest’s own page of the booking (/b/{token}?done=paid: thanks, the status, the door QR code once CONFIRMED). Until the provider confirms the payment, a page that refreshes itself.',
  tags: ['payments'],
  params: TOKEN,
  querystring: {
    type: 'object',
    properties: {
      session_id: { type: 'string', description: 'The Checkout Session the guest paid (Stripe fills it in).' },
    },
  },
  responses: {
    200: htmlDoc('Waiting for the provider to confirm the payment (refreshes itself).'),
    303: { description: 'Paid: on to the guest’s manage page (Location: /b/{token}?done=paid).' },
    404: NOT_FOUND_DOC,
  },
};

const CANCEL_PAGE_DOC: RouteDoc = {
  operationId: 'paymentCancelledPage',
  summary: 'Where the payment provider sends a guest who went back without paying',
  tags: ['payments'],
  params: TOKEN,
  responses: { 200: htmlDoc('Nothing was charged; a link to try again.'), 404: NOT_FOUND_DOC },
};

/**
 * The pages' language, as the manage page (/b/{token}) picks it: `?lang=`, then the language the
 * guest chose when booking (booking.guestLocale), then Accept-Language, then the venue's default.
 */
function localeOf(req: FastifyRequest, view?: Pick<PaymentView, 'guest_locale' | 'default_locale'>): Locale {
  const query = req.query as { lang?: unknown } | undefined;
  const lang = typeof query?.lang === 'string' ? query.lang.toLowerCase() : undefined;
  const header = req.headers['accept-language'];
  return negotiateLocale(typeof header === 'string' ? header : undefined, {
    choice: isLocale(lang) ? lang : (view?.guest_locale ?? null),
    fallback: view?.default_locale ?? 'en',
  });
}

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

  app.get<{ Params: { token: string }; Querystring: { lang?: string } }>(
    '/pay/:token',
    { config: { auth: 'none', openapi: PAYMENT_PAGE_DOC } },
    async (req, reply) => {
      htmlHeaders(reply);
      const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
      if (!bookingId) return reply.status(404).send(notFoundHtml(localeOf(req)));
      const link = linkOf(bookingId);
      let opened;
      try {
        opened = await openPayment(deps, bookingId, {
          success: `${link}/done?session_id={CHECKOUT_SESSION_ID}`,
          cancel: `${link}/cancelled`,
        });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'payment_provider_unavailable')
          return reply
            .status(503)
            .header('Retry-After', '60')
            .send(unavailableHtml(localeOf(req)));
        // Rescheduled while its session was being made: open it again, for the new price.
        if (error instanceof DomainError && error.code === 'booking_changed') return reply.redirect(req.url, 303);
        throw error;
      }
      if (!opened) return reply.status(404).send(notFoundHtml(localeOf(req)));
      if (opened.kind === 'redirect') return reply.redirect(opened.url, 303);
      return reply.send(paymentPageHtml(opened.view, opened.state, localeOf(req, opened.view)));
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
      if (!view) return reply.status(404).send(notFoundHtml(localeOf(req)));
      const managePath = new URL(manageUrl(deps.env.publicUrl, deps.secret, view.id, view.guest_link_version)).pathname;
      // Paid: the guest lands on their own page (status, door key, receipt), in their language.
      if (view.payment_status !== 'UNPAID') return reply.redirect(`${managePath}?done=paid`, 303);
      return reply.send(successPageHtml(view, new URL(linkOf(view.id)).pathname, localeOf(req, view)));
    },
  );

  app.get<{ Params: { token: string } }>(
    '/pay/:token/cancelled',
    { config: { auth: 'none', openapi: CANCEL_PAGE_DOC } },
    async (req, reply) => {
      htmlHeaders(reply);
      const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
      const view = bookingId ? await findPaymentView(deps.database.db, bookingId) : undefined;
      if (!view) return reply.status(404).send(notFoundHtml(localeOf(req)));
      return reply.send(cancelledCheckoutHtml(view, new URL(linkOf(view.id)).pathname, localeOf(req, view)));
    },
  );
}
