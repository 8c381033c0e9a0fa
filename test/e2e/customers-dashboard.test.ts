import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { DashboardEnv, STAFF, VIEWPORTS, screenshot, seriousViolations, signIn } from './dashboard-env.js';

// Issue #43: the Customers page. A real server (dist/) and dashboard: two bookings by one guest
// (email in two cases) and one by a duplicate record; staff find the guest from the booking detail,
// see the bookings and total, edit the notes, merge the duplicate and erase the customer, at 1280
// and 390 px with no serious axe violation. Screenshots in test-results/screenshots/.

const TEST_TIMEOUT = 240_000;
const env = new DashboardEnv();
const booked: string[] = [];

async function book(hour: number, name: string, email: string): Promise<string> {
  const start = DateTime.now().setZone('Europe/Berlin').startOf('day').plus({ days: 9 }).set({ hour });
  const { createBooking } = await env.graphql<{ createBooking: { booking: { id: string } } }>(
    'mutation($o: ID!, $s: DateTime!, $f: DateTime!, $n: String!, $m: String!) { createBooking(objectId: $o, guestName: $n, guestEmail: $m, startTime: $s, endTime: $f) { booking { id } } }',
    { o: env.seed.objectIds[0], s: start.toISO(), f: start.plus({ hours: 1 }).toISO(), n: name, m: email },
  );
  return createBooking.booking.id;
}

beforeAll(async () => {
  await env.start();
  booked.push(await book(9, 'Hedy Lamarr', 'hedy@example.com'));
  booked.push(await book(11, 'Hedy Lamarr', 'HEDY@example.com'));
  booked.push(await book(13, 'Hedy L.', 'hedy.l@example.com'));
}, 360_000);

afterAll(() => env.stop());

describe('the Customers page', () => {
  it(
    'lists and searches customers, opens one from its booking, at 1280 and 390 px (axe clean)',
    { timeout: TEST_TIMEOUT },
    async () => {
      const found: string[] = [];
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const { page, problems } = await env.newPage(viewport);
        await signIn(page, env.url, STAFF);
        await page.goto(`${env.url}/dashboard/customers`);
        await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
        await page.getByRole('link', { name: 'Hedy Lamarr' }).waitFor();
        await page.getByRole('searchbox', { name: 'Search customers' }).fill('hedy');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.getByText('2 customers').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, size).toBeLessThanOrEqual(0);
        found.push(...(await seriousViolations(page)).map((v) => `${size} list: ${v}`));
        await screenshot(page, `customers-${size}`);

        // From the booking detail to the customer.
        await page.goto(`${env.url}/dashboard/bookings/${booked[0]}`);
        await page.getByRole('link', { name: 'Customer record' }).click();
        await page.getByRole('heading', { name: 'Hedy Lamarr', level: 1 }).waitFor();
        await page.getByRole('region', { name: "The customer's bookings" }).waitFor();
        expect(await page.getByRole('region', { name: "The customer's bookings" }).getByRole('row').count()).toBe(3);
        found.push(...(await seriousViolations(page)).map((v) => `${size} detail: ${v}`));
        await screenshot(page, `customer-detail-${size}`);
        expect(problems).toEqual([]);
      }
      expect(found).toEqual([]);
    },
  );

  it(
    'edits notes, merges the duplicate and erases the customer with a confirm',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page } = await env.newPage(VIEWPORTS.desktop);
      await signIn(page, env.url, STAFF);
      await page.goto(`${env.url}/dashboard/bookings/${booked[0]}`);
      await page.getByRole('link', { name: 'Customer record' }).click();
      await page.getByRole('heading', { name: 'Hedy Lamarr', level: 1 }).waitFor();
      await page.getByLabel('Notes').fill('Prefers court 1');
      await page.getByRole('button', { name: 'Save customer' }).click();
      await page.getByText('Saved.').waitFor();

      await page.getByLabel('Find a duplicate').fill('hedy.l');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: 'Merge into this customer' }).click();
      await page.getByRole('button', { name: 'Yes, merge' }).click();
      await page.getByText(/bookings moved here/).waitFor();
      await page.getByText('3 in all, newest first').waitFor();
      expect(await page.getByLabel('Notes').inputValue()).toBe('Prefers court 1');

      await page.getByRole('button', { name: 'Erase customer' }).click();
      await page.getByRole('button', { name: 'Yes, erase' }).click();
      await page.getByRole('heading', { name: 'Erased customer', level: 1 }).waitFor();
      await screenshot(page, 'customer-erased-desktop');
      const { booking } = await env.graphql<{ booking: { guestName: string; guestEmail: string } }>(
        'query($id: ID!) { booking(id: $id) { guestName guestEmail } }',
        { id: booked[2] },
      );
      expect(booking).toEqual({ guestName: 'Erased guest', guestEmail: 'erased@erased.invalid' });
    },
  );
});
