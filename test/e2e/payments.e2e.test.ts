import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { databaseSettings, freePort, runCli } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { startStripeStandIn, type StripeStandIn } from '../stripe-stand-in.js';
import { launchBrowser } from './browser.js';
import { SCREENSHOTS, UI_TIMEOUT, graphqlAt, screenshot } from './dashboard-env.js';

// A guest pays in a real Chromium: the paymentUrl sends them to the Checkout page of the local
// Stripe stand-in (test/stripe-stand-in.ts, not Stripe), they press "Pay", the stand-in POSTs the
// signed checkout.session.completed event to the real server and sends the browser back to
// Portier's success page, which shows the booking confirmed. Nothing reaches the internet.

let stripe: StripeStandIn;
let server: ServerProcess;
let browser: Browser;
let apiKey = '';
let bookingId = '';
const TEST_TIMEOUT = 180_000;
const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
  graphqlAt<T>(server.url, apiKey, query, variables);
const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { open: '00:00', close: '24:00' },
  ]),
);

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // The run's database: PostgreSQL when DATABASE_URL is set, else a PGlite directory of its own.
  const { env: database } = await databaseSettings();
  const created = await runCli(['tenant', 'create', '--name', 'Riverside Tennis Club'], database);
  if (created.code !== 0) throw new Error(created.stderr);
  apiKey = (JSON.parse(created.stdout) as { apiKey: string }).apiKey;
  // A fixed port, so PUBLIC_URL (and so the paymentUrl and the success URL) names the real server.
  const port = await freePort();
  server = await startServerProcess(
    {
      ...database,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    },
    { startTimeoutMs: 300_000 },
  );
  stripe.webhookUrl = `${server.url}/api/payments/stripe/webhook`;
  const { createAccommodation } = await gql<{ createAccommodation: { id: string } }>(
    'mutation { createAccommodation(name: "Riverside Courts", address: "Uferweg 5, 10557 Berlin", timeZone: "Europe/Berlin") { id } }',
  );
  const { createObject } = await gql<{ createObject: { id: string } }>(
    'mutation($a: ID!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: "Court 1", pricePerHour: 2000, openingHours: $h) { id } }',
    { a: createAccommodation.id, h: EVERY_DAY },
  );
  const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3 * 86_400_000);
  const { createBooking } = await gql<{ createBooking: { booking: { id: string } } }>(
    'mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Ada Lovelace", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { id } } }',
    { o: createObject.id, s: start.toISOString(), e: new Date(start.getTime() + 3_600_000).toISOString() },
  );
  bookingId = createBooking.booking.id;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  await stripe?.close();
});

describe('a guest pays through the paymentUrl', () => {
  it(
    'goes to the checkout page, pays, and lands on Portier’s page showing the booking confirmed',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { booking } = await gql<{ booking: { paymentUrl: string; totalPrice: number; status: string } }>(
        'query($id: ID!) { booking(id: $id) { paymentUrl totalPrice status } }',
        { id: bookingId },
      );
      expect(booking.status).toBe('PENDING');
      const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
      context.setDefaultTimeout(UI_TIMEOUT);
      const page = await context.newPage();

      await page.goto(booking.paymentUrl);
      await page.waitForURL(`${stripe.url}/pay/**`);
      await page.getByText('Test stand-in for Stripe Checkout').waitFor();
      await screenshot(page, 'payment-stand-in-checkout');
      await page.getByRole('button', { name: /^Pay / }).click();

      // Back through the success page (/pay/{token}/done), which sends the guest on to their own page.
      await page.waitForURL(/\/b\/[A-Za-z0-9_-]{54}\?done=paid$/);
      await page.locator('[data-done="paid"]').getByText('Thank you, your payment was received.').waitFor();
      await page.locator('img[data-qr]').waitFor();
      await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('CONFIRMED');
      await expect(page.locator('[data-payment-status]').getAttribute('data-payment-status')).resolves.toBe('PAID');
      await screenshot(page, 'payment-success');

      const { booking: after } = await gql<{
        booking: { status: string; payment: { status: string; amountPaid: number; provider: string } };
      }>('query($id: ID!) { booking(id: $id) { status payment { status amountPaid provider } } }', { id: bookingId });
      expect(after).toEqual({
        status: 'CONFIRMED',
        payment: { status: 'PAID', amountPaid: booking.totalPrice, provider: 'stripe' },
      });
      // The stand-in saw one session created for the booking, with Portier's own return pages.
      const creates = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
      expect(creates).toHaveLength(1);
      expect(creates[0].form.success_url).toBe(`${booking.paymentUrl}/done?session_id={CHECKOUT_SESSION_ID}`);
    },
  );
});
