import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import ical from 'node-ical';
import { ADMIN, DashboardEnv, STAFF, UI_TIMEOUT, fetchPatiently, screenshot, signIn } from './dashboard-env.js';
import { startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../peers/mail-peers.js';

// Issue #25, the third path of "a booking confirmed through REST, GraphQL and the dashboard
// produces exactly one email (and one SMS when guestPhone is set)": a staff member presses
// "Confirm booking" in a real Chromium; the real server (dist/, its own notification sender)
// sends through SMTP to the local smtp-server peer and through HTTP to the Messages API stand-in.
// REST and GraphQL are covered in test/notifications.test.ts. On the run's database: PGlite, or
// PostgreSQL when DATABASE_URL is set.

const SMS_SID = 'AC00dashboard00';
const SMS_TOKEN = 'dashboard-sms-token';
const GUEST = { name: 'Hedy Lamarr', email: 'hedy@example.com', phone: '+49 30 5550123', e164: '+49305550123' };
const TEST_TIMEOUT = 240_000;

const env = new DashboardEnv();
let smtp: SmtpPeer;
let sms: SmsPeer;
let bookingId = '';

beforeAll(async () => {
  smtp = await startSmtpPeer();
  sms = await startSmsPeer();
  await env.start(
    {
      SMTP_URL: `smtp://portier:smtp-password@127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'bookings@riverside.example',
      SMS_API_BASE: sms.url,
      SMS_ACCOUNT_SID: SMS_SID,
      SMS_AUTH_TOKEN: SMS_TOKEN,
      SMS_FROM: '+15550001111',
    },
    { runDatabase: true },
  );
  const start = DateTime.now().setZone('Europe/Berlin').startOf('day').plus({ days: 6 }).set({ hour: 11 });
  const { createBooking } = await env.graphql<{ createBooking: { booking: { id: string; status: string } } }>(
    'mutation($o: ID!, $s: DateTime!, $f: DateTime!, $p: String) { createBooking(objectId: $o, guestName: "Hedy Lamarr", guestEmail: "hedy@example.com", guestPhone: $p, startTime: $s, endTime: $f) { booking { id status } } }',
    { o: env.seed.objectIds[1], s: start.toISO(), f: start.plus({ hours: 1 }).toISO(), p: GUEST.phone },
  );
  expect(createBooking.booking.status).toBe('PENDING');
  bookingId = createBooking.booking.id;
}, 360_000);

afterAll(async () => {
  await env.stop();
  await smtp?.close();
  await sms?.close();
});

const mailsToGuest = () =>
  smtp.mails.filter((m) => (m.parsed.to as { text: string } | undefined)?.text === GUEST.email);
const textsToGuest = () => sms.requests.filter((r) => r.form.get('To') === GUEST.e164);

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 90_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a booking confirmed in the dashboard', () => {
  it(
    'staff presses "Confirm booking": the guest gets exactly one mail and one SMS, and the booking page lists both as sent',
    { timeout: TEST_TIMEOUT },
    async () => {
      // Creating the booking (PENDING) sends nothing.
      expect(mailsToGuest()).toHaveLength(0);
      expect(textsToGuest()).toHaveLength(0);

      const { page, problems } = await env.newPage();
      await signIn(page, env.url, STAFF);
      await page.goto(`${env.url}/dashboard/bookings/${bookingId}`);
      await page.getByRole('heading', { name: GUEST.name, level: 1 }).waitFor();
      await page.getByText('No notifications for this booking.').waitFor();
      await page.getByRole('button', { name: 'Confirm booking' }).click();
      await page.getByRole('button', { name: 'Complete booking' }).waitFor();

      // The server's own sender delivers both; then the outbox holds nothing more for this booking.
      await until('the mail and the SMS', () => mailsToGuest().length >= 1 && textsToGuest().length >= 1);
      type Log = {
        booking: {
          status: string;
          notifications: { channel: string; kind: string; status: string; attempts: number }[];
        };
      };
      const logOf = () =>
        env.graphql<Log>(
          'query($id: ID!) { booking(id: $id) { status notifications { channel kind status attempts } } }',
          { id: bookingId },
        );
      await until('both notifications recorded as sent', async () => {
        const { booking } = await logOf();
        return booking.notifications.length === 2 && booking.notifications.every((n) => n.status === 'SENT');
      });
      const { booking } = await logOf();
      expect(booking.status).toBe('CONFIRMED');
      expect(booking.notifications).toEqual([
        { channel: 'EMAIL', kind: 'CONFIRMED', status: 'SENT', attempts: 1 },
        { channel: 'SMS', kind: 'CONFIRMED', status: 'SENT', attempts: 1 },
      ]);
      // Two sender ticks later nothing else has arrived (the sender polls every second).
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(mailsToGuest()).toHaveLength(1);
      expect(textsToGuest()).toHaveLength(1);

      // The parts: the confirmation with a calendar REQUEST for this booking; the SMS code is the credential's.
      const [mail] = mailsToGuest();
      expect(mail.parsed.subject).toMatch(
        /^Your booking is confirmed: Court 2 at Riverside Courts, .* \(Europe\/Berlin\)$/,
      );
      const calendar = mail.parsed.attachments.find((a) => a.contentType === 'text/calendar');
      expect(calendar).toBeDefined();
      const events = Object.values(ical.sync.parseICS(calendar!.content.toString('utf8'))).filter(
        (c): c is ical.VEvent => c?.type === 'VEVENT',
      );
      expect(events.map((e) => e.uid)).toEqual([`booking-${bookingId}@riverside.example`]);
      expect(
        mail.parsed.attachments.some((a) => a.contentType === 'image/png' && a.contentDisposition === 'inline'),
      ).toBe(true);
      const credentials = await fetchPatiently(
        `${env.url}/api/v1/tenants/${env.seed.tenantId}/bookings/${bookingId}/credentials`,
        {
          headers: { authorization: `Bearer ${env.seed.apiKey}` },
        },
      );
      const { sms: code } = (await credentials.json()) as { sms: { code: string } };
      const [text] = textsToGuest();
      expect(text.authorization).toBe(`Basic ${Buffer.from(`${SMS_SID}:${SMS_TOKEN}`).toString('base64')}`);
      expect(text.form.get('Body')).toContain(code.code);
      expect(mail.parsed.text).toContain(code.code);

      // The booking page's log shows both as sent.
      await page.reload();
      const log = page.locator('.table-wrap[aria-label="Guest notifications"]');
      await log
        .locator('tbody tr')
        .filter({ hasText: 'Email · confirmed' })
        .filter({ hasText: GUEST.email })
        .waitFor({ timeout: UI_TIMEOUT });
      await log
        .locator('tbody tr')
        .filter({ hasText: 'SMS · confirmed' })
        .filter({ hasText: GUEST.e164 })
        .waitFor({ timeout: UI_TIMEOUT });
      expect(await log.locator('tbody tr').count()).toBe(2);
      expect(await log.locator('tbody td[data-label="Status"]').allTextContents()).toEqual(['sent', 'sent']);
      await screenshot(page, 'notifications-dashboard-booking');
      expect(problems).toEqual([]);
    },
  );

  it(
    'staff presses "Resend" on the sent mail: the guest gets it once more, and the log counts it',
    { timeout: TEST_TIMEOUT },
    async () => {
      expect(mailsToGuest()).toHaveLength(1);
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, STAFF);
      await page.goto(`${env.url}/dashboard/bookings/${bookingId}`);
      const log = page.locator('.table-wrap[aria-label="Guest notifications"]');
      const mailRow = log.locator('tbody tr').filter({ hasText: 'Email · confirmed' });
      await mailRow.getByRole('button', { name: 'Resend' }).click();
      await until('the resent mail', () => mailsToGuest().length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(mailsToGuest()).toHaveLength(2);
      expect(textsToGuest()).toHaveLength(1);
      expect(mailsToGuest()[1]?.parsed.subject).toBe(mailsToGuest()[0]?.parsed.subject);
      expect(problems).toEqual([]);
    },
  );
});

describe('the notification settings page', () => {
  it(
    'an admin presses "Send me a test email": the mail reaches the admin’s address through the SMTP peer, and the page says so',
    { timeout: TEST_TIMEOUT },
    async () => {
      const toAdmin = () =>
        smtp.mails.filter((m) => (m.parsed.to as { text: string } | undefined)?.text === ADMIN.email);
      expect(toAdmin()).toHaveLength(0);
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/admin/notifications`);
      await page.getByRole('button', { name: 'Send me a test email' }).click();
      await page.getByRole('status').filter({ hasText: 'Test email sent' }).waitFor({ timeout: UI_TIMEOUT });
      await until('the test mail', () => toAdmin().length >= 1);
      expect(toAdmin()).toHaveLength(1);
      expect(toAdmin()[0]?.parsed.from?.text).toContain('bookings@riverside.example');
      await screenshot(page, 'notifications-settings-test-email');
      expect(problems).toEqual([]);
    },
  );
});
