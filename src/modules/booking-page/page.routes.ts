import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { buildModel, localeFor, openPage, type Choice, type ModelRequest } from './page.model.js';
import {
  ASSET_PATH,
  bookingPageHtml,
  durationOptions,
  escape,
  notFoundHtml,
  quoteSection,
  slotsSection,
} from './page.html.js';
import { PAGE_CSS, PAGE_JS, WIDGET_JS } from './page.assets.js';
import { originOf, pageCsp } from './page.rules.js';
import { bookingRefusal, checkForm, createGuestBooking, guestOf, readForm, refusalMessage } from './guest-booking.js';
import type { PageRow } from './page.repository.js';
import { pageTexts } from './page.texts.js';

// GET /book/{slug} (the page), GET /book/{slug}/choice (the free times and the price, for the
// page's script), POST /book/{slug} (each step of the form, and the booking), the page's own
// stylesheet and script, and GET /widget.js. No API key: the slug names the tenant, and only an
// enabled page and published objects are shown.

export const BOOKING_PAGE_PATH = '/book/:slug';
export const WIDGET_PATH = '/widget.js';
const FORM_BODY_LIMIT = 32 * 1024;

type Query = Partial<Record<'lang' | 'object' | 'date' | 'duration' | 'start' | 'embed', string>>;
interface PageRequest {
  Params: { slug: string };
  Querystring: Query;
}

const HTML = 'text/html';
const SLUG = {
  type: 'object',
  properties: {
    slug: { type: 'string', description: 'The booking page’s address, set by the venue (booking_pages.slug).' },
  },
  required: ['slug'],
} as const;
const CHOICE_QUERY = {
  type: 'object',
  properties: {
    lang: {
      type: 'string',
      enum: ['en', 'de'],
      description: 'The page’s language (else Accept-Language, else the venue’s default).',
    },
    object: { type: 'string', description: 'A published object’s id.' },
    date: { type: 'string', description: 'A local date YYYY-MM-DD in the object’s time zone.' },
    duration: { type: 'string', description: 'Minutes; one of the durations the object offers.' },
    start: { type: 'string', description: 'A free start (ISO 8601) on that date.' },
    embed: {
      type: 'string',
      enum: ['1'],
      description: '1: the widget’s iframe (framed only by the venue’s allowed origins).',
    },
  },
} as const;
const htmlDoc = (description: string) => ({ description, contentType: HTML, schema: { type: 'string' } });
const NOT_FOUND_DOC = htmlDoc('No enabled booking page has this slug (an HTML page).');

const PAGE_DOC: RouteDoc = {
  operationId: 'bookingPage',
  summary: 'A venue’s public booking page',
  description:
    'Server-rendered HTML (English or German) listing the venue’s published objects, the free times of the chosen day in the venue’s time zone, the price with its breakdown, the guest’s details, the cancellation policy and the payment choice. Works without JavaScript; its own script fetches times and prices in place. With embed=1 it may be framed only by the venue’s allowed origins.',
  tags: ['booking-page'],
  params: SLUG,
  querystring: CHOICE_QUERY,
  responses: { 200: htmlDoc('The booking page.'), 404: NOT_FOUND_DOC },
};

const CHOICE_DOC: RouteDoc = {
  operationId: 'bookingPageChoice',
  summary: 'The booking page’s free times and price for a choice (for the page’s script)',
  tags: ['booking-page'],
  params: SLUG,
  querystring: CHOICE_QUERY,
  responses: {
    200: {
      description: 'The date bounds and the page’s fragments for this choice.',
      schema: {
        type: 'object',
        properties: {
          dateMin: { type: 'string' },
          dateMax: { type: 'string' },
          date: { type: 'string' },
          durationsHtml: { type: 'string' },
          slotsHtml: { type: 'string' },
          quoteHtml: { type: 'string' },
        },
      },
    },
    404: { description: 'No enabled booking page has this slug.' },
  },
};

const POST_DOC: RouteDoc = {
  operationId: 'bookOnBookingPage',
  summary: 'The booking page’s form: a step (free times, price) or the booking',
  description:
    'Form body (application/x-www-form-urlencoded). step=book checks the guest’s details, the honeypot, the proof of work and the limits per address and per tenant, creates the booking through the bookings service and answers 303: to the booking’s paymentUrl when the guest pays online, else to the guest’s manage page (/b/{token}). Any other step answers the page again with the choice made.',
  tags: ['booking-page'],
  params: SLUG,
  querystring: CHOICE_QUERY,
  bodyContentType: 'application/x-www-form-urlencoded',
  bodyExample: {
    step: 'book',
    object: '5b0c3c3e-6f7c-4b7e-9d7e-2f1a3c4d5e6f',
    date: '2030-01-07',
    duration: '60',
    start: '2030-01-07T09:00:00.000Z',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+49 151 23456789',
    accept: 'yes',
    website: '',
    challenge: 'pw1.…',
    nonce: '48213',
    lang: 'en',
  },
  body: {
    type: 'object',
    properties: Object.fromEntries(
      [
        'step',
        'object',
        'date',
        'duration',
        'start',
        'name',
        'email',
        'phone',
        'accept',
        'pay',
        'website',
        'challenge',
        'nonce',
        'lang',
      ].map((name) => [name, { type: 'string' }]),
    ),
  },
  responses: {
    200: htmlDoc('The page again, for the step asked.'),
    303: { description: 'Booked: to the paymentUrl or the manage page (Location).' },
    400: htmlDoc('A field to fix, or a refused form (honeypot, proof of work): the page with the messages.'),
    404: NOT_FOUND_DOC,
    409: htmlDoc('The time was booked meanwhile: the page, asking for another time.'),
    429: htmlDoc('Too many booking attempts from this address or for this venue (Retry-After).'),
  },
};

function choiceOf(source: { object?: string; date?: string; duration?: string; start?: string }): Choice {
  const duration = Number(source.duration);
  return {
    objectId: source.object || undefined,
    date: source.date || undefined,
    duration: Number.isInteger(duration) && duration > 0 ? duration : undefined,
    start: source.start || undefined,
  };
}

/** The widget's iframe, not a tab that opened the embed address (a top-level answer is the plain page). */
const isEmbed = (req: FastifyRequest, query: Query) =>
  query.embed === '1' && req.headers['sec-fetch-dest'] !== 'document';

function frameAncestors(page: PageRow, embed: boolean): string[] | null {
  if (!embed) return null;
  return page.allowed_origins.map((o) => originOf(o)).filter((o): o is string => !!o);
}

function sendHtml(reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  return reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', csp)
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(html);
}

const nonceOf = () => randomBytes(16).toString('base64');

export function registerBookingPageRoutes(app: FastifyInstance, deps: AppDeps): void {
  const asset = (path: string, type: string, body: string, doc: RouteDoc, extra: Record<string, string> = {}) =>
    app.get(path, { config: { auth: 'none', openapi: doc } }, async (_req, reply) =>
      reply.header('Cache-Control', 'public, max-age=300').headers(extra).type(type).send(body),
    );
  const fileDoc = (operationId: string, summary: string, contentType: string): RouteDoc => ({
    operationId,
    summary,
    tags: ['booking-page'],
    responses: {
      200: {
        description: summary,
        contentType,
        schema: { type: 'string' },
        example: contentType === 'text/css' ? 'body{margin:0}' : '(function () {})();',
      },
    },
  });
  asset(
    `${ASSET_PATH}/page.css`,
    'text/css; charset=utf-8',
    PAGE_CSS,
    fileDoc('bookingPageStyles', 'The booking page’s stylesheet', 'text/css'),
  );
  asset(
    `${ASSET_PATH}/page.js`,
    'text/javascript; charset=utf-8',
    PAGE_JS,
    fileDoc('bookingPageScript', 'The booking page’s script', 'text/javascript'),
  );
  // Loaded by the venue's own site: another origin may run it (no cookies, no data in it).
  asset(
    WIDGET_PATH,
    'text/javascript; charset=utf-8',
    WIDGET_JS,
    fileDoc(
      'bookingWidget',
      'The widget’s loader: <script src=".../widget.js" data-venue="{slug}">',
      'text/javascript',
    ),
    {
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  );

  async function notFound(req: FastifyRequest, reply: FastifyReply, lang: unknown) {
    const nonce = nonceOf();
    const locale = localeFor(undefined, req.headers['accept-language'], lang);
    return sendHtml(reply, 404, notFoundHtml(locale, nonce), pageCsp(nonce, null));
  }

  async function render(reply: FastifyReply, page: PageRow, request: ModelRequest, status = 200) {
    const nonce = nonceOf();
    const ancestors = frameAncestors(page, request.embed);
    if (request.embed && !ancestors?.length) {
      // Nobody may frame this page: say so to a browser that shows it anyway.
      const text = pageTexts.t(request.locale, 'embed.refused');
      return sendHtml(
        reply,
        403,
        `<!doctype html><html lang="${request.locale}"><head><meta charset="utf-8"><title>${escape(text)}</title></head><body><p>${escape(text)}</p></body></html>`,
        pageCsp(nonce, null),
      );
    }
    const model = await buildModel(deps, page, request);
    return sendHtml(reply, status, bookingPageHtml(model, nonce), pageCsp(nonce, ancestors));
  }

  app.get<PageRequest>(BOOKING_PAGE_PATH, { config: { auth: 'none', openapi: PAGE_DOC } }, async (req, reply) => {
    const page = await openPage(deps.database.db, req.params.slug);
    if (!page) return notFound(req, reply, req.query.lang);
    const locale = localeFor(page, req.headers['accept-language'], req.query.lang);
    return render(reply, page, { locale, embed: isEmbed(req, req.query), choice: choiceOf(req.query) });
  });

  app.get<PageRequest>(
    `${BOOKING_PAGE_PATH}/choice`,
    { config: { auth: 'none', openapi: CHOICE_DOC } },
    async (req, reply) => {
      const page = await openPage(deps.database.db, req.params.slug);
      if (!page) return reply.status(404).send({ error: 'not_found' });
      const locale = localeFor(page, req.headers['accept-language'], req.query.lang);
      const model = await buildModel(deps, page, { locale, embed: false, choice: choiceOf(req.query) });
      return reply.header('Cache-Control', 'no-store').send({
        dateMin: model.dateBounds?.min ?? '',
        dateMax: model.dateBounds?.max ?? '',
        date: model.date ?? '',
        durationsHtml: durationOptions(model),
        slotsHtml: slotsSection(model),
        quoteHtml: quoteSection(model),
      });
    },
  );

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())));
      },
    );
    scope.post<PageRequest>(BOOKING_PAGE_PATH, { config: { auth: 'none', openapi: POST_DOC } }, async (req, reply) => {
      const form = readForm(req.body);
      const page = await openPage(deps.database.db, req.params.slug);
      if (!page) return notFound(req, reply, form.lang || req.query.lang);
      const locale = localeFor(page, req.headers['accept-language'], form.lang || req.query.lang);
      const embed = isEmbed(req, req.query);
      const guest = guestOf(form);
      const choice = choiceOf(form);
      const request: ModelRequest = { locale, embed, choice, guest };
      if (form.step !== 'book') return render(reply, page, request);

      // The guard first: every submitted booking spends its address's budget, a valid one or not.
      const verdict = await deps.bookingGuard.check({
        tenantId: page.tenant_id,
        address: req.ip,
        honeypot: form.website,
        challenge: form.challenge,
        nonce: form.nonce,
        now: deps.now(),
      });
      if (!verdict.ok) {
        req.log.info({ reason: verdict.reason, tenantId: page.tenant_id }, 'booking page: attempt refused');
        const limited = 'retryAfterSeconds' in verdict;
        if (limited) reply.header('Retry-After', String(verdict.retryAfterSeconds));
        return render(reply, page, { ...request, formError: refusalMessage(locale, verdict) }, limited ? 429 : 400);
      }
      const model = await buildModel(deps, page, request);
      const checked = checkForm(model, form);
      if (!checked.booking) return render(reply, page, { ...request, errors: checked.errors }, 400);
      let next: string;
      try {
        ({ next } = await createGuestBooking(deps, page, model, checked.booking, req.ip));
      } catch (error) {
        const message = bookingRefusal(locale, error);
        if (!message) throw error;
        const status = (error as { kind?: string }).kind === 'CONFLICT' ? 409 : 400;
        return render(reply, page, { ...request, choice: { ...choice, start: undefined }, formError: message }, status);
      }
      return reply.header('Cache-Control', 'no-store').redirect(next, 303);
    });
  });
}
