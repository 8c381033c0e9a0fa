import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildVenue } from './builders.js';
import { startSmsPeer, startSmtpPeer, type ReceivedMail, type SmsPeer, type SmtpPeer } from './peers/mail-peers.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';
import { NotificationSender, createMailer, createSmsClient, smsSegments } from '../src/modules/notifications/index.js';
import { bookingIdOfManageToken, isManageToken } from '../src/modules/bookings/index.js';

// The guest's messages of issue #41 (docs/notifications.md "Links and languages", docs/booking-page.md
// "Messages"): every mail and SMS in the guest's language with the manage link of the booking's
// current link version; a "pay here" for a PENDING booking that waits for an online payment; a
// receipt after the Stripe stand-in's webhook marks it paid, with the VAT included when the venue
// sets a rate. Real peers: smtp-server, the SMS stand-in, the Stripe stand-in.

let h: Harness;
let smtp: SmtpPeer;
let sms: SmsPeer;
let stripe: StripeStandIn;
/** Mail, SMS and online payment. */
let paying: OwnApp;
/** Mail and SMS, no online payment (no Stripe). */
let venueOnly: OwnApp;
let sender: NotificationSender;

const NOW = '2026-11-20T09:00:00Z';
const MANAGE = /http:\/\/portier\.test\/b\/([A-Za-z0-9_-]{54})/g;

beforeAll(async () => {
  h = await harness();
  smtp = await startSmtpPeer();
  sms = await startSmsPeer();
  stripe = await startStripeStandIn({ now: h.clock.now });
  const messaging = {
    mail: {
      smtpUrl: `smtp://portier:secret@127.0.0.1:${smtp.port}`,
      from: 'bookings@venue.example',
      timeoutMs: 20_000,
    },
    sms: { apiBase: sms.url, accountSid: 'AC0123456789abcdef', authToken: 'sms-token', from: '+15550001111' },
  };
  paying = await ownApp(h, {
    env: {
      ...messaging,
      stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) },
    },
  });
  venueOnly = await ownApp(h, { env: messaging });
  sender = new NotificationSender({
    deps: paying.deps,
    mailer: createMailer(paying.deps.env.mail!, { timeoutMs: 20_000 }),
    sms: createSmsClient(paying.deps.env.sms!, { timeoutMs: 20_000 }),
    timeoutMs: 20_000,
  });
}, 120_000);

afterAll(async () => {
  await paying?.close();
  await venueOnly?.close();
  await smtp?.close();
  await sms?.close();
  await stripe?.close();
});
beforeEach(() => h.clock.set(NOW));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;

async function book(
  app: OwnApp,
  v: Venue,
  guest: { email: string; phone?: string; locale?: 'EN' | 'DE'; status?: 'CONFIRMED' },
  slot: { start: string; end: string } = { start: '2026-11-21T10:00:00Z', end: '2026-11-21T11:30:00Z' },
) {
  const res = await app.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: {
      objectId: v.object.id,
      guestName: 'Ada Lovelace',
      guestEmail: guest.email,
      guestPhone: guest.phone ?? null,
      startTime: slot.start,
      endTime: slot.end,
      ...(guest.locale ? { locale: guest.locale } : {}),
      ...(guest.status ? { status: guest.status } : {}),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.booking as { id: string; reference: string; paymentUrl: string; status: string };
}

const mailsTo = (email: string): ReceivedMail[] =>
  smtp.mails.filter((m) => m.parsed.to && JSON.stringify(m.parsed.to).includes(email));
const smsTo = (phone: string) =>
  sms.requests.filter((r) => r.form.get('To') === phone).map((r) => r.form.get('Body') ?? '');

/** The manage links a text holds, each checked to be the booking's link of `version`. */
function manageLinksOf(text: string, bookingId: string, version = 1): string[] {
  const links = [...text.matchAll(MANAGE)];
  for (const [, token] of links) {
    expect(bookingIdOfManageToken(token)).toBe(bookingId);
    expect(isManageToken(h.deps.secret, token, bookingId, version), `the link of version ${version}`).toBe(true);
  }
  return links.map((m) => m[0]);
}

const hrefsOf = (html: string) =>
  [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));

const unique = (prefix: string, v: Venue) => `${prefix}-${v.tenantId.slice(0, 8)}@example.com`;
const phoneOf = (v: Venue) => `+4930${parseInt(v.tenantId.slice(0, 6), 16) % 10_000_000}`.padEnd(12, '7');

async function setBookingPage(
  v: Venue,
  values: { default_locale?: 'en' | 'de'; payment_mode?: string; vat_rate_basis_points?: number | null },
) {
  await sql`INSERT INTO booking_pages (tenant_id, slug, default_locale, payment_mode, vat_rate_basis_points)
    VALUES (${v.tenantId}, ${`venue-${v.tenantId.slice(0, 8)}`}, ${values.default_locale ?? 'en'},
            ${values.payment_mode ?? 'online_required'}, ${values.vat_rate_basis_points ?? null})`.execute(
    h.deps.database.db,
  );
}

describe('confirmation, reminder, reschedule and cancellation in both languages', () => {
  it('English: the mail and the SMS carry the manage link, which isManageToken verifies', async () => {
    const v = await buildVenue(h, { pricePerHour: 2400 });
    const email = unique('en', v);
    const phone = phoneOf(v);
    const booking = await book(paying, v, { email, phone, status: 'CONFIRMED' });
    await sender.drain();
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail.parsed.subject).toBe(
      'Your booking is confirmed: Court 1 at Sportpark Test, Sat 21 Nov 2026, 11:00–12:30 (Europe/Berlin)',
    );
    const text = mail.parsed.text ?? '';
    expect(text).toContain(`Reference: ${booking.reference}`);
    expect(text).toContain('Price: €36.00');
    const [link] = manageLinksOf(text, booking.id);
    expect(link).toBeDefined();
    expect(text).toContain(`View, change or cancel your booking: ${link}`);
    // The HTML's one link is the manage link (the QR code is inline).
    expect(hrefsOf(mail.parsed.html || '')).toEqual([link]);
    expect(mail.parsed.html).toContain('<html lang="en">');
    const [body, ...others] = smsTo(phone);
    expect(others).toHaveLength(0);
    expect(manageLinksOf(body, booking.id)).toEqual([link]);
    expect(body).toContain(booking.reference);
    expect(body).toContain('Sat 21 Nov 11:00-12:30');
    expect(smsSegments(body)).toMatchObject({ encoding: 'gsm7' });
    expect(smsSegments(body).segments).toBeLessThanOrEqual(2);
  });

  it('German (createBooking locale DE): confirmation, reminder, reschedule and cancellation, each with the link', async () => {
    const v = await buildVenue(h, { pricePerHour: 2400 });
    await paying.graphql(
      v.apiKey,
      'mutation { updateNotificationSettings(input: { reminderHoursBefore: 24 }) { reminderHoursBefore } }',
    );
    const email = unique('de', v);
    const phone = phoneOf(v);
    const booking = await book(
      paying,
      v,
      { email, phone, locale: 'DE', status: 'CONFIRMED' },
      { start: '2026-11-23T10:00:00Z', end: '2026-11-23T11:30:00Z' },
    );
    await sender.drain();
    h.clock.set('2026-11-22T10:00:01Z');
    await sender.drain();
    const url = `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`;
    const moved = await paying.request({
      method: 'PATCH',
      url,
      apiKey: v.apiKey,
      body: { startTime: '2026-11-24T14:00:00Z', endTime: '2026-11-24T15:00:00Z' },
    });
    expect(moved.status, moved.text).toBe(200);
    await sender.drain();
    const cancelled = await paying.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect(cancelled.status, cancelled.text).toBe(200);
    await sender.drain();

    const mails = mailsTo(email);
    expect(mails.map((m) => m.parsed.subject?.split(':')[0])).toEqual([
      'Ihre Buchung ist bestätigt',
      'Erinnerung',
      'Ihre Buchung wurde verlegt',
      'Ihre Buchung ist storniert',
    ]);
    const [confirmed, reminder, rescheduled, cancellation] = mails;
    expect(confirmed.parsed.subject).toBe(
      'Ihre Buchung ist bestätigt: Court 1 bei Sportpark Test, Mo., 23. November 2026, 11:00–12:30 (Europe/Berlin)',
    );
    expect(confirmed.parsed.text).toContain('Hallo Ada Lovelace,');
    expect(confirmed.parsed.text).toContain('Preis: 36,00 €');
    expect(confirmed.parsed.text).toContain(`Buchungsnummer: ${booking.reference}`);
    expect(confirmed.parsed.html).toContain('<html lang="de">');
    expect(reminder.parsed.text).toContain('Türcode (SMS-Code):');
    expect(rescheduled.parsed.text).toContain('Neue Zeit: Di., 24. November 2026, 15:00–16:00 (Europe/Berlin)');
    expect(cancellation.parsed.text).toContain('Erstattung: ');
    for (const mail of mails) {
      const [link] = manageLinksOf(mail.parsed.text ?? '', booking.id);
      expect(link, mail.parsed.subject).toBeDefined();
      expect(mail.parsed.text).toContain(`Buchung ansehen, ändern oder stornieren: ${link}`);
      expect(hrefsOf(mail.parsed.html || '')).toEqual([link]);
    }
    const texts = smsTo(phone);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain(`Buchung ${booking.reference} bestätigt`);
    expect(texts[0]).toContain('Mo. 23.11. 11:00-12:30');
    expect(texts[1]).toContain('verlegt auf Di. 24.11. 15:00-16:00');
    for (const body of texts) {
      expect(manageLinksOf(body, booking.id)).toHaveLength(1);
      expect(smsSegments(body)).toMatchObject({ encoding: 'gsm7' });
      expect(smsSegments(body).segments).toBeLessThanOrEqual(2);
    }
  });

  it("a booking without a locale gets the venue's default language (booking_pages.default_locale)", async () => {
    const v = await buildVenue(h);
    await setBookingPage(v, { default_locale: 'de' });
    const email = unique('default', v);
    const booking = await book(venueOnly, v, { email, status: 'CONFIRMED' });
    await sender.drain();
    const [mail] = mailsTo(email);
    expect(mail.parsed.subject).toMatch(/^Ihre Buchung ist bestätigt/);
    expect(manageLinksOf(mail.parsed.text ?? '', booking.id)).toHaveLength(1);
    // The guest's own choice wins over the venue's default.
    const english = await book(
      venueOnly,
      v,
      { email: unique('chose-en', v), locale: 'EN', status: 'CONFIRMED' },
      { start: '2026-11-22T10:00:00Z', end: '2026-11-22T11:00:00Z' },
    );
    await sender.drain();
    expect(mailsTo(unique('chose-en', v))[0].parsed.subject).toMatch(/^Your booking is confirmed/);
    expect(english.id).toBeDefined();
  });

  it('a link revoked before the mail is sent (guest_link_version raised) is never mailed: the current one is', async () => {
    const v = await buildVenue(h);
    const email = unique('revoked', v);
    const phone = phoneOf(v);
    const booking = await book(venueOnly, v, { email, phone, status: 'CONFIRMED' });
    await h.deps.database.db
      .updateTable('bookings')
      .set({ guest_link_version: 2 })
      .where('id', '=', booking.id)
      .execute();
    await sender.drain();
    const [mail] = mailsTo(email);
    const text = mail.parsed.text ?? '';
    const [link] = manageLinksOf(text, booking.id, 2);
    const token = link.split('/b/')[1];
    expect(isManageToken(h.deps.secret, token, booking.id, 1)).toBe(false);
    expect(manageLinksOf(smsTo(phone)[0], booking.id, 2)).toEqual([link]);
  });
});

describe('"booking received, pay here"', () => {
  it('a PENDING booking that waits for its online payment gets the payment page and the manage link (mail and SMS)', async () => {
    const v = await buildVenue(h, { pricePerHour: 2050 });
    const email = unique('pay', v);
    const phone = phoneOf(v);
    const booking = await book(
      paying,
      v,
      { email, phone },
      { start: '2026-11-21T09:00:00Z', end: '2026-11-21T11:00:00Z' },
    );
    expect(booking.status).toBe('PENDING');
    const log = await paying.graphql(
      v.apiKey,
      'query($id: ID!) { booking(id: $id) { notifications { channel kind status } } }',
      {
        id: booking.id,
      },
    );
    expect(log.body.data.booking.notifications).toEqual([
      { channel: 'EMAIL', kind: 'PAYMENT_DUE', status: 'PENDING' },
      { channel: 'SMS', kind: 'PAYMENT_DUE', status: 'PENDING' },
    ]);
    await sender.drain();
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail.parsed.subject).toMatch(/^We have your booking: please pay to confirm it: Court 1 at Sportpark Test/);
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Amount due: €41.00');
    expect(text).toContain(`Pay online: ${booking.paymentUrl}`);
    const [link] = manageLinksOf(text, booking.id);
    expect(hrefsOf(mail.parsed.html || '')).toEqual([booking.paymentUrl, link]);
    // No key and no calendar entry before the booking is confirmed.
    expect(mail.parsed.attachments).toHaveLength(0);
    expect(mail.raw).not.toMatch(/text\/calendar/i);
    const [body] = smsTo(phone);
    expect(body).toContain(booking.paymentUrl);
    expect(body).toContain('€41.00');
    expect(body.match(/https?:\/\//g)).toHaveLength(1);
    expect(smsSegments(body).segments).toBeLessThanOrEqual(2);
  });

  it('is not sent for a free booking, without online payment, or when the venue takes payment at the venue', async () => {
    const free = await buildVenue(h, { pricePerHour: 0 });
    await book(paying, free, { email: unique('free', free), phone: phoneOf(free) });
    const noStripe = await buildVenue(h, { pricePerHour: 2000 });
    await book(venueOnly, noStripe, { email: unique('nostripe', noStripe), phone: phoneOf(noStripe) });
    const atVenue = await buildVenue(h, { pricePerHour: 2000 });
    await setBookingPage(atVenue, { payment_mode: 'at_venue' });
    await book(paying, atVenue, { email: unique('atvenue', atVenue), phone: phoneOf(atVenue) });
    await sender.drain();
    for (const v of [free, noStripe, atVenue]) {
      const rows = await h.deps.database.db
        .selectFrom('notifications')
        .select('kind')
        .where('tenant_id', '=', v.tenantId)
        .execute();
      expect(rows, v.tenantId).toEqual([]);
    }
    expect(mailsTo(unique('free', free))).toHaveLength(0);
    expect(mailsTo(unique('atvenue', atVenue))).toHaveLength(0);
  });

  it('confirmed (or cancelled) before it went out: the "pay here" is dropped, never sent', async () => {
    const v = await buildVenue(h, { pricePerHour: 2000 });
    const email = unique('dropped', v);
    const booking = await book(paying, v, { email });
    const confirmed = await paying.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CONFIRMED' },
    });
    expect(confirmed.status).toBe(200);
    await sender.drain();
    expect(mailsTo(email).map((m) => m.parsed.subject?.split(':')[0])).toEqual(['Your booking is confirmed']);
    const rows = await h.deps.database.db
      .selectFrom('notifications')
      .select(['kind', 'status'])
      .where('booking_id', '=', booking.id)
      .orderBy('created_at')
      .execute();
    expect(rows).toContainEqual({ kind: 'payment_due', status: 'cancelled' });
  });
});

describe('the receipt', () => {
  async function payThroughStandIn(paymentUrl: string) {
    const res = await paying.request({ method: 'GET', url: new URL(paymentUrl).pathname });
    expect(res.status, res.text).toBe(303);
    const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(res.headers.location))?.[1];
    const signed = stripe.sign(stripe.complete(sessionId!));
    const hook = await paying.request({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      body: signed.payload,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.header },
    });
    expect(hook.status, hook.text).toBe(200);
  }

  it.each([
    ['en', 1900, 'Included VAT (19%): €6.55', 'Amount paid: €41.00'],
    ['de', 1900, 'Enthaltene MwSt. (19 %): 6,55 €', 'Bezahlter Betrag: 41,00 €'],
    ['en', 770, 'Included VAT (7.7%): €2.93', 'Amount paid: €41.00'],
    ['en', null, null, 'Amount paid: €41.00'],
  ] as const)(
    '%s, VAT %s: after the webhook marks it paid, with the amount, the VAT included, the venue and the reference',
    async (locale, vat, vatLine, amountLine) => {
      const v = await buildVenue(h, { pricePerHour: 2050 });
      await setBookingPage(v, { vat_rate_basis_points: vat, default_locale: locale });
      const email = unique(`receipt-${locale}-${vat}`, v);
      const booking = await book(paying, v, { email }, { start: '2026-11-21T09:00:00Z', end: '2026-11-21T11:00:00Z' });
      await sender.drain();
      await payThroughStandIn(booking.paymentUrl);
      await sender.drain();
      const subjects = mailsTo(email).map((m) => m.parsed.subject ?? '');
      // The "pay here", the receipt, and the confirmation the payment made.
      expect(subjects).toHaveLength(3);
      const receipt = mailsTo(email).find((m) => /^(Receipt|Beleg) /.test(m.parsed.subject ?? ''))!;
      expect(receipt.parsed.subject).toBe(
        locale === 'de'
          ? `Beleg ${booking.reference}: Court 1 bei Sportpark Test`
          : `Receipt ${booking.reference}: Court 1 at Sportpark Test`,
      );
      const text = receipt.parsed.text ?? '';
      expect(text).toContain(amountLine);
      expect(text).toContain('Sportpark Test, Teststrasse 1, 10115 Berlin');
      expect(text).toContain(booking.reference);
      if (vatLine) expect(text).toContain(vatLine);
      else expect(text).not.toMatch(/VAT|MwSt/);
      expect(manageLinksOf(text, booking.id)).toHaveLength(1);
      expect(receipt.parsed.html).toContain(amountLine.split(': ')[1]);
      expect(subjects.some((s) => /^(Your booking is confirmed|Ihre Buchung ist bestätigt)/.test(s))).toBe(true);
    },
  );
});
