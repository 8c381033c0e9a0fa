import { Writable } from 'node:stream';
import pino from 'pino';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import ical from 'node-ical';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, requester, type Harness, type TestResponse } from './harness.js';
import { buildVenue } from './builders.js';
import { startSmsPeer, startSmtpPeer, type ReceivedMail, type SmsPeer, type SmtpPeer } from './peers/mail-peers.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { manageUrl } from '../src/modules/bookings/index.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import {
  NotificationSender,
  createMailer,
  createSmsClient,
  MAX_NOTIFICATION_ATTEMPTS,
} from '../src/modules/notifications/index.js';

// Guest notifications against real peers (docs/notifications.md): nodemailer talks SMTP to an
// smtp-server in this process, mailparser reads what arrived, node-ical the calendar part, jsQR the
// QR code; the SMS adapter talks HTTP to a local stand-in of Twilio's Messages API.

const SMTP_PASSWORD = 'smtp-pa55word-never-logged';
const SMS_TOKEN = 'sms-auth-token-never-logged';
const SMS_SID = 'AC0123456789abcdef';

let h: Harness;
let smtp: SmtpPeer;
let sms: SmsPeer;
let deps: AppDeps;
let app: App;
let request: ReturnType<typeof requester>;
let logged = '';

/**
 * A sender whose SMTP and SMS timeouts are `timeoutMs`: generous by default (a busy machine must not
 * turn a slow start into a failed attempt), short for the slow-server test.
 */
const newSender = (timeoutMs = 20_000) =>
  new NotificationSender({
    deps,
    mailer: createMailer(deps.env.mail!, { timeoutMs }),
    sms: createSmsClient(deps.env.sms!, { timeoutMs }),
    timeoutMs,
  });
let sender: NotificationSender;

beforeAll(async () => {
  h = await harness();
  smtp = await startSmtpPeer();
  sms = await startSmsPeer();
  const env = {
    ...h.deps.env,
    mail: {
      smtpUrl: `smtp://portier:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`,
      from: 'bookings@venue.example',
      timeoutMs: 20_000,
    },
    sms: { apiBase: sms.url, accountSid: SMS_SID, authToken: SMS_TOKEN, from: '+15550001111' },
  };
  const log = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logged += chunk.toString();
        done();
      },
    }),
  );
  deps = composeDeps({
    database: h.deps.database,
    env,
    secret: h.deps.secret,
    log,
    limits: h.deps.limits,
    now: h.clock.now,
    metrics: h.deps.metrics,
  });
  app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await app.fastify.ready();
  request = requester(app.fastify);
  sender = newSender();
}, 120_000);

afterAll(async () => {
  await app?.fastify.close();
  await smtp?.close();
  await sms?.close();
});

beforeEach(() => {
  h.clock.set('2026-11-20T09:00:00Z');
  smtp.mode = 'accept';
  sms.status = 201;
  sms.hang = false;
});
afterEach(() => h.clock.set(null));

// jsqr is CommonJS with a default export.
type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: DecodeQr }).default ?? jsQRModule) as DecodeQr;

const HOSTILE_NAME = `Ada <script>alert(1)</script> O'Brien & "Co"`;

async function venueWithBooking(
  options: {
    timeZone?: string;
    start?: string;
    end?: string;
    phone?: string | null;
    email?: string;
    guestName?: string;
  } = {},
) {
  const v = await buildVenue(h, { pricePerHour: 2400, timeZone: options.timeZone });
  const created = await request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: {
      objectId: v.object.id,
      guestName: options.guestName ?? HOSTILE_NAME,
      guestEmail: options.email ?? `guest-${v.tenantId.slice(0, 8)}@example.com`,
      guestPhone: options.phone === undefined ? '+49 (30) 1234-567' : options.phone,
      startTime: options.start ?? '2026-11-21T10:00:00Z',
      endTime: options.end ?? '2026-11-21T11:30:00Z',
    },
  });
  expect(created.status, created.text).toBe(201);
  const bookingId = created.body.booking.id as string;
  const url = `/api/v1/tenants/${v.tenantId}/bookings/${bookingId}`;
  return { ...v, bookingId, url, email: created.body.booking.guestEmail as string };
}

const gql = (apiKey: string, query: string, variables?: Record<string, unknown>): Promise<TestResponse> =>
  request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: { query, variables } });

const mailsTo = (email: string) =>
  smtp.mails.filter((m) => (m.parsed.to as { text: string } | undefined)?.text === email);
const smsTo = (phone: string, marker: string) =>
  sms.requests.filter((r) => r.form.get('To') === phone && (r.form.get('Body') ?? '').includes(marker));

async function credentialsOf(v: { tenantId: string; apiKey: string; bookingId: string }) {
  const res = await request({
    method: 'GET',
    url: `/api/v1/tenants/${v.tenantId}/bookings/${v.bookingId}/credentials`,
    apiKey: v.apiKey,
  });
  expect(res.status).toBe(200);
  return { token: res.body.qrCode.token as string, code: res.body.sms.code as string };
}

function calendarOf(mail: ReceivedMail) {
  const part = mail.parsed.attachments.find((a) => a.contentType === 'text/calendar');
  expect(part, 'a text/calendar part').toBeDefined();
  const text = part!.content.toString('utf8');
  const parsed = ical.sync.parseICS(text);
  const events = Object.values(parsed).filter((c): c is ical.VEvent => c?.type === 'VEVENT');
  expect(events).toHaveLength(1);
  return {
    text,
    event: events[0],
    method: /^METHOD:(\w+)/m.exec(text)?.[1],
    header: (part as unknown as { headers: Map<string, unknown> }).headers,
  };
}

function qrOf(mail: ReceivedMail): string {
  const image = mail.parsed.attachments.find((a) => a.contentType === 'image/png');
  expect(image, 'an inline PNG').toBeDefined();
  expect(image!.contentDisposition).toBe('inline');
  expect(mail.parsed.html).toContain(`cid:${image!.cid}`);
  const png = PNG.sync.read(image!.content);
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded, 'a readable QR code').not.toBeNull();
  return decoded!.data;
}

describe('a booking confirmed through REST', () => {
  it('mails the guest once: venue, object, local times with the zone, price, SMS code, the QR code inline and a calendar REQUEST; texts the code once', async () => {
    const v = await venueWithBooking();
    const confirmed = await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    expect(confirmed.status).toBe(200);
    expect(await sender.drain()).toMatchObject({ sent: 2, failed: 0 });
    expect(await sender.drain()).toMatchObject({ attempted: 0 });

    const [mail, ...more] = mailsTo(v.email);
    expect(more).toHaveLength(0);
    const creds = await credentialsOf(v);
    const p = mail.parsed;
    expect(p.subject).toBe(
      'Your booking is confirmed: Court 1 at Sportpark Test, Sat 21 Nov 2026, 11:00–12:30 (Europe/Berlin)',
    );
    expect(p.from?.value[0]).toMatchObject({ name: 'Sportpark Test', address: 'bookings@venue.example' });
    expect(p.messageId).toMatch(/^<notification-[0-9a-f-]+\.0@venue\.example>$/);
    expect(mail.auth).toEqual({ username: 'portier', password: SMTP_PASSWORD });
    for (const part of [p.text ?? '', p.html || '']) {
      expect(part).toContain('Sportpark Test');
      expect(part).toContain('Teststrasse 1, 10115 Berlin');
      expect(part).toContain('Court 1');
      expect(part).toContain('Sat 21 Nov 2026, 11:00–12:30 (Europe/Berlin)');
      expect(part).toContain('€36.00');
      expect(part).toContain(creds.code);
    }
    // Guest text is escaped in HTML; nothing remote is loaded.
    expect(p.html).toContain('Ada &lt;script&gt;alert(1)&lt;/script&gt; O&#39;Brien &amp; &quot;Co&quot;');
    expect(p.html).not.toContain('<script>');
    expect(p.html).not.toMatch(/src=["']?https?:/i);
    expect(qrOf(mail)).toBe(creds.token);

    const cal = calendarOf(mail);
    expect(cal.method).toBe('REQUEST');
    expect(mail.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
    expect(cal.event.uid).toBe(`booking-${v.bookingId}@venue.example`);
    expect(new Date(cal.event.start as Date).toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(new Date(cal.event.end as Date).toISOString()).toBe('2026-11-21T11:30:00.000Z');
    expect(cal.text).toMatch(/^DTSTART:20261121T100000Z$/m);
    expect(cal.text).toMatch(/^SEQUENCE:\d+$/m);
    expect(cal.event.location).toEqual(expect.stringContaining('Sportpark Test, Teststrasse 1'));
    expect(cal.text).toMatch(/^ORGANIZER;CN="?Sportpark Test"?:mailto:bookings@venue\.example$/m);

    const texts = sms.requests.filter((r) => r.form.get('To') === '+49301234567');
    expect(texts).toHaveLength(1);
    const [text] = texts;
    expect(text.path).toBe(`/2010-04-01/Accounts/${SMS_SID}/Messages.json`);
    expect(text.contentType).toBe('application/x-www-form-urlencoded');
    expect(text.authorization).toBe(`Basic ${Buffer.from(`${SMS_SID}:${SMS_TOKEN}`).toString('base64')}`);
    expect(text.form.get('From')).toBe('+15550001111');
    expect(text.form.get('Body')).toContain(creds.code);
    expect(text.form.get('Body')).toContain('Sat 21 Nov 11:00-12:30');

    // The log on the booking.
    const log = await gql(
      v.apiKey,
      `query($id: ID!) { booking(id: $id) { notifications { channel kind status attempts lastError sentAt recipient } } }`,
      { id: v.bookingId },
    );
    expect(log.body.data.booking.notifications).toEqual([
      expect.objectContaining({
        channel: 'EMAIL',
        kind: 'CONFIRMED',
        status: 'SENT',
        attempts: 1,
        lastError: null,
        recipient: v.email,
      }),
      expect.objectContaining({
        channel: 'SMS',
        kind: 'CONFIRMED',
        status: 'SENT',
        attempts: 1,
        lastError: null,
        recipient: '+49301234567',
      }),
    ]);
  });

  it('#42: a DQUOTE in the guest name does not rewrite the invitation’s ATTENDEE (no escape exists in a parameter value)', async () => {
    const v = await venueWithBooking({ guestName: 'Mallory";ROLE=CHAIR;RSVP=TRUE;CN="Boss\\' });
    const confirmed = await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    expect(confirmed.status).toBe(200);
    expect(await sender.drain()).toMatchObject({ sent: 2, failed: 0 });
    const { text, event } = calendarOf(mailsTo(v.email)[0]);
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    const line = unfolded.split('\r\n').find((l) => l.startsWith('ATTENDEE'));
    expect(line).toBe(`ATTENDEE;ROLE=REQ-PARTICIPANT;CN="Mallory',ROLE=CHAIR,RSVP=TRUE,CN='Boss/":MAILTO:${v.email}`);
    const attendee = event.attendee as unknown as { params: Record<string, string>; val: string };
    expect(attendee.params).toEqual({ ROLE: 'REQ-PARTICIPANT', CN: "Mallory',ROLE=CHAIR,RSVP=TRUE,CN='Boss/" });
    expect(attendee.val.toLowerCase()).toBe(`mailto:${v.email}`);
  });

  it('rescheduled (GraphQL): the new times, a new QR code the old one is not, the same UID with a higher SEQUENCE; cancelled: the refund and CANCEL for that UID', async () => {
    const v = await venueWithBooking();
    const before = await gql(
      v.apiKey,
      `mutation($id: ID!) { updateBookingStatus(bookingId: $id, status: CONFIRMED) { booking { status } } }`,
      { id: v.bookingId },
    );
    expect(before.body.errors).toBeUndefined();
    await sender.drain();
    const oldCreds = await credentialsOf(v);
    const moved = await gql(
      v.apiKey,
      `mutation($id: ID!) { rescheduleBooking(bookingId: $id, startTime: "2026-11-22T14:00:00Z", endTime: "2026-11-22T15:00:00Z") { booking { id } } }`,
      {
        id: v.bookingId,
      },
    );
    expect(moved.body.errors).toBeUndefined();
    await sender.drain();
    const newCreds = await credentialsOf(v);
    expect(newCreds.token).not.toBe(oldCreds.token);

    const [confirmed, rescheduled, ...rest] = mailsTo(v.email);
    expect(rest).toHaveLength(0);
    expect(rescheduled.parsed.subject).toContain('Your booking has moved');
    expect(rescheduled.parsed.text).toContain('Sun 22 Nov 2026, 15:00–16:00 (Europe/Berlin)');
    expect(qrOf(rescheduled)).toBe(newCreds.token);
    const a = calendarOf(confirmed);
    const b = calendarOf(rescheduled);
    expect(b.method).toBe('REQUEST');
    expect(b.event.uid).toBe(a.event.uid);
    expect(Number(/^SEQUENCE:(\d+)/m.exec(b.text)![1])).toBeGreaterThan(Number(/^SEQUENCE:(\d+)/m.exec(a.text)![1]));
    expect(new Date(b.event.start as Date).toISOString()).toBe('2026-11-22T14:00:00.000Z');
    const movedTexts = smsTo('+49301234567', ' moved to ');
    expect(movedTexts).toHaveLength(1);
    // #25: the reschedule text carries the code and the new local time.
    expect(movedTexts[0].form.get('Body')).toContain(newCreds.code);
    expect(movedTexts[0].form.get('Body')).toContain('Sun 22 Nov 15:00-16:00');

    const cancelled = await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect(cancelled.status).toBe(200);
    await sender.drain();
    const all = mailsTo(v.email);
    expect(all).toHaveLength(3);
    const cancel = all[2];
    expect(cancel.parsed.subject).toContain('Your booking is cancelled');
    expect(cancel.parsed.text).toContain(`Refund: €${(cancelled.body.refundAmount / 100).toFixed(2)}`);
    expect(cancel.parsed.attachments.some((x) => x.contentType === 'image/png')).toBe(false);
    const c = calendarOf(cancel);
    expect(c.method).toBe('CANCEL');
    expect(cancel.raw).toMatch(/method=CANCEL/i);
    expect(c.event.uid).toBe(a.event.uid);
    expect(Number(/^SEQUENCE:(\d+)/m.exec(c.text)![1])).toBeGreaterThan(Number(/^SEQUENCE:(\d+)/m.exec(b.text)![1]));
    expect(c.text).toMatch(/^STATUS:CANCELLED$/m);
    // No text message on cancellation.
    expect(
      sms.requests.filter((r) => r.form.get('To') === '+49301234567' && /cancel/i.test(r.form.get('Body') ?? '')),
    ).toHaveLength(0);
  });

  it('confirmed through GraphQL: exactly one mail and one SMS; without a phone, only the mail', async () => {
    const v = await venueWithBooking({ phone: '+44 20 7946 0958' });
    const res = await gql(
      v.apiKey,
      `mutation($id: ID!) { updateBookingStatus(bookingId: $id, status: CONFIRMED) { booking { status } } }`,
      { id: v.bookingId },
    );
    expect(res.body.errors).toBeUndefined();
    await sender.drain();
    expect(mailsTo(v.email)).toHaveLength(1);
    expect(sms.requests.filter((r) => r.form.get('To') === '+442079460958')).toHaveLength(1);

    const w = await venueWithBooking({ phone: null });
    await request({ method: 'PATCH', url: w.url, apiKey: w.apiKey, body: { status: 'CONFIRMED' } });
    await sender.drain();
    expect(mailsTo(w.email)).toHaveLength(1);
    const log = await gql(w.apiKey, `query($id: ID!) { booking(id: $id) { notifications { channel } } }`, {
      id: w.bookingId,
    });
    expect(log.body.data.booking.notifications).toEqual([{ channel: 'EMAIL' }]);
  });

  it('a change that does not commit queues nothing; a refused transition queues nothing', async () => {
    const v = await venueWithBooking();
    const { updateBookingStatus } = await import('../src/modules/bookings/index.js');
    await expect(
      deps.database.db.transaction().execute(async (trx) => {
        await updateBookingStatus(trx, deps, v.tenantId, v.bookingId, { status: 'CONFIRMED' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const refused = await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'COMPLETED' } });
    expect(refused.status).toBe(409);
    const rows = await deps.database.db
      .selectFrom('notifications')
      .select('id')
      .where('booking_id', '=', v.bookingId)
      .execute();
    expect(rows).toEqual([]);
    await sender.drain();
    expect(mailsTo(v.email)).toHaveLength(0);
  });

  it('#25: two guests’ bookings confirmed: each guest’s mail and SMS carry only their own booking’s name, code and QR token, never the other’s', async () => {
    const v = await buildVenue(h, { pricePerHour: 2400 });
    const tag = v.tenantId.slice(0, 8);
    const guests = [
      { name: 'Ada Lovelace', email: `ada-${tag}@example.com`, phone: '+49 30 1111111', e164: '+49301111111' },
      { name: 'Grace Hopper', email: `grace-${tag}@example.com`, phone: '+49 30 2222222', e164: '+49302222222' },
    ];
    const bookings = [];
    for (const [i, guest] of guests.entries()) {
      const created = await request({
        method: 'POST',
        url: `/api/v1/tenants/${v.tenantId}/bookings`,
        apiKey: v.apiKey,
        body: {
          objectId: v.object.id,
          guestName: guest.name,
          guestEmail: guest.email,
          guestPhone: guest.phone,
          startTime: `2026-11-21T1${2 * i}:00:00Z`,
          endTime: `2026-11-21T1${2 * i + 1}:00:00Z`,
        },
      });
      expect(created.status, created.text).toBe(201);
      bookings.push({ ...guest, bookingId: created.body.booking.id as string, tenantId: v.tenantId, apiKey: v.apiKey });
    }
    // Both confirmed, then sent in one pass of one sender (the case most likely to mix them up).
    for (const b of bookings) {
      const res = await request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${b.bookingId}`,
        apiKey: v.apiKey,
        body: { status: 'CONFIRMED' },
      });
      expect(res.status).toBe(200);
    }
    expect(await sender.drain()).toMatchObject({ sent: 4, failed: 0 });
    const creds = await Promise.all(bookings.map((b) => credentialsOf(b)));
    expect(creds[0].token).not.toBe(creds[1].token);
    expect(creds[0].code, 'the two SMS codes differ (else the check below proves nothing)').not.toBe(creds[1].code);

    for (const [i, own] of bookings.entries()) {
      const other = bookings[1 - i];
      const otherCreds = creds[1 - i];
      const mails = smtp.mails.filter((m) => m.raw.includes(own.email));
      expect(mails, own.email).toHaveLength(1);
      const [mail] = mails;
      // Addressed to this guest alone: no other recipient, no copy.
      expect(mail.parsed.to && 'value' in mail.parsed.to ? mail.parsed.to.value.map((a) => a.address) : []).toEqual([
        own.email,
      ]);
      expect(mail.parsed.cc).toBeUndefined();
      expect(mail.parsed.bcc).toBeUndefined();
      const cal = calendarOf(mail);
      const everything = [
        mail.parsed.subject ?? '',
        mail.parsed.text ?? '',
        mail.parsed.html || '',
        cal.text,
        [...mail.parsed.headers.values()].map((value) => JSON.stringify(value)).join('\n'),
      ].join('\n');
      // Its own booking's data …
      expect(mail.parsed.text).toContain(own.name);
      expect(mail.parsed.text).toContain(creds[i].code);
      expect(qrOf(mail)).toBe(creds[i].token);
      expect(cal.event.uid).toBe(`booking-${own.bookingId}@venue.example`);
      // … and nothing of the other guest's.
      for (const secret of [other.name, other.email, other.e164, other.bookingId, otherCreds.code, otherCreds.token])
        expect(everything, `${own.email}'s mail shows ${secret}`).not.toContain(secret);
      const images = mail.parsed.attachments.filter((a) => a.contentType === 'image/png');
      expect(images).toHaveLength(1);

      const texts = sms.requests.filter((r) => r.form.get('To') === own.e164);
      expect(texts, own.e164).toHaveLength(1);
      const body = texts[0].form.get('Body') ?? '';
      expect(body).toContain(creds[i].code);
      expect(body).toContain(`Sat 21 Nov ${11 + 2 * i}:00-${12 + 2 * i}:00`);
      for (const secret of [other.name, other.e164, otherCreds.code, otherCreds.token])
        expect(body, `${own.e164}'s text shows ${secret}`).not.toContain(secret);
    }
  });

  it('#25, #41: the confirmation mail’s HTML links only to the guest’s manage link, whatever the guest typed', async () => {
    const v = await buildVenue(h, { pricePerHour: 2400 });
    const email = `links-${v.tenantId.slice(0, 8)}@example.com`;
    const created = await request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: `Eve <a href="https://evil.example/phish">log in</a> https://evil.example/x`,
        guestEmail: email,
        startTime: '2026-11-21T10:00:00Z',
        endTime: '2026-11-21T11:00:00Z',
      },
    });
    expect(created.status, created.text).toBe(201);
    const paymentUrl = created.body.booking.paymentUrl as string;
    const url = `/api/v1/tenants/${v.tenantId}/bookings/${created.body.booking.id}`;
    await request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    await request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    await sender.drain();
    const mails = mailsTo(email);
    // Queued at one clock time, so sent in one pass in any order.
    expect(mails.map((m) => m.parsed.subject?.split(':')[0]).sort()).toEqual([
      'Your booking is cancelled',
      'Your booking is confirmed',
    ]);
    // #41: the guest's manage link is the one link of these mails (the payment page only in a "pay here";
    // the venue's own site is not a field Portier has).
    const manage = manageUrl(h.deps.env.publicUrl, h.deps.secret, created.body.booking.id as string, 1);
    const allowed = new Set([paymentUrl, manage]);
    for (const mail of mails) {
      const html = mail.parsed.html || '';
      expect(html.length).toBeGreaterThan(0);
      // Guest and venue text is escaped, so every "<" left starts a real tag: read the attributes of those.
      const tags = [...html.matchAll(/<([a-zA-Z][\w-]*)\b[^>]*>/g)];
      const attribute = (name: string) =>
        tags.flatMap((tag) =>
          [...tag[0].matchAll(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'gi'))].map(
            (m) => m[1] ?? m[2] ?? m[3],
          ),
        );
      expect(attribute('href').filter((href) => !allowed.has(href))).toEqual([]);
      expect(attribute('href')).toEqual([manage]);
      expect(tags.filter((t) => t[1].toLowerCase() === 'a')).toHaveLength(1);
      for (const tag of ['link', 'base', 'form', 'iframe', 'object', 'embed', 'script', 'area'])
        expect(tags.map((t) => t[1].toLowerCase())).not.toContain(tag);
      for (const name of ['src', 'background', 'action', 'formaction', 'srcset', 'poster'])
        expect(
          attribute(name).filter((value) => !value.startsWith('cid:')),
          name,
        ).toEqual([]);
      expect(html).not.toMatch(/url\s*\(/i);
      // (The reading finds attributes: the confirmation's one image is the inline QR code.)
      if (mail.parsed.subject?.startsWith('Your booking is confirmed'))
        expect(attribute('src')).toEqual([expect.stringMatching(/^cid:/)]);
      // The guest's own words are shown as text, escaped: they make no link.
      expect(html).toContain('Eve &lt;a href=&quot;https://evil.example/phish&quot;&gt;log in&lt;/a&gt;');
    }
  });

  it('refuses a guestPhone that is not E.164 at booking', async () => {
    const v = await buildVenue(h);
    const res = await request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'A',
        guestEmail: 'a@example.com',
        guestPhone: '030 1234567',
        startTime: '2026-11-21T10:00:00Z',
        endTime: '2026-11-21T11:00:00Z',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'guestPhone', message: 'must be a phone number in international (E.164) form such as +49 30 1234567' },
    ]);
  });
});

describe('delivery faults', () => {
  it.each([
    ['refuses with 554', 'reject', /SMTP 554/],
    ['defers with 451, a 4xx (#25)', 'defer', /SMTP 451/],
    ['drops the connection', 'drop', /./],
    ['never answers (slow)', 'slow', /./],
  ] as const)(
    'the SMTP server %s: the mail is retried with backoff and sent once when the server takes it',
    async (_, mode, error) => {
      const v = await venueWithBooking({ phone: null });
      smtp.mode = mode;
      await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
      // A server that never answers is given up on after the timeout (2 s here).
      expect(await (mode === 'slow' ? newSender(2000) : sender).runOnce()).toMatchObject({ attempted: 1, sent: 0 });
      const [row] = await deps.database.db
        .selectFrom('notifications')
        .selectAll()
        .where('booking_id', '=', v.bookingId)
        .execute();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toMatch(error);
      expect(row.last_error).not.toContain(SMTP_PASSWORD);
      expect(row.next_attempt_at!.getTime() - h.clock.now().getTime()).toBeGreaterThanOrEqual(10_000);
      // Not due yet: nothing is tried.
      expect(await sender.runOnce()).toMatchObject({ attempted: 0 });
      smtp.mode = 'accept';
      h.clock.set(new Date(h.clock.now().getTime() + 10_000));
      expect(await sender.drain()).toMatchObject({ sent: 1 });
      expect(mailsTo(v.email)).toHaveLength(1);
      const [after] = await deps.database.db
        .selectFrom('notifications')
        .selectAll()
        .where('booking_id', '=', v.bookingId)
        .execute();
      expect(after).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    },
    60_000,
  );

  it.each([
    ['answers 429 (a 4xx)', { status: 429 }, /^SMS provider answered 429/, '+49 30 5550429'],
    ['answers 400 (a 4xx)', { status: 400 }, /^SMS provider answered 400/, '+49 30 5550400'],
    ['never answers (a timeout)', { hang: true }, /^SMS provider did not answer within 2000 ms$/, '+49 30 5550000'],
  ] as const)(
    '#25: the SMS provider %s: the text is retried with backoff and sent once when the provider takes it',
    async (_, fault, error, phone) => {
      const to = phone.replace(/\s/g, '');
      const v = await venueWithBooking({ phone });
      Object.assign(sms, fault);
      await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
      // The mail goes; the text does not.
      expect(await newSender(2000).runOnce()).toMatchObject({ attempted: 2, sent: 1 });
      const smsRow = () =>
        deps.database.db
          .selectFrom('notifications')
          .selectAll()
          .where('booking_id', '=', v.bookingId)
          .where('channel', '=', 'sms')
          .executeTakeFirstOrThrow();
      const row = await smsRow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toMatch(error);
      expect(row.last_error).not.toContain(SMS_TOKEN);
      expect(row.next_attempt_at!.getTime() - h.clock.now().getTime()).toBe(10_000);
      expect(sms.requests.filter((r) => r.form.get('To') === to)).toHaveLength(0);
      // Not due yet: nothing is tried.
      expect(await sender.runOnce()).toMatchObject({ attempted: 0 });
      sms.status = 201;
      sms.hang = false;
      h.clock.set(new Date(h.clock.now().getTime() + 10_000));
      expect(await sender.drain()).toMatchObject({ attempted: 1, sent: 1 });
      expect(await sender.drain()).toMatchObject({ attempted: 0 });
      expect(sms.requests.filter((r) => r.form.get('To') === to)).toHaveLength(1);
      expect(mailsTo(v.email)).toHaveLength(1);
      expect(await smsRow()).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    },
    60_000,
  );

  it(`gives up after ${MAX_NOTIFICATION_ATTEMPTS} attempts; resendNotification queues it again and it is sent`, async () => {
    const v = await venueWithBooking({ phone: '+49 30 7654321' });
    sms.status = 503;
    smtp.mode = 'reject';
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    for (let i = 0; i < MAX_NOTIFICATION_ATTEMPTS; i += 1) {
      await sender.drain();
      h.clock.set(new Date(h.clock.now().getTime() + 7 * 3600_000));
    }
    expect(await sender.drain()).toMatchObject({ attempted: 0 });
    const log = await gql(
      v.apiKey,
      `query($id: ID!) { booking(id: $id) { notifications { id channel status attempts lastError sentAt } } }`,
      { id: v.bookingId },
    );
    const rows = log.body.data.booking.notifications as {
      id: string;
      channel: string;
      status: string;
      attempts: number;
      lastError: string;
    }[];
    expect(rows.map((r) => [r.channel, r.status, r.attempts])).toEqual([
      ['EMAIL', 'FAILED', MAX_NOTIFICATION_ATTEMPTS],
      ['SMS', 'FAILED', MAX_NOTIFICATION_ATTEMPTS],
    ]);
    expect(rows[1].lastError).toBe('SMS provider answered 503: Authenticate');
    expect(JSON.stringify(rows) + logged).not.toContain(SMS_TOKEN);
    expect(logged).not.toContain(SMTP_PASSWORD);
    expect(logged).toContain('notification not sent');

    smtp.mode = 'accept';
    sms.status = 201;
    const staff = await h.key(v.tenantId, ['bookings:read']);
    const forbidden = await gql(staff, `mutation($id: ID!) { resendNotification(id: $id) { status } }`, {
      id: rows[0].id,
    });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const row of rows) {
      const resent = await gql(v.apiKey, `mutation($id: ID!) { resendNotification(id: $id) { status attempts } }`, {
        id: row.id,
      });
      expect(resent.body.data.resendNotification).toEqual({ status: 'PENDING', attempts: 0 });
    }
    const again = await gql(v.apiKey, `mutation($id: ID!) { resendNotification(id: $id) { status } }`, {
      id: rows[0].id,
    });
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(await sender.drain()).toMatchObject({ sent: 2 });
    const [mail] = mailsTo(v.email);
    expect(mail.parsed.messageId).toMatch(/\.1@venue\.example>$/);
  }, 60_000);

  it('two senders draining at once send every notification once (SKIP LOCKED)', async () => {
    const v = await buildVenue(h, { pricePerHour: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await request({
        method: 'POST',
        url: `/api/v1/tenants/${v.tenantId}/bookings`,
        apiKey: v.apiKey,
        body: {
          objectId: v.object.id,
          guestName: 'G',
          guestEmail: `twin-${i}-${v.tenantId.slice(0, 8)}@example.com`,
          startTime: `2026-11-21T${String(7 + i).padStart(2, '0')}:00:00Z`,
          endTime: `2026-11-21T${String(8 + i).padStart(2, '0')}:00:00Z`,
        },
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.booking.id);
      await request({
        method: 'PATCH',
        url: `/api/v1/tenants/${v.tenantId}/bookings/${res.body.booking.id}`,
        apiKey: v.apiKey,
        body: { status: 'CONFIRMED' },
      });
    }
    const other = newSender();
    const [a, b] = await Promise.all([sender.drain(), other.drain()]);
    expect(a.sent + b.sent).toBe(12);
    for (let i = 0; i < 12; i += 1) expect(mailsTo(`twin-${i}-${v.tenantId.slice(0, 8)}@example.com`)).toHaveLength(1);
  }, 60_000);
});

describe('notification settings', () => {
  const SETTINGS = 'emailEnabled smsEnabled senderName replyTo reminderHoursBefore emailAvailable smsAvailable';

  it('defaults, updates (admin only), and refuses header injection', async () => {
    const v = await buildVenue(h);
    const initial = await gql(v.apiKey, `{ notificationSettings { ${SETTINGS} } }`);
    expect(initial.body.data.notificationSettings).toEqual({
      emailEnabled: true,
      smsEnabled: true,
      senderName: null,
      replyTo: null,
      reminderHoursBefore: null,
      emailAvailable: true,
      smsAvailable: true,
    });
    const staff = await h.key(v.tenantId, ['bookings:read', 'bookings:write']);
    const refused = await gql(staff, `{ notificationSettings { emailEnabled } }`);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');

    for (const [input, field] of [
      [{ senderName: 'Court\r\nBcc: victim@example.com' }, 'senderName'],
      [{ replyTo: 'desk@example.com\r\nBcc: victim@example.com' }, 'replyTo'],
      [{ replyTo: 'a@example.com, b@example.com' }, 'replyTo'],
      [{ reminderHoursBefore: 0 }, 'reminderHoursBefore'],
      [{ reminderHoursBefore: 10_000 }, 'reminderHoursBefore'],
    ] as const) {
      const res = await gql(
        v.apiKey,
        `mutation($input: UpdateNotificationSettingsInput!) { updateNotificationSettings(input: $input) { senderName } }`,
        { input },
      );
      expect(res.body.errors?.[0].extensions.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(res.body.errors[0].extensions)).toContain(field);
    }
    const updated = await gql(
      v.apiKey,
      `mutation($input: UpdateNotificationSettingsInput!) { updateNotificationSettings(input: $input) { ${SETTINGS} } }`,
      {
        input: {
          senderName: 'Sportpark Desk',
          replyTo: 'desk@sportpark.example',
          reminderHoursBefore: 24,
          smsEnabled: false,
        },
      },
    );
    expect(updated.body.data.updateNotificationSettings).toMatchObject({
      senderName: 'Sportpark Desk',
      replyTo: 'desk@sportpark.example',
      reminderHoursBefore: 24,
      smsEnabled: false,
      emailEnabled: true,
    });
    const partial = await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { emailEnabled: false }) { ${SETTINGS} } }`,
    );
    expect(partial.body.data.updateNotificationSettings).toMatchObject({
      senderName: 'Sportpark Desk',
      emailEnabled: false,
      reminderHoursBefore: 24,
    });
  });

  it('sender name and reply-to reach the mail; a tenant with email and SMS off sends nothing', async () => {
    const v = await venueWithBooking();
    await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { senderName: "Sportpark Desk", replyTo: "desk@sportpark.example" }) { senderName } }`,
    );
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    await sender.drain();
    const [mail] = mailsTo(v.email);
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Sportpark Desk', address: 'bookings@venue.example' });
    expect(mail.parsed.replyTo?.value[0].address).toBe('desk@sportpark.example');

    const w = await venueWithBooking();
    await gql(
      w.apiKey,
      `mutation { updateNotificationSettings(input: { emailEnabled: false, smsEnabled: false }) { emailEnabled } }`,
    );
    await request({ method: 'PATCH', url: w.url, apiKey: w.apiKey, body: { status: 'CONFIRMED' } });
    expect(
      await deps.database.db.selectFrom('notifications').select('id').where('booking_id', '=', w.bookingId).execute(),
    ).toEqual([]);
  });

  it('the test email goes out now with the sender name; an SMTP refusal is reported without the password', async () => {
    const v = await buildVenue(h);
    await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { senderName: "Sportpark Desk" }) { senderName } }`,
    );
    const to = `admin-${v.tenantId.slice(0, 8)}@example.com`;
    const ok = await gql(v.apiKey, `mutation($to: String!) { sendTestNotificationEmail(to: $to) { success error } }`, {
      to,
    });
    expect(ok.body.data.sendTestNotificationEmail).toEqual({ success: true, error: null });
    expect(mailsTo(to)[0].parsed.subject).toBe('Test mail from Sportpark Desk');
    smtp.mode = 'reject';
    const failed = await gql(
      v.apiKey,
      `mutation($to: String!) { sendTestNotificationEmail(to: $to) { success error } }`,
      { to },
    );
    expect(failed.body.data.sendTestNotificationEmail.success).toBe(false);
    expect(failed.body.data.sendTestNotificationEmail.error).toMatch(/^SMTP 554/);
    expect(failed.text).not.toContain(SMTP_PASSWORD);
    const bad = await gql(
      v.apiKey,
      `mutation { sendTestNotificationEmail(to: "x@y.z\\r\\nBcc: v@example.com") { success } }`,
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('the reminder', () => {
  it('is sent once, at the same local time the day before, across the change to summer time', async () => {
    // Europe/Berlin moves to CEST on Sunday 28 March 2027 at 02:00. A booking at 10:00 CEST that
    // Sunday with a 24-hour reminder: the reminder is due at 10:00 CET on Saturday (09:00Z), 23
    // elapsed hours before.
    h.clock.set('2027-03-20T09:00:00Z');
    const v = await venueWithBooking({ start: '2027-03-28T08:00:00Z', end: '2027-03-28T09:00:00Z', phone: null });
    await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { reminderHoursBefore: 24 }) { reminderHoursBefore } }`,
    );
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    await sender.drain();
    expect(mailsTo(v.email)).toHaveLength(1);
    h.clock.set('2027-03-27T08:59:59Z');
    expect(await sender.drain()).toMatchObject({ attempted: 0 });
    h.clock.set('2027-03-27T09:00:00Z');
    expect(await sender.drain()).toMatchObject({ sent: 1 });
    h.clock.set('2027-03-28T07:00:00Z');
    expect(await sender.drain()).toMatchObject({ attempted: 0 });
    const mails = mailsTo(v.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].parsed.subject).toBe(
      'Reminder: your booking is coming up: Court 1 at Sportpark Test, Sun 28 Mar 2027, 10:00–11:00 (Europe/Berlin)',
    );
    expect(qrOf(mails[1])).toBe((await credentialsOf(v)).token);
  });

  it('is sent once, at the same local time the day before, across the change back to winter time', async () => {
    // Europe/Berlin moves back to CET on Sunday 31 October 2027 at 03:00. A booking at 10:00 CET that
    // Sunday (09:00Z) with a 24-hour reminder: the reminder is due at 10:00 CEST on Saturday (08:00Z),
    // 25 elapsed hours before — not at 09:00Z, which is 11:00 local.
    h.clock.set('2027-10-25T09:00:00Z');
    const v = await venueWithBooking({ start: '2027-10-31T09:00:00Z', end: '2027-10-31T10:00:00Z', phone: null });
    await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { reminderHoursBefore: 24 }) { reminderHoursBefore } }`,
    );
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    await sender.drain();
    expect(mailsTo(v.email)).toHaveLength(1);
    h.clock.set('2027-10-30T07:59:59Z');
    expect(await sender.drain()).toMatchObject({ attempted: 0 });
    h.clock.set('2027-10-30T08:00:00Z');
    expect(await sender.drain()).toMatchObject({ sent: 1 });
    for (const later of ['2027-10-30T09:00:00Z', '2027-10-31T08:59:00Z']) {
      h.clock.set(later);
      expect(await sender.drain()).toMatchObject({ attempted: 0 });
    }
    const mails = mailsTo(v.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].parsed.subject).toBe(
      'Reminder: your booking is coming up: Court 1 at Sportpark Test, Sun 31 Oct 2027, 10:00–11:00 (Europe/Berlin)',
    );
    // The reminder carries the key, not another invitation (the calendar entry came with the confirmation).
    expect(mails[1].parsed.attachments.some((a) => a.contentType === 'text/calendar')).toBe(false);
    expect(qrOf(mails[1])).toBe((await credentialsOf(v)).token);
  });

  it('follows a reschedule and is dropped by a cancellation', async () => {
    h.clock.set('2026-11-20T09:00:00Z');
    const v = await venueWithBooking({ start: '2026-11-25T10:00:00Z', end: '2026-11-25T11:00:00Z', phone: null });
    await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { reminderHoursBefore: 2 }) { reminderHoursBefore } }`,
    );
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    await request({
      method: 'PATCH',
      url: v.url,
      apiKey: v.apiKey,
      body: { startTime: '2026-11-26T10:00:00Z', endTime: '2026-11-26T11:00:00Z' },
    });
    const reminders = () =>
      deps.database.db
        .selectFrom('notifications')
        .select(['status', 'next_attempt_at'])
        .where('booking_id', '=', v.bookingId)
        .where('kind', '=', 'reminder')
        .orderBy('created_at')
        .orderBy('sequence')
        .execute();
    expect((await reminders()).map((r) => [r.status, r.next_attempt_at?.toISOString() ?? null])).toEqual([
      ['cancelled', null],
      ['pending', '2026-11-26T08:00:00.000Z'],
    ]);
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect((await reminders()).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    h.clock.set('2026-11-26T09:00:00Z');
    await sender.drain();
    // Queued at one clock time, so sent in one pass in any order; no reminder among them.
    expect(
      mailsTo(v.email)
        .map((m) => m.parsed.subject?.split(':')[0])
        .sort(),
    ).toEqual(['Your booking has moved', 'Your booking is cancelled', 'Your booking is confirmed']);
  });
});

describe('#42: audits and the test-mail limit', () => {
  const auditOf = async (apiKey: string) => {
    const res = await gql(
      apiKey,
      '{ auditLog(first: 50) { edges { node { action targetType targetId details actor { type label } } } } }',
    );
    expect(res.body.errors, res.text).toBeUndefined();
    return (
      res.body.data.auditLog.edges as {
        node: {
          action: string;
          targetType: string;
          targetId: string;
          details: Record<string, unknown>;
          actor: { type: string; label: string };
        };
      }[]
    ).map((e) => e.node);
  };

  it('updateNotificationSettings and resendNotification are recorded in the audit log, with who, before and after', async () => {
    const v = await venueWithBooking();
    const updated = await gql(
      v.apiKey,
      `mutation { updateNotificationSettings(input: { senderName: "Front Desk", smsEnabled: false }) { senderName } }`,
    );
    expect(updated.body.errors, updated.text).toBeUndefined();
    await request({ method: 'PATCH', url: v.url, apiKey: v.apiKey, body: { status: 'CONFIRMED' } });
    expect(await sender.drain()).toMatchObject({ sent: 1 });
    const log = await gql(v.apiKey, `query($id: ID!) { booking(id: $id) { notifications { id } } }`, {
      id: v.bookingId,
    });
    const id = log.body.data.booking.notifications[0].id as string;
    const resent = await gql(v.apiKey, `mutation($id: ID!) { resendNotification(id: $id) { status } }`, { id });
    expect(resent.body.data.resendNotification.status).toBe('PENDING');

    const entries = await auditOf(v.apiKey);
    const settings = entries.find((e) => e.action === 'notification_settings.updated');
    expect(settings).toMatchObject({
      targetType: 'tenant',
      targetId: v.tenantId,
      actor: { type: 'apiKey' },
      details: {
        before: { senderName: null, smsEnabled: true, emailEnabled: true },
        after: { senderName: 'Front Desk', smsEnabled: false, emailEnabled: true },
      },
    });
    const resend = entries.find((e) => e.action === 'notification.resent');
    expect(resend).toMatchObject({
      targetType: 'notification',
      targetId: id,
      actor: { type: 'apiKey' },
      details: { bookingId: v.bookingId, channel: 'email', recipient: v.email, previousStatus: 'sent' },
    });
    // A refused resend (still pending) records nothing.
    const refused = await gql(v.apiKey, `mutation($id: ID!) { resendNotification(id: $id) { status } }`, { id });
    expect(refused.body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await auditOf(v.apiKey)).filter((e) => e.action === 'notification.resent')).toHaveLength(1);
  });

  it('sendTestNotificationEmail: 5 an hour per tenant (then RATE_LIMITED, nothing sent), each audited with its recipient; another tenant has its own', async () => {
    const v = await buildVenue(h);
    const other = await buildVenue(h);
    const to = (i: number) => `probe-${i}-${v.tenantId.slice(0, 8)}@elsewhere.example`;
    const send = (apiKey: string, address: string) =>
      gql(apiKey, `mutation($to: String!) { sendTestNotificationEmail(to: $to) { success error } }`, { to: address });
    for (let i = 0; i < 5; i += 1) {
      const ok = await send(v.apiKey, to(i));
      expect(ok.body.data?.sendTestNotificationEmail, ok.text).toEqual({ success: true, error: null });
    }
    const limited = await send(v.apiKey, to(5));
    expect(limited.body.errors?.[0].extensions.code, limited.text).toBe('RATE_LIMITED');
    expect(mailsTo(to(5))).toHaveLength(0);
    expect([0, 1, 2, 3, 4].map((i) => mailsTo(to(i)).length)).toEqual([1, 1, 1, 1, 1]);
    const entries = (await auditOf(v.apiKey)).filter((e) => e.action === 'notification.test_email_sent');
    expect(entries.map((e) => e.details.to).sort()).toEqual([0, 1, 2, 3, 4].map(to).sort());
    expect(entries[0]).toMatchObject({ targetType: 'tenant', targetId: v.tenantId, actor: { type: 'apiKey' } });

    const elsewhere = await send(other.apiKey, `desk-${other.tenantId.slice(0, 8)}@example.com`);
    expect(elsewhere.body.data.sendTestNotificationEmail.success).toBe(true);
    // An hour later the tenant may send again.
    h.clock.set(new Date(h.clock.now().getTime() + 3_600_000 + 1000));
    const later = await send(v.apiKey, to(6));
    expect(later.body.data?.sendTestNotificationEmail, later.text).toEqual({ success: true, error: null });
  });
});
