import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { launchBrowser } from './browser.js';
import { SCREENSHOTS, UI_TIMEOUT, VIEWPORTS, screenshot, seriousViolations } from './dashboard-env.js';
import { harness, type Harness } from '../harness.js';
import { ownApp, type OwnApp } from '../own-app.js';
import { freePort } from '../processes.js';
import { buildActiveDevice, buildCancellationPolicy, buildDoor, buildVenue, setBookingStatus } from '../builders.js';
import { manageUrl } from '../../src/modules/bookings/manage-link.js';

// A guest on a phone (390 px, real Chromium) opens the manage link of their booking: cancels it and
// sees the refund the venue's policy gives before and after; moves another booking to a free time
// and gets a new QR code, which the door accepts while it refuses the old one. The server runs in
// this process on the test's clock (so "now" can be inside the new booking window at the door).

// jsqr is CommonJS with a default export (as in test/notifications.test.ts).
type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: DecodeQr }).default ?? jsQRModule) as DecodeQr;

const DOC_SHOT = fileURLToPath(new URL('../../docs/booking-page-manage.png', import.meta.url));

let h: Harness;
let o: OwnApp;
let base: string;
let browser: Browser;
let context: BrowserContext;
let venue: Awaited<ReturnType<typeof buildVenue>>;

const NOW = '2026-11-20T09:00:00Z';

beforeAll(async () => {
  h = await harness();
  h.clock.set(NOW);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  o = await ownApp(h, { env: { publicUrl: base }, options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  await o.app.fastify.listen({ port, host: '127.0.0.1' });
  venue = await buildVenue(h, { pricePerHour: 2050 });
  await buildCancellationPolicy(h, venue.tenantId, {
    name: 'Standard',
    isDefault: true,
    tiers: [
      { hoursBeforeStart: 48, refundPercent: 100 },
      { hoursBeforeStart: 24, refundPercent: 50 },
      { hoursBeforeStart: 0, refundPercent: 0 },
    ],
  });
  browser = await launchBrowser();
  // One context for the file: the packaged Chromium runs single-process, where closing a context ends the browser.
  context = await browser.newContext({ viewport: VIEWPORTS.mobile, deviceScaleFactor: 2 });
  context.setDefaultTimeout(UI_TIMEOUT);
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await o?.close();
  h?.clock.set(null);
});

async function confirmedBooking(startTime: string, endTime: string): Promise<{ id: string; url: string }> {
  const res = await h.request({
    method: 'POST',
    url: `/api/v1/tenants/${venue.tenantId}/bookings`,
    apiKey: venue.apiKey,
    body: { objectId: venue.object.id, guestName: 'Ada Lovelace', guestEmail: 'ada@example.com', startTime, endTime },
  });
  expect(res.status, res.text).toBe(201);
  const id = res.body.booking.id as string;
  await setBookingStatus(h, venue, id, 'CONFIRMED');
  return { id, url: manageUrl(base, h.deps.secret, id, 1) };
}

async function status(id: string) {
  return h.deps.database.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function expectClean(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${what}: horizontal overflow`).toBeLessThanOrEqual(0);
}

/** The text the QR code on the page encodes, read from its pixels as a phone camera would. */
async function qrText(page: Page): Promise<string> {
  const png = PNG.sync.read(await page.locator('img[data-qr]').screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code readable on the page');
  return code.data;
}

describe('the guest cancels from the manage link', () => {
  it(
    'sees the refund the policy gives, confirms, and sees the booking cancelled with that refund',
    { timeout: 240_000 },
    async () => {
      // 30 hours ahead and paid: the 24-hour tier gives half back.
      const booking = await confirmedBooking('2026-11-21T15:00:00Z', '2026-11-21T17:00:00Z');
      const paid = await h.graphql(
        venue.apiKey,
        'mutation($id: ID!) { markBookingPaid(id: $id, amount: 4100) { id } }',
        {
          id: booking.id,
        },
      );
      expect(paid.body.errors, paid.text).toBeUndefined();

      const page = await context.newPage();
      await page.goto(booking.url);
      await page.getByRole('heading', { name: 'Your booking', exact: true }).waitFor();
      await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('CONFIRMED');
      await page.locator('img[data-qr]').waitFor();
      await expectClean(page, 'manage page');
      await screenshot(page, 'guest-manage-confirmed');
      await page.screenshot({ path: DOC_SHOT, fullPage: true });

      await page.getByRole('link', { name: 'Cancel booking' }).click();
      await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
      await page.getByText('If you cancel now, you get €20.50 back.').waitFor();
      await page.getByText('Cancellation policy: Standard.').waitFor();
      await expectClean(page, 'cancel step');
      await screenshot(page, 'guest-manage-cancel-confirm');
      expect((await status(booking.id)).status).toBe('CONFIRMED');

      await page.getByRole('button', { name: 'Yes, cancel my booking' }).click();
      await page.getByText('Your booking is cancelled. €20.50 is refunded to you.').waitFor();
      await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('CANCELLED');
      await expect(page.locator('img[data-qr]').count()).resolves.toBe(0);
      await expectClean(page, 'cancelled page');
      await screenshot(page, 'guest-manage-cancelled');
      await page.getByRole('link', { name: 'Receipt' }).click();
      await page.getByRole('heading', { name: 'Receipt' }).waitFor();
      await expect(page.locator('[data-net-cents]').getAttribute('data-net-cents')).resolves.toBe('2050');
      await expectClean(page, 'receipt');
      await screenshot(page, 'guest-manage-receipt');
      const after = await status(booking.id);
      expect(after.status).toBe('CANCELLED');
      expect(after.refund_amount).toBe(2050);
      await page.close();
    },
  );
});

describe('the guest reschedules from the manage link', () => {
  it(
    'picks a date and a free time, confirms, and the new QR opens the door while the old one is refused',
    { timeout: 240_000 },
    async () => {
      const booking = await confirmedBooking('2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z');
      const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
      const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
      const check = (token: string) =>
        fetch(`${base}/api/devices/${device.deviceId}/access-check`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${device.deviceKey}` },
          body: JSON.stringify({ token, doorId: door.id }),
        }).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as { allowed: boolean; reason?: string },
        }));

      const page = await context.newPage();
      await page.goto(`${booking.url}?lang=de`);
      await page.getByRole('heading', { name: 'Ihre Buchung', exact: true }).waitFor();
      await expectClean(page, 'German manage page');
      await screenshot(page, 'guest-manage-de');
      await page.getByRole('link', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Your booking', exact: true }).waitFor();
      const oldToken = await qrText(page);

      await page.getByRole('link', { name: 'Change the time' }).click();
      await page.getByRole('heading', { name: 'Change the time' }).waitFor();
      await page.getByLabel('Date').fill('2026-11-24');
      await page.getByRole('button', { name: 'Show free times' }).click();
      await page.getByText('Free times on Tuesday 24 November 2026').waitFor();
      await expectClean(page, 'free times');
      await screenshot(page, 'guest-manage-reschedule-times');
      await page.getByText('15:00–16:00', { exact: true }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Move your booking?' }).waitFor();
      await page.getByText('Tuesday 24 November 2026, 15:00–16:00').waitFor();
      await expectClean(page, 'reschedule confirm');
      await screenshot(page, 'guest-manage-reschedule-confirm');
      await page.getByRole('button', { name: 'Yes, move my booking' }).click();
      await page.getByText('Your booking has moved.', { exact: false }).waitFor();
      await expectClean(page, 'rescheduled page');
      await screenshot(page, 'guest-manage-rescheduled');
      const moved = await status(booking.id);
      expect(moved.start_time.toISOString()).toBe('2026-11-24T14:00:00.000Z');
      const newToken = await qrText(page);
      expect(newToken).not.toBe(oldToken);
      await page.close();

      // At the door: the old QR is refused in its own (old) time and in the new one; the new QR opens the door.
      try {
        for (const at of ['2026-11-23T09:30:00Z', '2026-11-24T14:30:00Z']) {
          h.clock.set(at);
          const refused = await check(oldToken);
          expect(refused.status).toBe(200);
          expect(refused.body, at).toMatchObject({ allowed: false, reason: 'invalid_token' });
        }
        const opened = await check(newToken);
        expect(opened.body).toMatchObject({ allowed: true });
      } finally {
        h.clock.set(NOW);
      }
    },
  );
});
