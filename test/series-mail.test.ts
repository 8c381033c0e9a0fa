import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, requester, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from './peers/mail-peers.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { NotificationSender, createMailer } from '../src/modules/notifications/index.js';

// The guest's one mail of a recurring booking (issue #43, docs/bookings.md "Recurring bookings"):
// a series created CONFIRMED queues one series_confirmed mail in its transaction, and no
// occurrence sends a confirmation of its own; the notification sender sends it to a local SMTP
// peer; its text lists the booked and skipped dates, its calendar part is the series' recurring
// invite (ical.js: RRULE, EXDATE for the skipped start), in the guest's language.

let h: Harness;
let smtp: SmtpPeer;
let deps: AppDeps;
let app: App;
let request: ReturnType<typeof requester>;
let sender: NotificationSender;

beforeAll(async () => {
  h = await harness();
  smtp = await startSmtpPeer();
  const env = {
    ...h.deps.env,
    mail: {
      smtpUrl: `smtp://portier:secret@127.0.0.1:${smtp.port}`,
      from: 'bookings@venue.example',
      timeoutMs: 20_000,
    },
  };
  deps = composeDeps({
    database: h.deps.database,
    env,
    secret: h.deps.secret,
    log: h.deps.log,
    limits: h.deps.limits,
    now: h.clock.now,
    metrics: h.deps.metrics,
  });
  app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await app.fastify.ready();
  request = requester(app.fastify);
  sender = new NotificationSender({ deps, mailer: createMailer(env.mail, { timeoutMs: 20_000 }), timeoutMs: 20_000 });
}, 120_000);

afterAll(async () => {
  await app?.fastify.close();
  await smtp?.close();
});

beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

const BERLIN = 'Europe/Berlin';
const berlin = (local: string) => DateTime.fromISO(local, { zone: BERLIN }).toUTC().toISO() ?? '';
const mailsTo = (email: string) =>
  smtp.mails.filter((m) => (m.parsed.to as { text: string } | undefined)?.text === email);

async function seriesWithConflict(email: string, extra: Record<string, unknown> = {}) {
  const v = await buildVenue(h, { timeZone: BERLIN });
  // Tuesday 2026-12-08 18:00 is taken: that occurrence is skipped.
  await buildBooking(h, v.tenantId, v.object.id, {
    start: berlin('2026-12-08T18:00'),
    end: berlin('2026-12-08T19:00'),
    guestEmail: 'someone-else@example.com',
  });
  const res = await request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/booking-series`,
    apiKey: v.apiKey,
    body: {
      objectId: v.object.id,
      guestName: 'Ada Lovelace',
      guestEmail: email,
      startTime: berlin('2026-12-01T18:00'),
      endTime: berlin('2026-12-01T19:00'),
      rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      status: 'CONFIRMED',
      ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.bookings).toHaveLength(3);
  expect(res.body.conflicts).toHaveLength(1);
  return {
    ...v,
    seriesId: res.body.series.id as string,
    bookingIds: res.body.bookings.map((b: { id: string }) => b.id),
  };
}

function inviteOf(mail: ReceivedMail) {
  const part = mail.parsed.attachments.find((a) => a.contentType === 'text/calendar');
  expect(part, 'a text/calendar part').toBeDefined();
  const text = part!.content.toString('utf8');
  const component = new ICAL.Component(ICAL.parse(text));
  for (const tz of component.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(tz));
  const vevents = component.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(1);
  const vevent = vevents[0];
  const rrule = vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
  const exdates = vevent
    .getAllProperties('exdate')
    .flatMap((p) => p.getValues() as ICAL.Time[])
    .map((t) => t.toJSDate().toISOString());
  const event = new ICAL.Event(vevent);
  const iterator = event.iterator();
  const starts: string[] = [];
  for (let next = iterator.next(); next && starts.length < 50; next = iterator.next())
    starts.push(event.getOccurrenceDetails(next).startDate.toJSDate().toISOString());
  return { text, method: component.getFirstPropertyValue('method'), rrule, exdates, starts, uid: event.uid };
}

describe('the series mail', () => {
  it('is one mail for the whole series (no per-occurrence confirmation), listing the dates, with the recurring invite', async () => {
    const email = 'ada-series@example.com';
    const v = await seriesWithConflict(email);
    const queued = await h.deps.database.db
      .selectFrom('notifications')
      .select(['kind', 'channel', 'booking_id'])
      .where('tenant_id', '=', v.tenantId)
      .where('recipient', '=', email)
      .execute();
    expect(queued).toEqual([{ kind: 'series_confirmed', channel: 'email', booking_id: v.bookingIds[0] }]);
    await sender.drain();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.parsed.subject).toContain('Your recurring booking is confirmed');
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Booked dates');
    for (const day of ['Tue 1 Dec 2026, 18:00–19:00 (Europe/Berlin)', 'Tue 15 Dec 2026', 'Tue 22 Dec 2026'])
      expect(text).toContain(day);
    expect(text).toMatch(/Not booked[^\n]*\n- Tue 8 Dec 2026, 18:00–19:00 \(Europe\/Berlin\)/);
    expect(text).toContain('Total price: €60.00');
    expect(text).toContain('/b/');
    expect(mail.parsed.html || '').toContain('Booked dates');
    // No QR code: each occurrence's key is on its own manage page.
    expect(mail.parsed.attachments.some((a) => a.contentType === 'image/png')).toBe(false);

    const invite = inviteOf(mail);
    expect(invite.method).toBe('REQUEST');
    expect(invite.uid).toBe(`series-${v.seriesId}@venue.example`);
    expect(invite.rrule.freq).toBe('WEEKLY');
    expect(invite.rrule.count).toBe(4);
    expect(invite.exdates).toEqual([berlin('2026-12-08T18:00').replace(/\.\d+Z$/, '.000Z')]);
    expect(invite.starts).toEqual(
      ['2026-12-01T18:00', '2026-12-15T18:00', '2026-12-22T18:00'].map((l) => new Date(berlin(l)).toISOString()),
    );

    // Sent once: another pass sends nothing more.
    expect((await sender.drain()).attempted).toBe(0);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('is German for a German guest', async () => {
    const email = 'ada-de@example.com';
    await seriesWithConflict(email, { locale: 'DE' });
    await sender.drain();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.parsed.subject).toContain('Ihre Serienbuchung ist bestätigt');
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Gebuchte Termine');
    expect(text).toContain('Nicht gebucht');
    expect(text).toContain('Gesamtpreis');
    expect(text).toContain('Dezember 2026, 18:00–19:00 (Europe/Berlin)');
    expect(inviteOf(mail).exdates).toHaveLength(1);
  });

  it('a later cancellation of one occurrence is its own per-booking mail; a PENDING series sends no series mail', async () => {
    const email = 'ada-cancel@example.com';
    const v = await seriesWithConflict(email);
    await sender.drain();
    expect(mailsTo(email)).toHaveLength(1);
    const res = await request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/booking-series/${v.seriesId}/cancel`,
      apiKey: v.apiKey,
      body: { scope: 'THIS', fromBookingId: v.bookingIds[1] },
    });
    expect(res.status, res.text).toBe(200);
    await sender.drain();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1].parsed.subject).toContain('Your booking is cancelled');

    const pendingEmail = 'ada-pending@example.com';
    await seriesWithConflict(pendingEmail, { status: 'PENDING' });
    await sender.drain();
    expect(mailsTo(pendingEmail)).toHaveLength(0);
  });
});
