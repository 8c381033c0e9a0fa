import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page, Route } from 'playwright-core';
import { DateTime } from 'luxon';
import { Receiver } from '../receiver.js';
import { ADMIN, DashboardEnv, UI_TIMEOUT, VIEWPORTS, screenshot, seriousViolations, signIn } from './dashboard-env.js';

// The front desk (issue #24, docs/dashboard-ui.md#calendar): the calendar, a booking taken from a
// free slot, moves by drag, keyboard and form (with the booking.rescheduled event delivered),
// search, CSV export and the bookings list's "To" day (bug 4), in a real Chromium.

const env = new DashboardEnv();
const receiver = new Receiver();
const TEST_TIMEOUT = 240_000;
const ZONE = 'Europe/Berlin';
/** Tomorrow in the venue: every hour of it is bookable (the seed opens 00:00–24:00). */
const day = DateTime.now().setZone(ZONE).plus({ days: 1 }).startOf('day');
const DATE = day.toISODate() ?? '';
const DAY_LABEL = day.toFormat('ccc d LLL');
/** A 200-character guest name without a space: the API's maximum, the layouts' worst case. */
const LONG_NAME = `Maximiliane${'x'.repeat(180)}Longname`.slice(0, 200);
const LONG_EMAIL = `desk.${'y'.repeat(60)}@example.com`;

type Found = {
  bookingPage: {
    bookings: { id: string; guestName: string; startTime: string; objectId: string; totalPrice: number }[];
  };
};
/** The booking.rescheduled events delivered for one booking, in arrival order. */
const rescheduledOf = (bookingId: string) =>
  receiver
    .bodies()
    .filter((b) => b.type === 'booking.rescheduled' && (b.data.booking as { id: string }).id === bookingId);
const byEmail = (email: string) =>
  env.graphql<Found>(
    'query($e: String) { bookingPage(guestEmail: $e, pageSize: 100) { bookings { id guestName startTime objectId totalPrice } } }',
    { e: email },
  );

beforeAll(async () => {
  await receiver.start();
  await env.start({}, { runDatabase: true });
  await env.graphql(
    'mutation($u: String!) { createWebhook(url: $u, events: ["booking.rescheduled"], secret: "desk-test-secret-0123456789") { webhook { id } } }',
    {
      u: receiver.url('/desk'),
    },
  );
}, 900_000);

afterAll(async () => {
  await env.stop();
  await receiver.stop();
});

async function noHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `page is ${widths.scroll}px wide in a ${widths.client}px window`).toBeLessThanOrEqual(
    widths.client,
  );
}

async function openCalendar(page: Page, query = `?date=${DATE}`): Promise<void> {
  await page.goto(`${env.url}/dashboard/calendar${query}`);
  await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
}

const slot = (page: Page, object: string, hour: string, end: string) =>
  page.getByRole('button', { name: `${object}, ${DAY_LABEL}, ${hour} to ${end}, free: new booking`, exact: true });

describe('the front desk', () => {
  it(
    'takes a booking from a free calendar slot (a double click books once) and shows it on the calendar',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      // The navigation link, then the day.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar', exact: true }).click();
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await expect.poll(() => page.getByText(ZONE).first().isVisible()).toBe(true);
      await openCalendar(page);
      await slot(page, 'Court 1', '10:00', '11:00').click();

      const form = page.getByRole('form', { name: 'New booking' });
      await expect.poll(() => form.getByLabel('Start').inputValue()).toBe('10:00');
      // The alignment rule as a field message in the form's words (no "startTime", local times).
      await form.getByLabel('Start').fill('10:20');
      await expect
        .poll(() => form.locator('.field-error').first().textContent(), { timeout: UI_TIMEOUT })
        .toContain('60-minute grid');
      expect(await form.locator('.field-error').allTextContents()).not.toContain('startTime');
      await form.getByLabel('Start').fill('10:00');
      await form.getByLabel('End').fill('11:00');
      await form.getByLabel('Guest name').fill(LONG_NAME);
      await form.getByLabel('Email').fill(LONG_EMAIL);
      await form.getByLabel('Phone').fill('+49 30 1234567');
      // The live price preview (Court 1: €20.00 an hour, no rule at 10:00 on a weekday; +10 % at weekends).
      await expect.poll(() => form.getByText(/^Price:/).textContent(), { timeout: UI_TIMEOUT }).toMatch(/€2[02]\.00/);
      await form.getByRole('button', { name: 'Create booking' }).dblclick();
      await page.getByText('Booked:').waitFor();
      const made = (await byEmail(LONG_EMAIL)).bookingPage.bookings;
      expect(made).toHaveLength(1);
      expect(DateTime.fromISO(made[0].startTime, { zone: ZONE }).toFormat('yyyy-MM-dd HH:mm')).toBe(`${DATE} 10:00`);

      await page.getByRole('button', { name: 'Close' }).click();
      const booked = page.locator('.booking', { hasText: LONG_NAME.slice(0, 20) });
      await booked.waitFor();
      expect(await booked.getAttribute('class')).toContain('status-PENDING');
      // The slot it took is no longer offered.
      expect(await slot(page, 'Court 1', '10:00', '11:00').count()).toBe(0);

      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        await noHorizontalOverflow(page);
        await screenshot(page, `desk-calendar-day-${size}`);
        expect(await seriousViolations(page), `calendar day ${size}`).toEqual([]);
        await page.getByRole('button', { name: 'Week', exact: true }).click();
        await page.locator('.week-grid').waitFor();
        await expect.poll(() => page.locator('.week-bookings .booking').count()).toBeGreaterThan(0);
        await noHorizontalOverflow(page);
        await screenshot(page, `desk-calendar-week-${size}`);
        expect(await seriousViolations(page), `calendar week ${size}`).toEqual([]);
        await page.getByRole('button', { name: 'Day', exact: true }).click();
        await page.locator('.day-grid').waitFor();
        await page.getByRole('button', { name: 'New booking', exact: true }).click();
        await page.getByRole('form', { name: 'New booking' }).waitFor();
        await noHorizontalOverflow(page);
        await screenshot(page, `desk-new-booking-${size}`);
        expect(await seriousViolations(page), `new booking ${size}`).toEqual([]);
        await page.getByRole('form', { name: 'New booking' }).getByRole('button', { name: 'Cancel' }).click();
      }
      expect(problems).toEqual([]);
    },
  );

  it(
    'moves a booking by drag and by keyboard, showing the change first; booking.rescheduled is delivered',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await openCalendar(page);
      const booked = page.locator('.booking', { hasText: LONG_NAME.slice(0, 20) });
      await booked.waitFor();
      // Drag: Court 1 10:00 → Court 2 14:00.
      await booked.dragTo(slot(page, 'Court 2', '14:00', '15:00'));
      const change = page.getByRole('table', { name: 'What the move changes' });
      await change.waitFor();
      await expect.poll(() => change.getByRole('row', { name: /Object/ }).textContent()).toContain('Court 2');
      // Court 2 costs €24.00 an hour (Court 1 €20.00; +10 % at weekends): the new price is shown before saving.
      await expect
        .poll(() => change.getByRole('row', { name: /Price/ }).textContent(), { timeout: UI_TIMEOUT })
        .toMatch(/€2[02]\.00.*€2[46]\.\d0/);
      await screenshot(page, 'desk-move-preview-desktop');
      // The grid's refresh after a save is slow here (3 s, as on a loaded machine): the preview must
      // still close as soon as the move is saved, not when the refresh lands. (CI once waited on it,
      // and every slot still read "Move … to".)
      const slowRefresh = async (route: Route) => {
        if (route.request().postData()?.includes('DashboardCalendarBookings')) await sleep(3_000);
        await route.continue();
      };
      await page.route('**/api/v1/graphql', slowRefresh);
      await page.getByRole('button', { name: 'Save new time' }).click();
      // Saved: the preview closes and the slots stop offering "Move … to".
      await change.waitFor({ state: 'detached', timeout: 2_500 });
      expect(await page.getByText(/choose a free slot/).count()).toBe(0);
      // Lets the held refresh finish before the test goes on.
      await page.unrouteAll({ behavior: 'wait' });
      await expect
        .poll(async () => {
          const [b] = (await byEmail(LONG_EMAIL)).bookingPage.bookings;
          return `${b.objectId === env.seed.objectIds[1] ? 'Court 2' : 'Court 1'} ${DateTime.fromISO(b.startTime, { zone: ZONE }).toFormat('HH:mm')}`;
        })
        .toBe('Court 2 14:00');
      const bookingId = (await byEmail(LONG_EMAIL)).bookingPage.bookings[0].id;
      await expect.poll(() => rescheduledOf(bookingId).length, { timeout: UI_TIMEOUT }).toBe(1);
      expect(rescheduledOf(bookingId)[0]).toMatchObject({
        type: 'booking.rescheduled',
        data: { booking: { objectId: env.seed.objectIds[1] }, previous: { objectId: env.seed.objectIds[0] } },
      });

      // The keyboard alternative: "Move …", then a free slot, then save — no pointer.
      // The booking's own button ("Move <name>, 14:00 to 15:00"), not a slot's "Move <name> to …".
      const move = page.getByRole('button', { name: /^Move Maximiliane\S*, \d\d:\d\d to \d\d:\d\d$/ });
      await move.focus();
      await page.keyboard.press('Enter');
      await page.getByText(/choose a free slot/).waitFor();
      const target = page.getByRole('button', {
        name: new RegExp(`^Move Maximiliane\\S* to Court 2, ${DAY_LABEL}, 16:00 to 17:00$`),
      });
      await target.focus();
      // Arrow keys move within the column.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.getByRole('table', { name: 'What the move changes' }).waitFor();
      await page.getByRole('button', { name: 'Save new time' }).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(async () =>
          DateTime.fromISO((await byEmail(LONG_EMAIL)).bookingPage.bookings[0].startTime, { zone: ZONE }).toFormat(
            'HH:mm',
          ),
        )
        .toBe('16:00');
      await expect.poll(() => rescheduledOf(bookingId).length, { timeout: UI_TIMEOUT }).toBe(2);
      expect(problems).toEqual([]);
    },
  );

  it('reschedules from the booking page with a form, and edits the guest', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await env.newPage();
    await signIn(page, env.url, ADMIN);
    const id = env.seed.bookingIds.toConfirm;
    await page.goto(`${env.url}/dashboard/bookings/${id}`);
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Reschedule', exact: true }).click();
    const form = page.getByRole('form', { name: 'Reschedule booking' });
    await form.getByLabel('New start').fill('12:00');
    await form.getByLabel('New end').fill('13:30');
    await form.getByRole('button', { name: 'Show the change' }).click();
    const change = page.getByRole('table', { name: 'What the move changes' });
    await expect.poll(() => change.getByRole('row', { name: /Time/ }).textContent()).toContain('12:00–13:30');
    await expect
      .poll(() => change.getByRole('row', { name: /Price/ }).textContent(), { timeout: UI_TIMEOUT })
      .toMatch(/€\d+\.\d\d.*€3\d\.\d\d/);
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await noHorizontalOverflow(page);
      await screenshot(page, `desk-reschedule-form-${size}`);
      expect(await seriousViolations(page), `reschedule form ${size}`).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByRole('button', { name: 'Save new time' }).click();
    await page.getByText('Rescheduled.').waitFor();
    await expect.poll(() => rescheduledOf(id).length, { timeout: UI_TIMEOUT }).toBe(1);
    const [event] = rescheduledOf(id);
    expect(
      DateTime.fromISO((event?.data.booking as { startTime: string }).startTime, { zone: ZONE }).toFormat('HH:mm'),
    ).toBe('12:00');

    await page.getByRole('button', { name: 'Edit guest' }).click();
    const guest = page.getByRole('form', { name: 'Edit guest' });
    await guest.getByLabel('Email').fill('not an email');
    await guest.getByRole('button', { name: 'Save guest' }).click();
    await expect.poll(() => guest.locator('.field-error').first().textContent()).toContain('valid email');
    await guest.getByLabel('Email').fill('ada.lovelace@example.com');
    await guest.getByRole('button', { name: 'Save guest' }).click();
    await expect.poll(() => page.getByText('ada.lovelace@example.com').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it(
    'searches by a name fragment, exports the filtered list as CSV, and the To day is included (bug 4)',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/bookings`);
      await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
      const results = page.getByRole('region', { name: 'Bookings' });
      await results.waitFor();

      // Bug 4: From = To = the day of Alan Turing's booking (09:00 Berlin) shows it.
      const alan = (await byEmail('alan@example.com')).bookingPage.bookings[0];
      const alanDay = DateTime.fromISO(alan.startTime, { zone: ZONE }).toISODate() ?? '';
      await page.getByLabel('From').fill(alanDay);
      await page.getByLabel('To', { exact: true }).fill(alanDay);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect
        .poll(() => results.getByRole('link').allTextContents(), { timeout: UI_TIMEOUT })
        .toEqual(['Alan Turing']);

      // Search by a fragment of a name (server-side).
      await page.getByRole('button', { name: 'Clear' }).click();
      // Clear navigates; typing before it lands would be reset with the rest of the form.
      await expect.poll(() => new URL(page.url()).search, { timeout: UI_TIMEOUT }).not.toContain('from=');
      await expect.poll(() => results.getByRole('link').count(), { timeout: UI_TIMEOUT }).toBeGreaterThan(1);
      await page.getByLabel('Search bookings').fill('ovela');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => page.url(), { timeout: UI_TIMEOUT }).toContain('search=ovela');
      await expect
        .poll(() => results.getByRole('link').allTextContents(), { timeout: UI_TIMEOUT })
        .toEqual(['Ada Lovelace']);
      await page.getByLabel('Search bookings').fill('a');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => page.url()).toContain('search=a');
      await expect.poll(() => results.getByRole('link').count(), { timeout: UI_TIMEOUT }).toBeGreaterThan(1);
      const listed = await results
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')?.split('/').pop()));

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('bookings.csv');
      const csv = await readFile((await download.path()) ?? '', 'utf8');
      const lines = csv.split('\r\n').filter(Boolean);
      expect(lines[0].split(',').slice(0, 3)).toEqual(['id', 'guest_name', 'guest_email']);
      expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(listed);

      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        await screenshot(page, `desk-bookings-search-${size}`);
        expect(await seriousViolations(page), `bookings search ${size}`).toEqual([]);
      }
      expect(problems).toEqual([]);
    },
  );

  it('exports the audit log as CSV', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await env.newPage();
    await signIn(page, env.url, ADMIN);
    await page.goto(`${env.url}/dashboard/admin/team`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    const [header, ...rows] = csv.split('\r\n').filter(Boolean);
    expect(header).toBe('id,occurred_at,actor_type,actor_id,actor,action,target_type,target_id,ip,details');
    expect(rows.some((r) => r.includes('session.signed_in'))).toBe(true);
    expect(rows.some((r) => r.includes('booking.guest_updated'))).toBe(true);
    expect(problems).toEqual([]);
  });
});
