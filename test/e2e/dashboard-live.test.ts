import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { ADMIN, DashboardEnv, UI_TIMEOUT, signIn } from './dashboard-env.js';

// Live updates (issue #27, docs/dashboard-ui.md#live-updates): the signed-in dashboard keeps one
// bookingChanged subscription open over SSE, so the calendar, the bookings list and the Overview
// show a booking made or cancelled elsewhere (here: through the API, by the test) without a reload.

const env = new DashboardEnv();
const TEST_TIMEOUT = 240_000;
const ZONE = 'Europe/Berlin';
/** The day after tomorrow in the venue: no seeded booking on it, every hour bookable. */
const day = DateTime.now().setZone(ZONE).plus({ days: 2 }).startOf('day');
const DATE = day.toISODate() ?? '';

beforeAll(async () => {
  await env.start({}, { runDatabase: true });
}, 900_000);

afterAll(async () => {
  await env.stop();
});

async function book(guestName: string, objectId: string, start: DateTime): Promise<string> {
  const { createBooking } = await env.graphql<{ createBooking: { booking: { id: string } } }>(
    'mutation($o: ID!, $n: String!, $e: String!, $s: DateTime!, $f: DateTime!) { createBooking(objectId: $o, guestName: $n, guestEmail: $e, startTime: $s, endTime: $f) { booking { id } } }',
    { o: objectId, n: guestName, e: 'live@example.com', s: start.toISO(), f: start.plus({ hours: 1 }).toISO() },
  );
  return createBooking.booking.id;
}

async function cancel(bookingId: string): Promise<void> {
  await env.graphql(
    'mutation($id: ID!) { updateBookingStatus(bookingId: $id, status: CANCELLED) { booking { id } } }',
    {
      id: bookingId,
    },
  );
}

/** Opens a dashboard page, waits for its heading and a live subscription, and marks the window. */
async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${env.url}/dashboard${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await waitLive(page);
  // A reload or a navigation would drop this: it must still be there when the change shows.
  await page.evaluate(() => {
    (window as unknown as { liveMarker?: string }).liveMarker = 'kept';
  });
}

const liveStatus = (page: Page) => page.locator('.live-status');

async function waitLive(page: Page): Promise<void> {
  await expect.poll(() => liveStatus(page).textContent(), { timeout: UI_TIMEOUT }).toBe('Live');
}

async function notReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe('kept');
}

const calendarBooking = (page: Page, guestName: string) => page.locator('.booking', { hasText: guestName });

describe('live updates', () => {
  it(
    'shows a booking made and cancelled through the API on the calendar, the bookings list and the Overview, without a reload',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, context, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      expect(await liveStatus(page).getAttribute('role')).toBe('status');
      const list = await context.newPage();
      const overview = await context.newPage();
      await open(page, `/calendar?date=${DATE}`, 'Calendar');
      await open(list, '/bookings', 'Bookings');
      await open(overview, '/', 'Overview');

      const guest = `Live Guest ${Date.now()}`;
      const id = await book(guest, env.seed.objectIds[0], day.set({ hour: 14 }));

      await expect.poll(() => calendarBooking(page, guest).count(), { timeout: UI_TIMEOUT }).toBe(1);
      await expect
        .poll(() => list.getByRole('link', { name: guest, exact: true }).count(), { timeout: UI_TIMEOUT })
        .toBe(1);
      // The slot it took is no longer offered as free.
      await expect
        .poll(() => page.getByRole('button', { name: /Court 1, .*, 14:00 to 15:00, free: new booking/ }).count(), {
          timeout: UI_TIMEOUT,
        })
        .toBe(0);

      // Today's list on the Overview, when an hour is still left today in the venue.
      const nextHour = DateTime.now().setZone(ZONE).startOf('hour').plus({ hours: 1 });
      const todayGuest = `Live Today ${Date.now()}`;
      let todayId: string | null = null;
      if (nextHour.hasSame(DateTime.now().setZone(ZONE), 'day') && nextHour.hour < 23) {
        todayId = await book(todayGuest, env.seed.objectIds[0], nextHour);
        await expect
          .poll(() => overview.getByRole('link', { name: todayGuest, exact: true }).count(), { timeout: UI_TIMEOUT })
          .toBe(1);
      }

      await cancel(id);
      await expect.poll(() => calendarBooking(page, guest).count(), { timeout: UI_TIMEOUT }).toBe(0);
      const row = list.getByRole('row', { name: new RegExp(guest) });
      await expect.poll(() => row.textContent(), { timeout: UI_TIMEOUT }).toMatch(/cancelled/i);
      if (todayId) {
        await cancel(todayId);
        await expect
          .poll(() => overview.getByRole('link', { name: todayGuest, exact: true }).count(), { timeout: UI_TIMEOUT })
          .toBe(0);
      }

      for (const p of [page, list, overview]) await notReloaded(p);
      expect(problems).toEqual([]);
    },
  );

  it(
    'says "Reconnecting…" while the stream cannot be opened, and catches up once it is back',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      // The network refuses the page's streams (as while the server restarts); its other requests pass.
      const blocked = '**/api/v1/graphql';
      await page.route(blocked, (route) =>
        route.request().headers().accept === 'text/event-stream' ? route.abort('connectionrefused') : route.fallback(),
      );
      await page.goto(`${env.url}/dashboard/calendar?date=${DATE}`);
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await page.evaluate(() => {
        (window as unknown as { liveMarker?: string }).liveMarker = 'kept';
      });
      await expect.poll(() => liveStatus(page).textContent(), { timeout: UI_TIMEOUT }).toBe('Reconnecting…');

      // A booking made while the page was not listening shows once the stream is back.
      const guest = `Missed Guest ${Date.now()}`;
      const id = await book(guest, env.seed.objectIds[1], day.set({ hour: 16 }));
      await page.unroute(blocked);
      // The next try comes after the backoff (at most 30 s), so wait longer than one UI step.
      await expect.poll(() => liveStatus(page).textContent(), { timeout: 2 * UI_TIMEOUT }).toBe('Live');
      await expect.poll(() => calendarBooking(page, guest).count(), { timeout: UI_TIMEOUT }).toBe(1);

      await cancel(id);
      await expect.poll(() => calendarBooking(page, guest).count(), { timeout: UI_TIMEOUT }).toBe(0);
      await notReloaded(page);
      expect(problems).toEqual([]);
    },
  );
});
