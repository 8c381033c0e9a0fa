import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { ADMIN, DashboardEnv, UI_TIMEOUT, screenshot, seriousViolations, signIn } from './dashboard-env.js';

// Recurring bookings at the desk (issue #43), in a real Chromium on the run's database: a weekly
// series is created from the calendar's New booking form, whose "Repeat" shows the conflict
// preview first (one week is already taken and is skipped); then one occurrence is moved from its
// booking page, which shows the series with "cancel this / following / all", and the series'
// invite lists the move as a RECURRENCE-ID.

const env = new DashboardEnv();
const TEST_TIMEOUT = 240_000;
const ZONE = 'Europe/Berlin';
const day = DateTime.now().setZone(ZONE).plus({ days: 2 }).startOf('day');
const DATE = day.toISODate() ?? '';
const DAY_LABEL = day.toFormat('ccc d LLL');
const EMAIL = 'weekly.43@example.com';

beforeAll(async () => {
  await env.start({}, { runDatabase: true });
}, 900_000);

afterAll(async () => {
  await env.stop();
});

interface Row {
  id: string;
  startTime: string;
  endTime: string;
  status: string;
  seriesId: string | null;
}

const booked = async () =>
  (
    await env.graphql<{ bookingPage: { bookings: Row[] } }>(
      'query($e: String) { bookingPage(guestEmail: $e, pageSize: 100) { bookings { id startTime endTime status seriesId } } }',
      { e: EMAIL },
    )
  ).bookingPage.bookings;

describe('a series from the calendar', () => {
  it(
    'previews the conflicts, books the free weeks, and one occurrence is moved from its page',
    { timeout: TEST_TIMEOUT },
    async () => {
      // The third week's 18:00 is already taken.
      const taken = day.plus({ weeks: 2 }).set({ hour: 18 });
      await env.graphql(
        'mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Taken", guestEmail: "taken@example.com", startTime: $s, endTime: $e) { booking { id } } }',
        { o: env.seed.objectIds[0], s: taken.toISO(), e: taken.plus({ hours: 1 }).toISO() },
      );

      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/calendar?date=${DATE}`);
      await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
      await page
        .getByRole('button', { name: `Court 1, ${DAY_LABEL}, 18:00 to 19:00, free: new booking`, exact: true })
        .click();
      const form = page.getByRole('form', { name: 'New booking' });
      await expect.poll(() => form.getByLabel('Start').inputValue()).toBe('18:00');
      await form.getByLabel('Guest name').fill('Weekly Wanda');
      await form.getByLabel('Email').fill(EMAIL);
      await form.getByLabel('Repeat').selectOption('weekly');
      // The date's own weekday is ticked; four times.
      expect(await form.getByLabel(day.toFormat('ccc'), { exact: true }).isChecked()).toBe(true);
      await form.getByLabel('Times').fill('4');
      const preview = page.getByRole('region', { name: 'Series preview' });
      await expect.poll(() => preview.textContent(), { timeout: UI_TIMEOUT }).toContain('3 free, 1 conflict');
      const rows = preview.getByRole('row');
      expect(await rows.count()).toBe(5);
      expect(await rows.nth(3).textContent()).toContain('conflict: slot unavailable');
      await screenshot(page, 'series-desk-preview-desktop');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await booked()).toEqual([]);

      const answered = page.waitForResponse(
        (r) => r.url().includes('/api/v1/graphql') && (r.request().postData() ?? '').includes('DashboardCreateSeries'),
        { timeout: UI_TIMEOUT },
      );
      await form.getByRole('button', { name: 'Create series' }).click();
      await answered;
      const status = page.getByRole('status').filter({ hasText: 'Series booked' });
      await status.waitFor();
      expect(await status.textContent()).toContain('3 bookings, 1 skipped');
      const occurrences = (await booked()).sort((a, b) => a.startTime.localeCompare(b.startTime));
      expect(occurrences).toHaveLength(3);
      const seriesId = occurrences[0]?.seriesId;
      expect(seriesId).toBeTruthy();
      expect(new Set(occurrences.map((b) => b.seriesId))).toEqual(new Set([seriesId]));
      expect(
        occurrences.map((b) => DateTime.fromISO(b.startTime, { zone: ZONE }).toFormat('yyyy-MM-dd HH:mm')),
      ).toEqual([0, 1, 3].map((w) => `${day.plus({ weeks: w }).toISODate()} 18:00`));

      // The second occurrence's page: the series, and moved an hour later.
      const second = occurrences[1];
      await page.goto(`${env.url}/dashboard/bookings/${second.id}`);
      await page.getByRole('heading', { name: 'Weekly Wanda', level: 1 }).waitFor();
      const panel = page.getByRole('region', { name: 'Series' });
      await panel.getByText(/Weekly on .* · 4 times/).waitFor();
      for (const label of ['Cancel this', 'Cancel following', 'Cancel all']) {
        await panel.getByRole('button', { name: label }).waitFor();
      }
      await page.getByRole('button', { name: 'Reschedule', exact: true }).click();
      const move = page.getByRole('form', { name: 'Reschedule booking' });
      await move.getByLabel('New start').fill('19:00');
      await move.getByLabel('New end').fill('20:00');
      await move.getByRole('button', { name: 'Show the change' }).click();
      await page.getByRole('button', { name: 'Save new time' }).click();
      await page.getByText('Rescheduled.').waitFor();
      await expect
        .poll(async () => {
          const row = (await booked()).find((b) => b.id === second.id);
          return row ? DateTime.fromISO(row.startTime, { zone: ZONE }).toFormat('HH:mm') : null;
        })
        .toBe('19:00');
      await expect
        .poll(() => panel.getByText('(this one)').textContent(), { timeout: UI_TIMEOUT })
        .toContain('19:00–20:00');
      await screenshot(page, 'series-desk-occurrence-moved-desktop');
      expect(await seriousViolations(page)).toEqual([]);

      const { bookingSeries } = await env.graphql<{ bookingSeries: { invite: string; rule: string } }>(
        'query($id: ID!) { bookingSeries(id: $id) { rule invite } }',
        { id: seriesId },
      );
      expect(bookingSeries.rule).toBe(`FREQ=WEEKLY;BYDAY=${day.toFormat('ccc').slice(0, 2).toUpperCase()};COUNT=4`);
      expect(bookingSeries.invite).toContain(
        `RECURRENCE-ID;TZID=${ZONE}:${day.plus({ weeks: 1 }).toFormat('yyyyMMdd')}T180000`,
      );
      expect(bookingSeries.invite).toContain(
        `EXDATE;TZID=${ZONE}:${day.plus({ weeks: 2 }).toFormat('yyyyMMdd')}T180000`,
      );
      expect(problems).toEqual([]);
    },
  );
});
