import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { AppDeps } from '../../deps.js';
import type { RouteDoc } from '../../rest/openapi-registry.js';
import { bookingIdOfPaymentToken } from './payment.js';
import { findPaymentView, type PaymentView } from './bookings.repository.js';

// GET /pay/:token — the page a booking's paymentUrl opens. The token is the only credential: a
// token Portier did not issue gets the same 404 as a booking that no longer exists. A payment
// provider plugs in here later; for now the page shows what is due.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' });

/** Cents due: the price, unless the booking was cancelled. */
export function amountDue(view: Pick<PaymentView, 'status' | 'total_price'>): number {
  return view.status === 'CANCELLED' ? 0 : view.total_price;
}

export function localRange(start: Date, end: Date, zone: string): string {
  const s = DateTime.fromJSDate(start, { zone }).setLocale('en-GB');
  const e = DateTime.fromJSDate(end, { zone }).setLocale('en-GB');
  const day = 'cccc d LLLL yyyy';
  const endText = s.hasSame(e, 'day') ? e.toFormat('HH:mm') : e.toFormat(`${day}, HH:mm`);
  return `${s.toFormat(`${day}, HH:mm`)}–${endText} (${zone})`;
}

const STATUS_TEXT: Record<PaymentView['status'], string> = {
  PENDING: 'Pending: awaiting payment and confirmation',
  CONFIRMED: 'Confirmed',
  CANCELLED: 'Cancelled: nothing is due',
  COMPLETED: 'Completed',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}dt{font-weight:600;margin-top:.75rem}dd{margin:0}.due{font-size:1.5rem}</style>
</head><body>${body}</body></html>`;
}

export function paymentPageHtml(view: PaymentView): string {
  const due = amountDue(view);
  return page(
    `Payment for ${view.object_name}`,
    `<h1>Your booking</h1>
<dl>
<dt>Object</dt><dd>${escape(view.object_name)}</dd>
<dt>Venue</dt><dd>${escape(view.accommodation_name)}, ${escape(view.accommodation_address)}</dd>
<dt>Time</dt><dd>${escape(localRange(view.start_time, view.end_time, view.time_zone))}</dd>
<dt>Status</dt><dd data-status="${view.status}">${escape(STATUS_TEXT[view.status])}</dd>
<dt>Amount due</dt><dd class="due" data-amount-cents="${due}">${escape(money.format(due / 100))}</dd>
<dt>Reference</dt><dd>${escape(view.id)}</dd>
</dl>`,
  );
}

const NOT_FOUND = page('Payment link not found', '<h1>Payment link not found</h1><p>This payment link is not valid. Please check the link you received.</p>');

const HTML = 'text/html';

/** The page is public: the token in the path is the credential. */
const PAYMENT_PAGE_DOC: RouteDoc = {
  operationId: 'paymentPage',
  summary: 'The payment page a booking’s paymentUrl opens',
  description:
    'An HTML page showing the booking (object, venue, local time, status) and the amount due in EUR; nothing is due once the booking is cancelled. Not cached, not indexed.',
  tags: ['bookings'],
  params: { type: 'object', properties: { token: { type: 'string', description: 'The opaque token of the booking’s paymentUrl.' } }, required: ['token'] },
  responses: {
    200: { description: 'The payment page.', contentType: HTML, schema: { type: 'string', description: 'An HTML document.' } },
    404: {
      description: 'The token is not one Portier issued, or its booking no longer exists (an HTML page that reveals nothing).',
      contentType: HTML,
      schema: { type: 'string', description: 'An HTML document.' },
    },
  },
};

export function registerPaymentPage(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { token: string } }>('/pay/:token', { config: { auth: 'none', openapi: PAYMENT_PAGE_DOC } }, async (req, reply) => {
    reply
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Robots-Tag', 'noindex')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type('text/html; charset=utf-8');
    const bookingId = bookingIdOfPaymentToken(deps.secret, req.params.token);
    const view = bookingId ? await findPaymentView(deps.database.db, bookingId) : undefined;
    if (!view) return reply.status(404).send(NOT_FOUND);
    return reply.send(paymentPageHtml(view));
  });
}
