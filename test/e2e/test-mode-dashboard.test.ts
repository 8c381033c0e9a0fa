import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { DashboardEnv, STAFF, VIEWPORTS, screenshot, seriousViolations, signIn } from './dashboard-env.js';

// Issue #44, docs/test-mode.md: the dashboard's Test mode switch. A real server (dist/) and
// dashboard: staff see a live booking, turn Test mode on by its switch in the top bar, see the
// TEST MODE banner and the sandbox's bookings only (none of the live ones), a booking made with a
// svc_test_ key of the same sandbox shows there and only there, and switching back shows the live
// bookings and no banner — at 1280 and 390 px, with no serious axe violation in either mode.
// On the run's database (PostgreSQL when DATABASE_URL is set). Screenshots in test-results/screenshots/.

const TEST_TIMEOUT = 240_000;
const env = new DashboardEnv();
const LIVE_GUEST = 'Livia Live';
const TEST_GUEST = 'Sandy Sandbox';

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { open: '00:00', close: '24:00' },
  ]),
);

const CREATE_BOOKING =
  'mutation($o: ID!, $s: DateTime!, $f: DateTime!, $n: String!, $m: String!) { createBooking(objectId: $o, guestName: $n, guestEmail: $m, startTime: $s, endTime: $f) { booking { id livemode } } }';

function startAt(hour: number): DateTime {
  return DateTime.now().setZone('Europe/Berlin').startOf('day').plus({ days: 9 }).set({ hour });
}

/** A svc_test_ key of the tenant's sandbox, its own small catalog and one booking on it. */
async function sandboxBooking(): Promise<string> {
  const { createApiKey } = await env.graphql<{ createApiKey: { apiKey: string } }>(
    'mutation { createApiKey(name: "Sandbox e2e", scopes: ["admin"], livemode: false) { apiKey } }',
  );
  const testKey = createApiKey.apiKey;
  expect(testKey.startsWith('svc_test_')).toBe(true);
  const { createAccommodation } = await env.graphql<{ createAccommodation: { id: string } }>(
    'mutation { createAccommodation(name: "Sandbox Courts", address: "Teststraße 1, 10115 Berlin", timeZone: "Europe/Berlin") { id } }',
    {},
    testKey,
  );
  const { createObject } = await env.graphql<{ createObject: { id: string } }>(
    'mutation($a: ID!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: "Sandbox court", pricePerHour: 1000, openingHours: $h) { id } }',
    { a: createAccommodation.id, h: EVERY_DAY },
    testKey,
  );
  const start = startAt(14);
  const { createBooking } = await env.graphql<{ createBooking: { booking: { id: string; livemode: boolean } } }>(
    CREATE_BOOKING,
    {
      o: createObject.id,
      s: start.toISO(),
      f: start.plus({ hours: 1 }).toISO(),
      n: TEST_GUEST,
      m: 'sandy@example.com',
    },
    testKey,
  );
  expect(createBooking.booking.livemode).toBe(false);
  return createBooking.booking.id;
}

const banner = (page: Page) => page.getByText(/^TEST MODE/);
const modeSwitch = (page: Page) => page.getByRole('checkbox', { name: 'Test mode' });
const guestLink = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Bookings', exact: true }).getByRole('link', { name, exact: true });

/** Clicks the switch as a person would and waits for the reload it causes. */
async function toggleTestMode(page: Page): Promise<void> {
  await Promise.all([page.waitForEvent('load'), modeSwitch(page).click()]);
}

/** The banner sits under the top bar (not under or over it) and nothing sticks out sideways. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const header = document.querySelector('.topbar')?.getBoundingClientRect();
    const shown = document.querySelector('.test-mode-banner')?.getBoundingClientRect();
    const toggle = document.querySelector('.test-mode-switch')?.getBoundingClientRect();
    if (!header || !toggle) return ['no top bar or switch'];
    if (toggle.left < header.left || toggle.right > header.right || toggle.bottom > header.bottom)
      found.push(`switch outside the top bar: ${JSON.stringify(toggle)}`);
    if (toggle.width < 24 || toggle.height < 16) found.push(`switch too small: ${toggle.width}×${toggle.height}`);
    if (shown && shown.top < header.bottom - 0.5)
      found.push(`banner under the top bar: ${shown.top} < ${header.bottom}`);
    for (const item of document.querySelectorAll('.topbar-user > *')) {
      const box = item.getBoundingClientRect();
      if (box.width > 0 && (box.left < 0 || box.right > window.innerWidth))
        found.push(`${item.className} off screen: ${box.left}–${box.right}`);
    }
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    if (overflow > 0) found.push(`page ${overflow}px wider than the window`);
    return found;
  });
}

let liveBooking: string;

beforeAll(async () => {
  await env.start({}, { runDatabase: true });
  const start = startAt(10);
  const { createBooking } = await env.graphql<{ createBooking: { booking: { id: string; livemode: boolean } } }>(
    CREATE_BOOKING,
    {
      o: env.seed.objectIds[0],
      s: start.toISO(),
      f: start.plus({ hours: 1 }).toISO(),
      n: LIVE_GUEST,
      m: 'livia@example.com',
    },
  );
  expect(createBooking.booking.livemode).toBe(true);
  liveBooking = createBooking.booking.id;
}, 360_000);

afterAll(() => env.stop());

describe("the dashboard's Test mode switch", () => {
  it(
    'switches to the sandbox and back, with the banner, at 1280 and 390 px (axe clean)',
    { timeout: TEST_TIMEOUT },
    async () => {
      const found: string[] = [];
      let testBooking: string | undefined;
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const { page, problems } = await env.newPage(viewport);
        await signIn(page, env.url, STAFF);

        // Live: the live booking is listed, no banner, the switch is off.
        await page.goto(`${env.url}/dashboard/bookings`);
        await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
        await guestLink(page, LIVE_GUEST).waitFor();
        expect(await banner(page).count(), size).toBe(0);
        expect(await modeSwitch(page).isChecked(), size).toBe(false);
        found.push(...(await layoutProblems(page)).map((p) => `${size} live: ${p}`));
        found.push(...(await seriousViolations(page)).map((v) => `${size} live: ${v}`));
        await screenshot(page, `test-mode-off-${size}`);

        // Test mode on through the switch: the banner, and none of the live bookings.
        await toggleTestMode(page);
        await banner(page).waitFor();
        expect(await modeSwitch(page).isChecked(), size).toBe(true);
        await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
        if (!testBooking) {
          // The dashboard's first switch made the sandbox; it is empty (nothing is copied).
          await page.getByText('No bookings yet.').waitFor();
          // A svc_test_ key acts on that same sandbox: its booking shows in test mode.
          testBooking = await sandboxBooking();
          await page.reload();
          await banner(page).waitFor();
        }
        await guestLink(page, TEST_GUEST).waitFor();
        expect(await guestLink(page, LIVE_GUEST).count(), size).toBe(0);
        expect(await guestLink(page, 'Ada Lovelace').count(), size).toBe(0);
        await page.getByText('1 booking', { exact: true }).waitFor();
        found.push(...(await layoutProblems(page)).map((p) => `${size} test: ${p}`));
        found.push(...(await seriousViolations(page)).map((v) => `${size} test: ${v}`));
        await screenshot(page, `test-mode-on-${size}`);

        // The banner is on every page while test mode is on (here the overview), and it stays on
        // across a fresh load (kept in the browser).
        await page.goto(`${env.url}/dashboard/`);
        await banner(page).waitFor();
        expect(await modeSwitch(page).isChecked(), size).toBe(true);
        found.push(...(await layoutProblems(page)).map((p) => `${size} test overview: ${p}`));
        found.push(...(await seriousViolations(page)).map((v) => `${size} test overview: ${v}`));
        await screenshot(page, `test-mode-overview-${size}`);

        // A live booking's page is not found in test mode (no cross-mode access).
        await page.goto(`${env.url}/dashboard/bookings/${liveBooking}`);
        await banner(page).waitFor();
        expect(await page.getByRole('heading', { name: LIVE_GUEST }).count(), size).toBe(0);

        // Back to live: the live booking again, the sandbox's not, no banner.
        await page.goto(`${env.url}/dashboard/bookings`);
        await guestLink(page, TEST_GUEST).waitFor();
        await toggleTestMode(page);
        await guestLink(page, LIVE_GUEST).waitFor();
        expect(await modeSwitch(page).isChecked(), size).toBe(false);
        expect(await banner(page).count(), size).toBe(0);
        expect(await guestLink(page, TEST_GUEST).count(), size).toBe(0);
        await screenshot(page, `test-mode-back-${size}`);
        expect(problems, size).toEqual([]);
      }
      expect(found).toEqual([]);

      // Behind the browser's back: the live key sees the live booking and not the sandbox's.
      const { booking } = await env.graphql<{ booking: { id: string; livemode: boolean } | null }>(
        'query($id: ID!) { booking(id: $id) { id livemode } }',
        { id: liveBooking },
      );
      expect(booking).toEqual({ id: liveBooking, livemode: true });
      const other = await env
        .graphql<{ booking: unknown }>('query($id: ID!) { booking(id: $id) { id } }', { id: testBooking })
        .then(
          (data) => JSON.stringify(data.booking),
          (error: unknown) => (error instanceof Error ? error.message : 'failed'),
        );
      expect(other === 'null' || /not.?found/i.test(other), other).toBe(true);
    },
  );
});
