import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildCancellationPolicy, buildVenue } from './builders.js';
import { solveChallenge } from '../src/modules/booking-page/index.js';
import { bookingIdOfManageToken, bookingIdOfPaymentToken } from '../src/modules/bookings/index.js';
import type { BookingPagePaymentMode } from '../src/kernel/db/types.js';

// The public booking page (issue #41, docs/booking-page.md): served only for an enabled page and
// published objects, in English and German, under a strict CSP; a booking made on it goes through
// the bookings service (event, audit with the guest as actor) and sends the guest on by the
// venue's payment mode; bots meet a honeypot, a single-use proof of work and limits per address
// and per tenant.

let h: Harness;
let slugCounter = 0;

beforeAll(async () => {
  h = await harness();
});

interface PageOptions {
  enabled?: boolean;
  paymentMode?: BookingPagePaymentMode;
  allowedOrigins?: string[];
  defaultLocale?: 'en' | 'de';
  texts?: Record<string, Record<string, string>>;
  objects?: number;
  publish?: number;
  timeZone?: string;
  vat?: number | null;
}

async function venueWithPage(options: PageOptions = {}) {
  const venue = await buildVenue(h, { objects: options.objects ?? 1, timeZone: options.timeZone });
  const slug = `club-${process.pid}-${++slugCounter}`;
  const db = h.deps.database.db;
  await db
    .insertInto('booking_pages')
    .values({
      tenant_id: venue.tenantId,
      enabled: options.enabled ?? true,
      slug,
      payment_mode: options.paymentMode ?? 'at_venue',
      allowed_origins: options.allowedOrigins ?? [],
      default_locale: options.defaultLocale ?? 'en',
      texts: JSON.stringify(options.texts ?? {}),
      vat_rate_basis_points: options.vat ?? null,
    })
    .execute();
  const published = venue.objects.slice(0, options.publish ?? venue.objects.length).map((o) => o.id);
  if (published.length) await db.updateTable('objects').set({ published: true }).where('id', 'in', published).execute();
  return { ...venue, slug };
}

/** A date in the venue's zone `days` ahead (YYYY-MM-DD, Berlin). */
function dateIn(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

const challengeOf = (html: string) => /name="challenge" value="([^"]+)"/.exec(html)?.[1] ?? '';
const startsOf = (html: string) => [...html.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1] ?? '');

type Request = (options: Parameters<Harness['request']>[0]) => Promise<TestResponse>;

function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

async function post(
  request: Request,
  slug: string,
  fields: Record<string, string>,
  remoteAddress = '203.0.113.10',
  query = '',
) {
  return request({
    method: 'POST',
    url: `/book/${slug}${query}`,
    body: formBody(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress,
  });
}

/** The page for a day, and a filled booking form for its first free start (proof solved unless told otherwise). */
async function filledForm(
  request: Request,
  venue: { slug: string; object: { id: string } },
  overrides: Record<string, string> = {},
  options: { solve?: boolean; bits?: number; day?: number; startIndex?: number } = {},
) {
  const date = dateIn(options.day ?? 3);
  const page = await request({ method: 'GET', url: `/book/${venue.slug}?object=${venue.object.id}&date=${date}` });
  expect(page.status).toBe(200);
  const challenge = challengeOf(page.text);
  const start = startsOf(page.text)[options.startIndex ?? 0] ?? '';
  const bits = options.bits ?? h.deps.env.bookingPage.powBits;
  return {
    step: 'book',
    object: venue.object.id,
    date,
    duration: '60',
    start,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    phone: '0151 23456789',
    accept: 'yes',
    website: '',
    challenge,
    nonce: options.solve === false ? '' : solveChallenge(challenge, bits),
    ...overrides,
  };
}

async function bookingOf(tenantId: string, id: string) {
  return h.deps.database.db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('the booking page', () => {
  it('is served only for an enabled page, with its published objects; anything else is the same 404 page', async () => {
    const venue = await venueWithPage({ objects: 2, publish: 1 });
    const res = await h.request({ method: 'GET', url: `/book/${venue.slug}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Court 1');
    expect(res.text).not.toContain('Court 2');
    expect(res.text).toContain(`value="${venue.objects[0].id}"`);
    expect(res.text).not.toContain(venue.objects[1].id);

    const disabled = await venueWithPage({ enabled: false });
    for (const url of [
      `/book/${disabled.slug}`,
      '/book/no-such-venue',
      '/book/UPPER',
      `/book/${'x'.repeat(80)}`,
      '/book/%3Cscript%3E',
    ]) {
      const missing = await h.request({ method: 'GET', url });
      expect(missing.status, url).toBe(404);
      expect(missing.text).toContain('Booking page not found');
    }
    // An unpublished object cannot be booked by naming it either.
    const choice = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}/choice?object=${venue.objects[1].id}&date=${dateIn(3)}`,
    });
    expect(choice.status).toBe(200);
    expect(choice.body.slotsHtml).not.toContain(venue.objects[1].id);
  });

  it('is self-contained under a strict CSP with a fresh nonce, and may not be framed', async () => {
    const venue = await venueWithPage();
    const one = await h.request({ method: 'GET', url: `/book/${venue.slug}` });
    const two = await h.request({ method: 'GET', url: `/book/${venue.slug}` });
    const csp = String(one.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(one.text).toContain(`<style nonce="${nonce}">`);
    expect(two.headers['content-security-policy']).not.toBe(csp);
    // Nothing from another host: every src and href is a path or a data: URL.
    for (const [, url] of one.text.matchAll(/(?:src|href|action)="([^"]*)"/g)) expect(url).toMatch(/^(\/|#|data:)/);
    for (const asset of ['/book/assets/page.css', '/book/assets/page.js']) {
      const res = await h.request({ method: 'GET', url: asset });
      expect(res.status, asset).toBe(200);
    }
  });

  it('speaks English or German: ?lang= first, then Accept-Language, then the venue’s default', async () => {
    const venue = await venueWithPage({
      defaultLocale: 'de',
      texts: { en: { intro: 'Welcome!' }, de: { intro: 'Willkommen!' } },
    });
    const byDefault = await h.request({ method: 'GET', url: `/book/${venue.slug}` });
    expect(byDefault.text).toContain('<html lang="de">');
    expect(byDefault.text).toContain('Willkommen!');
    expect(byDefault.text).toContain('Was möchten Sie buchen?');
    const byHeader = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}`,
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(byHeader.text).toContain('<html lang="en">');
    expect(byHeader.text).toContain('Welcome!');
    const byChoice = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}?lang=de`,
      headers: { 'accept-language': 'en' },
    });
    expect(byChoice.text).toContain('<html lang="de">');
    // The switch keeps the choice made.
    expect(byChoice.text).toMatch(/href="\/book\/[^"]*lang=en"[^>]*>English</);
  });

  it('escapes what the venue wrote', async () => {
    const venue = await venueWithPage({
      texts: { en: { intro: '<script>alert(1)</script>', cancellationPolicy: '<img src=x onerror=alert(1)>' } },
    });
    await h.deps.database.db
      .updateTable('tenants')
      .set({ name: 'Club "<b>" & Co' })
      .where('id', '=', venue.tenantId)
      .execute();
    const res = await h.request({ method: 'GET', url: `/book/${venue.slug}` });
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).toContain('Club &quot;&lt;b&gt;&quot; &amp; Co');
  });

  it('offers the free starts of the chosen day for the chosen duration, the price with its breakdown, and the policy', async () => {
    const venue = await venueWithPage({ vat: 1900 });
    await buildCancellationPolicy(h, venue.tenantId, {
      isDefault: true,
      tiers: [
        { hoursBeforeStart: 48, refundPercent: 100 },
        { hoursBeforeStart: 24, refundPercent: 50 },
      ],
    });
    const date = dateIn(4);
    const page = await h.request({ method: 'GET', url: `/book/${venue.slug}?object=${venue.object.id}&date=${date}` });
    const starts = startsOf(page.text);
    expect(starts).toHaveLength(14); // 08:00 to 21:00 Berlin, one hour each
    expect(page.text).toContain('Times are local to the venue (Europe/Berlin).');
    expect(page.text).toContain('Cancel at least 48 h before the start: 100% refunded.');
    expect(page.text).toContain('Later cancellations are not refunded.');
    // Another guest's booking takes its hour away.
    await buildBooking(h, venue.tenantId, venue.object.id, {
      start: starts[2],
      end: new Date(Date.parse(starts[2]) + 3_600_000).toISOString(),
      status: 'CONFIRMED',
    });
    const choice = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}/choice?object=${venue.object.id}&date=${date}&duration=60`,
    });
    expect(startsOf(choice.body.slotsHtml)).toEqual(starts.filter((_, i) => i !== 2));
    // Two hours: only starts with two free hours in a row.
    const long = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}/choice?object=${venue.object.id}&date=${date}&duration=120`,
    });
    expect(long.status).toBe(200);
    const quote = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}/choice?object=${venue.object.id}&date=${date}&duration=60&start=${encodeURIComponent(starts[0])}`,
    });
    expect(quote.body.quoteHtml).toContain('1 h × €20.00 per hour');
    expect(quote.body.quoteHtml).toContain('data-total-cents="2000"');
    expect(quote.body.quoteHtml).toContain('Includes 19% VAT (€3.19)');
    // A day beyond the rules falls back to the first bookable day.
    const far = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}/choice?object=${venue.object.id}&date=2999-01-01`,
    });
    expect(far.body.date).toBe(far.body.dateMin);
  });
});

describe('booking on the page', () => {
  it('at the venue: PENDING through the bookings service, the phone in E.164, audited with the guest as actor, then the manage page', async () => {
    const venue = await venueWithPage();
    const form = await filledForm(h.request, { slug: venue.slug, object: venue.object });
    const res = await post(h.request, venue.slug, form);
    expect(res.status, res.text.slice(0, 500)).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^http:\/\/portier\.test\/b\/[A-Za-z0-9_-]{54}$/);
    const id = bookingIdOfManageToken(location.split('/b/')[1])!;
    const booking = await bookingOf(venue.tenantId, id);
    expect(booking).toMatchObject({
      status: 'PENDING',
      guest_name: 'Grace Hopper',
      guest_email: 'grace@example.com',
      guest_phone: '+4915123456789',
      total_price: 2000,
    });
    expect(booking.start_time.toISOString()).toBe(form.start);
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', venue.tenantId)
      .execute();
    expect(events.map((e) => e.type)).toContain('booking.created');
    const audit = await h.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', venue.tenantId)
      .where('action', '=', 'booking.guest_created')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_type: 'guest', actor_id: id, target_id: id, ip: '203.0.113.10' });
    expect(audit.actor_label).toBe('guest Grace Hopper (booking page)');
  });

  it('at the venue with confirmOnPayment off: CONFIRMED at once', async () => {
    const venue = await venueWithPage();
    await h.deps.database.db
      .insertInto('tenant_settings')
      .values({ tenant_id: venue.tenantId, confirm_on_payment: false })
      .execute();
    const res = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }),
    );
    expect(res.status).toBe(303);
    const id = bookingIdOfManageToken(String(res.headers.location).split('/b/')[1])!;
    expect((await bookingOf(venue.tenantId, id)).status).toBe('CONFIRMED');
  });

  it('online required: PENDING, and on to the paymentUrl', async () => {
    const venue = await venueWithPage({ paymentMode: 'online_required' });
    const res = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }),
    );
    expect(res.status).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^http:\/\/portier\.test\/pay\//);
    const id = bookingIdOfPaymentToken(h.deps.secret, location.split('/pay/')[1])!;
    expect((await bookingOf(venue.tenantId, id)).status).toBe('PENDING');
  });

  it('online optional: the guest chooses (and must)', async () => {
    const venue = await venueWithPage({ paymentMode: 'online_optional' });
    const missing = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }),
    );
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Choose how you would like to pay.');
    const atVenue = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }, { pay: 'venue' }),
    );
    expect(String(atVenue.headers.location)).toContain('/b/');
    const online = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }, { pay: 'online' }, { startIndex: 1 }),
    );
    expect(String(online.headers.location)).toContain('/pay/');
  });

  it('names each field to fix, in the guest’s language, and keeps what was typed', async () => {
    const venue = await venueWithPage();
    const form = await filledForm(
      h.request,
      { slug: venue.slug, object: venue.object },
      { phone: '12', email: 'not-an-email', accept: '', name: 'x'.repeat(201), lang: 'de' },
    );
    const res = await post(h.request, venue.slug, form);
    expect(res.status).toBe(400);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain('Geben Sie eine gültige Telefonnummer ein');
    expect(res.text).toContain('Geben Sie eine gültige E-Mail-Adresse ein');
    expect(res.text).toContain('Bitte akzeptieren Sie die Stornobedingungen');
    expect(res.text).toContain('Geben Sie Ihren Namen ein (höchstens 200 Zeichen).');
    expect(res.text).toMatch(/id="phone"[^>]*aria-invalid="true"/);
    expect(res.text).toContain('value="not-an-email"');
    expect(res.text).toContain('role="alert"');
    // A venue whose zone has no country listed needs the country code.
    const far = await venueWithPage({ timeZone: 'Antarctica/Troll' });
    const local = await post(
      h.request,
      far.slug,
      await filledForm(h.request, { slug: far.slug, object: far.object }, { phone: '0151 23456789' }),
    );
    expect(local.status).toBe(400);
    expect(local.text).toContain('Enter your number with its country code');
  });

  it('asks for another time when the chosen one was just taken', async () => {
    const venue = await venueWithPage();
    const form = await filledForm(h.request, { slug: venue.slug, object: venue.object });
    await buildBooking(h, venue.tenantId, venue.object.id, {
      start: form.start,
      end: new Date(Date.parse(form.start) + 3_600_000).toISOString(),
    });
    const res = await post(h.request, venue.slug, form);
    expect([400, 409]).toContain(res.status);
    expect(res.text).toMatch(/Choose one of the free times|this time was just booked/);
  });
});

describe('bot protection', () => {
  it('refuses a filled honeypot, a forged, reused or missing proof', async () => {
    const venue = await venueWithPage();
    const honeypot = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }, { website: 'https://spam.example' }),
      '203.0.113.20',
    );
    expect(honeypot.status).toBe(400);
    expect(honeypot.text).toContain('Your booking could not be sent.');
    const forged = await post(
      h.request,
      venue.slug,
      await filledForm(h.request, { slug: venue.slug, object: venue.object }, { nonce: '1' }),
      '203.0.113.20',
    );
    expect(forged.status).toBe(400);
    const form = await filledForm(h.request, { slug: venue.slug, object: venue.object });
    expect((await post(h.request, venue.slug, form, '203.0.113.20')).status).toBe(303);
    const again = await post(
      h.request,
      venue.slug,
      { ...form, start: (await filledForm(h.request, { slug: venue.slug, object: venue.object })).start },
      '203.0.113.20',
    );
    expect(again.status).toBe(400);
    expect(again.text).toContain('This form has expired.');
    const bookings = await h.deps.database.db
      .selectFrom('bookings')
      .select('id')
      .where('tenant_id', '=', venue.tenantId)
      .execute();
    expect(bookings).toHaveLength(1);
  });

  it('lets a browser without JavaScript book a few times per address, then asks for JavaScript', async () => {
    const venue = await venueWithPage();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const form = await filledForm(h.request, { slug: venue.slug, object: venue.object }, {}, { solve: false });
      const res = await post(h.request, venue.slug, form, '203.0.113.30');
      statuses.push(res.status);
      if (res.status === 429) expect(res.text).toContain('Please turn on JavaScript to book');
    }
    expect(statuses).toEqual([303, 303, 303, 429]);
  });

  describe('a burst of 200 bot bookings from one address', () => {
    let o: OwnApp;
    beforeAll(async () => {
      o = await ownApp(h, { env: { bookingPage: { powBits: 4, perAddressPerHour: 10, perTenantPerHour: 40 } } });
    });
    afterAll(async () => o?.close());

    it(
      'is stopped after the address’s budget, while guests from other addresses still book',
      { timeout: 120_000 },
      async () => {
        const venue = await venueWithPage();
        const bot = '198.51.100.66';
        const form = await filledForm(o.request, { slug: venue.slug, object: venue.object }, {}, { bits: 4 });
        const statuses = new Map<number, number>();
        // Each bot request solves its own fresh challenge (the bot does the work), and they arrive in parallel waves.
        const pages = await Promise.all(
          Array.from({ length: 200 }, () =>
            o.request({ method: 'GET', url: `/book/${venue.slug}?object=${venue.object.id}&date=${form.date}` }),
          ),
        );
        const starts = startsOf(pages[0].text);
        for (let wave = 0; wave < 200; wave += 50) {
          const answers = await Promise.all(
            pages.slice(wave, wave + 50).map((page, i) => {
              const challenge = challengeOf(page.text);
              const start = starts[(wave + i) % starts.length];
              return post(
                o.request,
                venue.slug,
                { ...form, start, challenge, nonce: solveChallenge(challenge, 4), name: `Bot ${wave + i}` },
                bot,
              );
            }),
          );
          for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        }
        const created = await o.deps.database.db
          .selectFrom('bookings')
          .select('id')
          .where('tenant_id', '=', venue.tenantId)
          .execute();
        // At most the address's 10 attempts got through (fewer when two bots chose the same start).
        expect(created.length).toBeLessThanOrEqual(10);
        expect(statuses.get(429)).toBe(190);
        // Other guests, each from their own address, still book.
        for (let i = 0; i < 3; i++) {
          const guest = await filledForm(
            o.request,
            { slug: venue.slug, object: venue.object },
            { name: `Guest ${i}` },
            { bits: 4, day: 5 },
          );
          const res = await post(o.request, venue.slug, guest, `192.0.2.${10 + i}`);
          expect(res.status, res.text.slice(0, 300)).toBe(303);
        }
      },
    );

    it('caps a venue’s bookings per hour across addresses, and only for that venue', { timeout: 120_000 }, async () => {
      const venue = await venueWithPage();
      const other = await venueWithPage();
      const statuses: number[] = [];
      for (let i = 0; i < 42; i++) {
        const form = await filledForm(
          o.request,
          { slug: venue.slug, object: venue.object },
          {},
          { bits: 4, day: 2 + Math.floor(i / 14) },
        );
        statuses.push((await post(o.request, venue.slug, form, `10.1.${Math.floor(i / 200)}.${i % 200}`)).status);
      }
      expect(statuses.filter((s) => s === 303)).toHaveLength(40);
      expect(statuses.slice(40)).toEqual([429, 429]);
      const elsewhere = await post(
        o.request,
        other.slug,
        await filledForm(o.request, { slug: other.slug, object: other.object }, {}, { bits: 4 }),
        '10.1.0.1',
      );
      expect(elsewhere.status).toBe(303);
    });
  });
});

describe('the widget', () => {
  it('serves its loader script to any site', async () => {
    const res = await h.request({ method: 'GET', url: '/widget.js' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.text).toContain("'?embed=1'");
    expect(res.text).toContain('event.origin !== origin');
  });

  it('lets only the venue’s allowed origins frame the embedded page', async () => {
    const venue = await venueWithPage({ allowedOrigins: ['https://club.example', 'http://127.0.0.1:8080'] });
    const embedded = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}?embed=1`,
      headers: { 'sec-fetch-dest': 'iframe' },
    });
    expect(embedded.status).toBe(200);
    expect(embedded.headers['content-security-policy']).toMatch(
      /frame-ancestors https:\/\/club\.example http:\/\/127\.0\.0\.1:8080(;|$)/,
    );
    expect(embedded.text).toContain('class="embed"');
    expect(embedded.text).toContain('formtarget="_top"');
    // Opened as a page of its own, the embed address is the plain page, not framable.
    const top = await h.request({
      method: 'GET',
      url: `/book/${venue.slug}?embed=1`,
      headers: { 'sec-fetch-dest': 'document' },
    });
    expect(top.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    const none = await venueWithPage();
    const refused = await h.request({ method: 'GET', url: `/book/${none.slug}?embed=1` });
    expect(refused.status).toBe(403);
    expect(refused.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });
});
