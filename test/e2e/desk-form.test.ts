import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { ADMIN, DashboardEnv, UI_TIMEOUT, screenshot, seriousViolations, signIn } from './dashboard-env.js';

// The New booking form after a refusal (issue #41, the front desk's own fixes), in a real Chromium
// at desktop width, on the run's database: a corrected request books (a new Idempotency-Key, not
// "used with a different request"), "Confirm now" books CONFIRMED, and a guest name over 200
// characters gets the API's message beside the field instead of being cut.

const env = new DashboardEnv();
const TEST_TIMEOUT = 240_000;
const ZONE = 'Europe/Berlin';
/** Two days ahead in the venue: every hour is bookable (the seed opens 00:00–24:00). */
const day = DateTime.now().setZone(ZONE).plus({ days: 2 }).startOf('day');
const DATE = day.toISODate() ?? '';
const DAY_LABEL = day.toFormat('ccc d LLL');
const EMAIL = 'front.desk.41@example.com';

beforeAll(async () => {
  await env.start({}, { runDatabase: true });
}, 900_000);

afterAll(async () => {
  await env.stop();
});

const slot = (page: Page, object: string, hour: string, end: string) =>
  page.getByRole('button', { name: `${object}, ${DAY_LABEL}, ${hour} to ${end}, free: new booking`, exact: true });

/** Clicks Create and waits for the server's answer to that createBooking. */
async function create(page: Page): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/v1/graphql') && (r.request().postData() ?? '').includes('DashboardDeskCreateBooking'),
    { timeout: UI_TIMEOUT },
  );
  await page.getByRole('form', { name: 'New booking' }).getByRole('button', { name: 'Create booking' }).click();
  await answered;
}

const booked = async () =>
  (
    await env.graphql<{ bookingPage: { bookings: { guestName: string; status: string; startTime: string }[] } }>(
      'query($e: String) { bookingPage(guestEmail: $e, pageSize: 100) { bookings { guestName status startTime } } }',
      { e: EMAIL },
    )
  ).bookingPage.bookings;

describe('the New booking form after a refusal', () => {
  it(
    'books the corrected request, confirmed at once; a name over 200 characters is refused beside the field',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/calendar?date=${DATE}`);
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await slot(page, 'Court 1', '10:00', '11:00').click();
      const form = page.getByRole('form', { name: 'New booking' });
      await expect.poll(() => form.getByLabel('Start').inputValue()).toBe('10:00');
      await form.getByLabel('Guest name').fill('Hedy Lamarr');
      await form.getByLabel('Email').fill(EMAIL);

      // 1. Refused by the server (off the hour grid), then corrected: the corrected request books.
      await form.getByLabel('Start').fill('10:20');
      await create(page);
      await expect
        .poll(() => form.locator('.field-error').first().textContent(), { timeout: UI_TIMEOUT })
        .toContain('60-minute grid');
      expect(await booked()).toEqual([]);
      await form.getByLabel('Start').fill('10:00');
      await form.getByLabel('End').fill('11:00');
      await create(page);
      const status = page.getByRole('status').filter({ hasText: 'Booked:' });
      await status.waitFor();
      expect(await status.textContent()).toContain('pending');
      expect(await page.getByText('Idempotency-Key').count()).toBe(0);
      const first = await booked();
      expect(first.map((b) => [b.guestName, b.status])).toEqual([['Hedy Lamarr', 'PENDING']]);
      expect(DateTime.fromISO(first[0].startTime, { zone: ZONE }).toFormat('yyyy-MM-dd HH:mm')).toBe(`${DATE} 10:00`);

      // 3. A name over the limit is sent whole and refused beside the field, not cut to 200.
      await page.getByRole('button', { name: 'Book another' }).click();
      await form.getByLabel('Start').fill('12:00');
      await form.getByLabel('End').fill('13:00');
      const nameField = form.getByLabel('Guest name');
      const tooLong = `Annemarie ${'Longname'.repeat(24)} Extra`; // 200 + 9 characters
      expect(tooLong.length).toBeGreaterThan(200);
      await nameField.fill(tooLong);
      expect((await nameField.inputValue()).length).toBe(tooLong.length);
      await form.getByText(`Up to 200 characters (now ${tooLong.length})`).waitFor();
      await form.getByLabel('Email').fill(EMAIL);
      await create(page);
      const nameError = form.locator('.field', { has: page.getByLabel('Guest name') }).locator('.field-error');
      await expect.poll(() => nameError.textContent(), { timeout: UI_TIMEOUT }).toContain('at most 200 characters');
      expect(await nameField.getAttribute('aria-invalid')).toBe('true');
      expect(await booked()).toHaveLength(1);
      await screenshot(page, 'desk-form-name-too-long-desktop');
      expect(await seriousViolations(page)).toEqual([]);

      // 2. Shortened (again a new request, so again a new key) and confirmed in one step.
      await nameField.fill('Annemarie Longname');
      await form.getByLabel('Confirm now').check();
      await screenshot(page, 'desk-form-confirm-now-desktop');
      await create(page);
      await status.waitFor();
      expect(await status.textContent()).toContain('confirmed');
      await screenshot(page, 'desk-form-booked-confirmed-desktop');
      const both = await booked();
      expect(both.map((b) => [b.guestName, b.status]).sort()).toEqual([
        ['Annemarie Longname', 'CONFIRMED'],
        ['Hedy Lamarr', 'PENDING'],
      ]);
      expect(problems).toEqual([]);
    },
  );
});
