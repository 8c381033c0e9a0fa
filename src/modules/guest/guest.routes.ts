import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';
import { negotiateLocale, type Locale } from '../../kernel/i18n.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { manageUrl, paymentUrl, previewPrice, parsePricePreview } from '../bookings/index.js';
import { bookingCalendar, domainOf } from '../notifications/index.js';
import { isOwnOrigin } from '../users/index.js';
import {
  cancelPage,
  formRefusedPage,
  notFoundPage,
  receiptPage,
  reschedulePage,
  rescheduleConfirmPage,
  viewPage,
  type Page,
} from './guest.pages.js';
import { localDateIn, parseInstant, parseLocalDate, payOption, rescheduleRefusal } from './guest.rules.js';
import {
  cancelAsGuest,
  doorKeyOf,
  guestBookingOf,
  previewCancel,
  rescheduleAsGuest,
  rescheduleOptions,
  type GuestBooking,
} from './guest.service.js';

// The guest's manage page, PUBLIC_URL/b/{token} (docs/booking-page.md "The guest's manage page").
// The token is the only credential; a token that opens nothing — malformed, forged, of a removed
// booking or revoked — gets one and the same 404 page. Forms are POSTed from Portier's own pages
// only (Origin / Sec-Fetch-Site) and carry a token derived from the manage token.

export const MANAGE_PATH = '/b/:token';

const HTML = 'text/html';
const htmlDoc = (description: string) => ({
  description,
  contentType: HTML,
  schema: { type: 'string', description: 'An HTML document.' },
});
const TOKEN = {
  type: 'object',
  properties: {
    token: { type: 'string', description: 'The token of the booking’s manage link (PUBLIC_URL/b/{token}).' },
  },
  required: ['token'],
} as const;
const LANG = {
  type: 'string',
  description: 'en or de: the page’s language (else Accept-Language, else the venue’s default).',
};
const NOT_FOUND_DOC = htmlDoc(
  'The link opens nothing: malformed, not issued by Portier, revoked by the venue, or its booking no longer exists (one page for all, revealing nothing).',
);
const FORM_BODY = {
  type: 'object',
  properties: {
    csrf: { type: 'string', description: 'The form token the page wrote.' },
    lang: LANG,
  },
};
const tags = ['guest'];

const DOCS = {
  view: {
    operationId: 'guestManagePage',
    summary: 'The guest’s own page of a booking',
    description:
      'The booking (object, venue, time in the venue’s zone, status, payment, price, reference), its door QR code and SMS code once CONFIRMED, and links to pay, change the time, cancel, the calendar file and the receipt. English or German. Not cached, not indexed; no script.',
    tags,
    params: TOKEN,
    querystring: {
      type: 'object',
      properties: {
        lang: LANG,
        done: {
          type: 'string',
          description:
            'cancelled, rescheduled or paid: the note after a change (paid: where the guest lands after paying, /pay/{token}/done).',
        },
      },
    },
    responses: { 200: htmlDoc('The booking’s page.'), 404: NOT_FOUND_DOC },
  },
  calendar: {
    operationId: 'guestManageCalendar',
    summary: 'The booking as a calendar file (.ics)',
    description: 'The same VEVENT the guest’s mails carry (UID and SEQUENCE), cancelled once the booking is.',
    tags,
    params: TOKEN,
    responses: {
      200: {
        description: 'An iCalendar file.',
        contentType: 'text/calendar',
        schema: { type: 'string' },
        example:
          'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:booking-…@example.com\r\nSEQUENCE:2\r\nSTATUS:CONFIRMED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      },
      404: NOT_FOUND_DOC,
    },
  },
  receipt: {
    operationId: 'guestManageReceipt',
    summary: 'The booking’s receipt',
    description:
      'Amount paid and refunded, the VAT it contains when the venue sets a rate, the venue’s name and address.',
    tags,
    params: TOKEN,
    querystring: { type: 'object', properties: { lang: LANG } },
    responses: { 200: htmlDoc('The receipt.'), 404: NOT_FOUND_DOC },
  },
  cancelForm: {
    operationId: 'guestManageCancelForm',
    summary: 'The confirm step of a guest’s cancellation',
    description:
      'Shows what cancelling now gives back under the venue’s default cancellation policy, or why the booking cannot be cancelled online.',
    tags,
    params: TOKEN,
    querystring: { type: 'object', properties: { lang: LANG } },
    responses: { 200: htmlDoc('The confirm step, or the reason it is refused.'), 404: NOT_FOUND_DOC },
  },
  cancel: {
    operationId: 'guestManageCancel',
    summary: 'The guest cancels the booking',
    description:
      'Cancels through the same service as staff (booking.cancelled, the guest’s mail, the refund); audited as booking.guest_cancelled with the guest as actor. Refused (409, a page saying why) when cancelled, completed, started, or outside the policy.',
    tags,
    params: TOKEN,
    body: FORM_BODY,
    bodyContentType: 'application/x-www-form-urlencoded',
    bodyExample: { csrf: 'c2VjcmV0LWZvcm0tdG9rZW4tb2YtcGFnZQ', lang: 'en' },
    responses: {
      303: { description: 'To the manage page, with a note.' },
      403: htmlDoc('The form came from another site or lacks its token.'),
      404: NOT_FOUND_DOC,
      409: htmlDoc('Cancelling online is refused; the page says why.'),
    },
  },
  rescheduleForm: {
    operationId: 'guestManageRescheduleForm',
    summary: 'The steps of a guest’s reschedule',
    description:
      'With a date: the free times of the booking’s object that day (same length). With a start too: the confirm step with the new price.',
    tags,
    params: TOKEN,
    querystring: {
      type: 'object',
      properties: {
        lang: LANG,
        date: { type: 'string', description: 'A local date YYYY-MM-DD in the venue’s zone.' },
        start: { type: 'string', description: 'The chosen start (ISO 8601).' },
      },
    },
    responses: {
      200: htmlDoc('The step.'),
      404: NOT_FOUND_DOC,
      409: htmlDoc('Moving online is refused; the page says why.'),
    },
  },
  reschedule: {
    operationId: 'guestManageReschedule',
    summary: 'The guest moves the booking',
    description:
      'Moves through the same service as staff (booking.rescheduled, new door credentials, the guest’s mail); audited as booking.guest_rescheduled. A time taken meanwhile is refused with the free times again.',
    tags,
    params: TOKEN,
    body: {
      type: 'object',
      properties: { ...FORM_BODY.properties, start: { type: 'string', description: 'The new start (ISO 8601).' } },
    },
    bodyContentType: 'application/x-www-form-urlencoded',
    bodyExample: { csrf: 'c2VjcmV0LWZvcm0tdG9rZW4tb2YtcGFnZQ', lang: 'en', start: '2026-11-22T10:00:00.000Z' },
    responses: {
      303: { description: 'To the manage page, with a note.' },
      403: htmlDoc('The form came from another site or lacks its token.'),
      404: NOT_FOUND_DOC,
      409: htmlDoc('The time is taken, or moving online is refused.'),
    },
  },
} satisfies Record<string, RouteDoc>;

type Query = Record<string, unknown>;
type Form = Record<string, string>;
interface Request {
  Params: { token: string };
  Querystring: Query;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function send(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', page.csp)
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** The query string with `lang` set to the other language (a relative link to the same page). */
function otherLanguageHref(req: FastifyRequest, locale: Locale): string {
  const query = req.url.indexOf('?');
  const params = new URLSearchParams(query === -1 ? '' : req.url.slice(query + 1));
  params.set('lang', locale === 'en' ? 'de' : 'en');
  params.delete('csrf');
  return `?${params.toString()}`;
}

/**
 * The one page for a manage link that opens nothing. Also what the server answers for a /b/ path it
 * cannot route at all (bad percent-encoding, an over-long token: src/transport/http/framework-errors.ts)
 * and for a token the input guard refuses (NUL, a lone surrogate), so no answer tells them apart.
 */
export function sendManageLinkNotFound(req: FastifyRequest, reply: FastifyReply, choice?: unknown): FastifyReply {
  const locale = negotiateLocale(text(req.headers['accept-language']), { choice: text(choice) ?? null });
  return send(reply, 404, notFoundPage(locale, `?lang=${locale === 'en' ? 'de' : 'en'}`));
}

/** Whether a request path is under the manage link's prefix (/b/…). */
export const isManagePath = (url: string): boolean => url.startsWith('/b/');

export function registerGuestRoutes(app: FastifyInstance, deps: AppDeps): void {
  const formToken = (token: string) => deps.secret.derive('guest-manage-form', token, 24);
  const baseOf = (booking: GuestBooking) =>
    new URL(manageUrl(deps.env.publicUrl, deps.secret, booking.id, booking.guest_link_version)).pathname;
  const localeOf = (req: FastifyRequest, choice: unknown, booking?: GuestBooking): Locale =>
    negotiateLocale(text(req.headers['accept-language']), {
      choice: text(choice) ?? null,
      fallback: booking?.default_locale ?? 'en',
    });
  const notFound = (req: FastifyRequest, reply: FastifyReply, choice: unknown) =>
    sendManageLinkNotFound(req, reply, choice);
  const formValid = (req: FastifyRequest, token: string, presented: unknown): boolean => {
    const secFetchSite = req.headers['sec-fetch-site'];
    const sameOrigin = isOwnOrigin(
      { origin: req.headers.origin, secFetchSite: typeof secFetchSite === 'string' ? secFetchSite : undefined },
      { publicUrl: deps.env.publicUrl, requestOrigin: `${req.protocol}://${req.host}` },
    );
    if (!sameOrigin || typeof presented !== 'string') return false;
    // A form shown before the HKDF keys (version 2) still posts: derivedMatches takes either.
    return deps.secret.derivedMatches('guest-manage-form', token, presented, 24);
  };
  const config = (openapi: RouteDoc) => ({ config: { auth: 'none' as const, openapi } });

  void app.register(async (scope) => {
    // The input guard refuses a token with NUL or a lone surrogate (400) before the handler: here
    // that is a link that opens nothing, like any other.
    scope.setErrorHandler((error, req, reply) => {
      if (error instanceof DomainError && error.code === 'invalid_characters')
        return sendManageLinkNotFound(req, reply);
      throw error;
    });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())));
      },
    );

    scope.get<Request>(MANAGE_PATH, config(DOCS.view), async (req, reply) => {
      const booking = await guestBookingOf(deps, req.params.token);
      if (!booking) return notFound(req, reply, req.query.lang);
      const locale = localeOf(req, req.query.lang, booking);
      const now = deps.now();
      const preview = await previewCancel(deps.database.db, deps, booking);
      const online = await deps.providers.configured(deps.database.db, booking.tenant_id, 'stripe');
      const option = payOption(booking, online, booking.payment_mode);
      const done = text(req.query.done);
      return send(
        reply,
        200,
        viewPage({
          booking,
          locale,
          base: baseOf(booking),
          otherLanguageHref: otherLanguageHref(req, locale),
          key: await doorKeyOf(deps, booking),
          pay:
            option === 'online'
              ? { kind: 'online', url: paymentUrl(deps.env.publicUrl, deps.secret, booking.id) }
              : option === 'venue'
                ? { kind: 'venue' }
                : null,
          canCancel: preview.refusal === null || preview.refusal === 'tooLate',
          canReschedule: rescheduleRefusal(booking, now) === null,
          done:
            done === 'cancelled' && booking.status === 'CANCELLED'
              ? { kind: 'cancelled', moneyBack: Math.min(booking.refund_amount ?? 0, booking.amount_paid) }
              : done === 'rescheduled'
                ? { kind: 'rescheduled' }
                : done === 'paid' && booking.amount_paid > 0
                  ? { kind: 'paid' }
                  : undefined,
        }),
      );
    });

    scope.get<Request>(`${MANAGE_PATH}/calendar.ics`, config(DOCS.calendar), async (req, reply) => {
      const booking = await guestBookingOf(deps, req.params.token);
      if (!booking) return notFound(req, reply, req.query.lang);
      const organizer = deps.mailer?.from ?? `portier@${new URL(deps.env.publicUrl).hostname}`;
      const ics = bookingCalendar({
        data: {
          booking: {
            id: booking.id,
            objectName: booking.object_name,
            guestName: booking.guest_name,
            startTime: booking.start_time.toISOString(),
            endTime: booking.end_time.toISOString(),
            totalPrice: booking.total_price,
            currency: booking.currency,
            refundAmount: booking.refund_amount,
          },
          accommodation: {
            name: booking.accommodation_name,
            address: booking.accommodation_address,
            timeZone: booking.time_zone,
          },
        },
        method: booking.status === 'CANCELLED' ? 'CANCEL' : 'REQUEST',
        sequence: booking.event_sequence,
        organizerEmail: organizer,
        guestEmail: booking.guest_email,
        stamp: deps.now(),
        domain: domainOf(organizer),
      });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Robots-Tag', 'noindex')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'attachment; filename="booking.ics"')
        .type('text/calendar; charset=utf-8')
        .send(ics);
    });

    scope.get<Request>(`${MANAGE_PATH}/receipt`, config(DOCS.receipt), async (req, reply) => {
      const booking = await guestBookingOf(deps, req.params.token);
      if (!booking) return notFound(req, reply, req.query.lang);
      const locale = localeOf(req, req.query.lang, booking);
      return send(
        reply,
        200,
        receiptPage({ booking, locale, base: baseOf(booking), otherLanguageHref: otherLanguageHref(req, locale) }),
      );
    });

    scope.get<Request>(`${MANAGE_PATH}/cancel`, config(DOCS.cancelForm), async (req, reply) => {
      const booking = await guestBookingOf(deps, req.params.token);
      if (!booking) return notFound(req, reply, req.query.lang);
      const locale = localeOf(req, req.query.lang, booking);
      const preview = await previewCancel(deps.database.db, deps, booking);
      return send(
        reply,
        preview.refusal ? 409 : 200,
        cancelPage({
          booking,
          locale,
          base: baseOf(booking),
          otherLanguageHref: otherLanguageHref(req, locale),
          preview,
          formToken: formToken(req.params.token),
        }),
      );
    });

    scope.post<{ Params: { token: string }; Body: Form | undefined }>(
      `${MANAGE_PATH}/cancel`,
      config(DOCS.cancel),
      async (req, reply) => {
        const form = req.body ?? {};
        const booking = await guestBookingOf(deps, req.params.token);
        if (!booking) return notFound(req, reply, form.lang);
        const locale = localeOf(req, form.lang, booking);
        const base = baseOf(booking);
        if (!formValid(req, req.params.token, form.csrf))
          return send(reply, 403, formRefusedPage(booking, locale, base, `?lang=${locale === 'en' ? 'de' : 'en'}`));
        const outcome = await cancelAsGuest(deps, booking, req.ip);
        if (outcome.ok) return reply.redirect(`${base}?lang=${locale}&done=cancelled`, 303);
        const preview = outcome.preview ?? {
          refusal: outcome.refusal,
          moneyBack: 0,
          amountPaid: 0,
          policyName: null,
          shortestNoticeHours: null,
        };
        const fresh = (await guestBookingOf(deps, req.params.token)) ?? booking;
        return send(
          reply,
          409,
          cancelPage({
            booking: fresh,
            locale,
            base,
            otherLanguageHref: `?lang=${locale === 'en' ? 'de' : 'en'}`,
            preview,
            formToken: formToken(req.params.token),
          }),
        );
      },
    );

    scope.get<Request>(`${MANAGE_PATH}/reschedule`, config(DOCS.rescheduleForm), async (req, reply) => {
      const booking = await guestBookingOf(deps, req.params.token);
      if (!booking) return notFound(req, reply, req.query.lang);
      const locale = localeOf(req, req.query.lang, booking);
      const base = baseOf(booking);
      const frame = { booking, locale, base, otherLanguageHref: otherLanguageHref(req, locale) };
      const now = deps.now();
      const refusal = rescheduleRefusal(booking, now);
      if (refusal) return send(reply, 409, reschedulePage({ ...frame, date: '', starts: [], refusal }));
      const givenDate = text(req.query.date);
      const date =
        givenDate === undefined ? localDateIn(booking.start_time, booking.time_zone) : parseLocalDate(givenDate);
      if (date === undefined) {
        const today = localDateIn(now, booking.time_zone);
        return send(reply, 400, reschedulePage({ ...frame, date: today, starts: [], message: 'badDate' }));
      }
      const starts = await rescheduleOptions(deps, booking, date);
      const givenStart = text(req.query.start);
      if (givenStart !== undefined) {
        const start = parseInstant(givenStart);
        const chosen = start && starts.find((s) => s.start.getTime() === start.getTime());
        if (!chosen) return send(reply, 400, reschedulePage({ ...frame, date, starts, message: 'badStart' }));
        const quote = await previewPrice(
          deps.database.db,
          booking.tenant_id,
          parsePricePreview({
            objectId: booking.object_id,
            startTime: chosen.start.toISOString(),
            endTime: chosen.end.toISOString(),
          }),
          now,
        );
        return send(
          reply,
          200,
          rescheduleConfirmPage({
            ...frame,
            start: chosen.start,
            end: chosen.end,
            newPrice: quote.totalPrice,
            formToken: formToken(req.params.token),
          }),
        );
      }
      return send(reply, 200, reschedulePage({ ...frame, date, starts }));
    });

    scope.post<{ Params: { token: string }; Body: Form | undefined }>(
      `${MANAGE_PATH}/reschedule`,
      config(DOCS.reschedule),
      async (req, reply) => {
        const form = req.body ?? {};
        const booking = await guestBookingOf(deps, req.params.token);
        if (!booking) return notFound(req, reply, form.lang);
        const locale = localeOf(req, form.lang, booking);
        const base = baseOf(booking);
        const other = `?lang=${locale === 'en' ? 'de' : 'en'}`;
        if (!formValid(req, req.params.token, form.csrf))
          return send(reply, 403, formRefusedPage(booking, locale, base, other));
        const frame = { booking, locale, base, otherLanguageHref: other };
        const start = parseInstant(form.start);
        if (!start) {
          const date = localDateIn(booking.start_time, booking.time_zone);
          return send(
            reply,
            400,
            reschedulePage({
              ...frame,
              date,
              starts: await rescheduleOptions(deps, booking, date),
              message: 'badStart',
            }),
          );
        }
        const outcome = await rescheduleAsGuest(deps, booking, start, req.ip);
        if (outcome.ok) return reply.redirect(`${base}?lang=${locale}&done=rescheduled`, 303);
        if (outcome.refusal === 'taken' || outcome.refusal === 'badStart') {
          const date = localDateIn(start, booking.time_zone);
          return send(
            reply,
            409,
            reschedulePage({
              ...frame,
              date,
              starts: await rescheduleOptions(deps, booking, date),
              message: outcome.refusal,
            }),
          );
        }
        return send(reply, 409, reschedulePage({ ...frame, date: '', starts: [], refusal: outcome.refusal }));
      },
    );
  });
}
