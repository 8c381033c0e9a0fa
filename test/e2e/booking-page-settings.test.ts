import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DashboardEnv, STAFF, VIEWPORTS, screenshot, seriousViolations, signIn } from './dashboard-env.js';
import { tempDir } from '../processes.js';

// Issue #41: the dashboard's "Booking page" (docs/booking-page.md, "Settings"): an admin switches
// the page on, picks its address, publishes an object, lists an origin, uploads a logo, sets the
// colour, language, VAT and texts in English and German, copies the widget snippet and makes the
// publishable key, in a real Chromium at 1280 and 390 px; then the key answers the public fields.
// A staff user is not shown the page. Screenshots go to test-results/screenshots/booking-page-*.

const TEST_TIMEOUT = 300_000;
const DOCS_SHOT = fileURLToPath(new URL('../../docs/booking-page-settings.png', import.meta.url));
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const env = new DashboardEnv();
let logoFile = '';

beforeAll(async () => {
  // PUBLIC_URL as a venue's would be (the dashboard itself is on the server's own address).
  await env.start({ PUBLIC_URL: 'https://portier.riverside.example' }, { runDatabase: true });
  logoFile = join(tempDir('logo'), 'logo.png');
  writeFileSync(logoFile, PNG);
}, 360_000);

afterAll(async () => {
  await env.stop();
});

describe('the Booking page in the dashboard', () => {
  it(
    'an admin sets the page up, publishes an object, copies the snippet and makes the publishable key (1280 and 390 px)',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage(VIEWPORTS.desktop);
      await signIn(page, env.url, ADMIN);
      await page.getByRole('link', { name: 'Booking page' }).click();
      await page.getByRole('heading', { name: 'Booking page', level: 1 }).waitFor();
      // The address is suggested from the venue's name and shown as the page's full address.
      const address = page.getByLabel('Address', { exact: true });
      expect(await address.inputValue()).toBe('riverside-tennis-club');
      await page.getByText(/\/book\/riverside-tennis-club$/).waitFor();
      // Online payment is not offered: the server has no Stripe.
      expect(await page.getByLabel('Online, required to book').isDisabled()).toBe(true);
      await screenshot(page, 'booking-page-empty-desktop');

      // A bad origin is refused next to its field; nothing is saved.
      await page.getByLabel('Booking page on').check();
      await page.getByLabel('Websites that may embed the widget').fill('http://www.riverside.example/path');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText(/must use https|must be an origin/).waitFor();

      await address.fill('riverside');
      await page.getByLabel('Websites that may embed the widget').fill('https://www.riverside.example');
      await page.getByRole('radio', { name: 'At the venue', exact: true }).check();
      await page.getByLabel('Default language').selectOption('DE');
      await page.getByLabel('VAT rate (%)').fill('19');
      await page.getByLabel('Accent colour').fill('#1a7f5a');
      await page.getByLabel('Logo').setInputFiles(logoFile);
      await page.getByAltText('Logo preview').waitFor();
      await page.getByLabel('Introduction (English)').fill('Book a court at Riverside in a minute.');
      await page.getByLabel('Cancellation policy (English)').fill('Free cancellation until 48 hours before.');
      await page.getByLabel('Introduction (German)').fill('Buchen Sie Ihren Platz in einer Minute.');
      await page.getByLabel('Cancellation policy (German)').fill('Kostenlose Stornierung bis 48 Stunden vorher.');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();

      // Publish Court 1.
      await page.getByRole('checkbox', { name: /Court 1/ }).check();
      await page.getByRole('button', { name: 'Save published objects' }).click();
      await page.getByText('Published objects saved.').waitFor();

      // The snippet with the page's address (PUBLIC_URL: the server's default, as the API says).
      const { bookingPageSettings: saved } = await env.graphql<{ bookingPageSettings: { url: string } }>(
        '{ bookingPageSettings { url } }',
      );
      const publicUrl = saved.url.replace(/\/book\/riverside$/, '');
      const snippet = `<script src="${publicUrl}/widget.js" data-venue="riverside" async></script>`;
      await page.getByText(snippet).waitFor();
      await page.getByText(`<iframe src="${publicUrl}/book/riverside?embed=1"`, { exact: false }).waitFor();

      // The publishable key.
      await page.getByRole('button', { name: 'Create publishable key' }).click();
      const keyText = page.locator('.snippet-code code', { hasText: /^svc_pk_/ });
      await keyText.waitFor();
      const key = (await keyText.textContent()) ?? '';
      expect(key).toMatch(/^svc_pk_[A-Za-z0-9_-]{43}$/);

      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'booking-page-desktop');
      // The docs' picture: the settings as the admin left them, at 1280 × 800.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: DOCS_SHOT });

      // Saved as set, through the API.
      const { bookingPageSettings, bookableObjects } = await env.graphql<{
        bookingPageSettings: Record<string, unknown>;
        bookableObjects: { name: string; published: boolean }[];
      }>(
        '{ bookingPageSettings { enabled slug paymentMode allowedOrigins accentColour defaultLocale vatRateBasisPoints logo texts { en { intro cancellationPolicy } de { intro } } } bookableObjects { name published } }',
      );
      expect(bookingPageSettings).toMatchObject({
        enabled: true,
        slug: 'riverside',
        paymentMode: 'AT_VENUE',
        allowedOrigins: ['https://www.riverside.example'],
        accentColour: '#1a7f5a',
        defaultLocale: 'DE',
        vatRateBasisPoints: 1900,
        logo: `data:image/png;base64,${PNG.toString('base64')}`,
        texts: {
          en: {
            intro: 'Book a court at Riverside in a minute.',
            cancellationPolicy: 'Free cancellation until 48 hours before.',
          },
          de: { intro: 'Buchen Sie Ihren Platz in einer Minute.' },
        },
      });
      expect(bookableObjects.map((o) => `${o.name} ${o.published}`).sort()).toEqual(['Court 1 true', 'Court 2 false']);

      // The key answers its fields: the published object only.
      const pub = await env.graphql<{ publicBookingPage: { slug: string }; publicObjects: { name: string }[] }>(
        '{ publicBookingPage { slug } publicObjects { name } }',
        {},
        key,
      );
      expect(pub).toEqual({ publicBookingPage: { slug: 'riverside' }, publicObjects: [{ name: 'Court 1' }] });

      // At 390 px, the same page after a reload (the saved values in the form).
      const phone = await env.newPage(VIEWPORTS.mobile);
      await signIn(phone.page, env.url, ADMIN);
      await phone.page.goto(`${env.url}/dashboard/admin/booking-page`);
      await phone.page.getByRole('heading', { name: 'Booking page', level: 1 }).waitFor();
      expect(await phone.page.getByLabel('Address', { exact: true }).inputValue()).toBe('riverside');
      await phone.page.getByText(snippet).waitFor();
      await phone.page.getByAltText('Logo preview').waitFor();
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(phone.page)).toEqual([]);
      await screenshot(phone.page, 'booking-page-mobile');

      expect([...problems, ...phone.problems]).toEqual([]);
    },
  );

  it('a staff user has no Booking page link and is told it is not allowed', { timeout: TEST_TIMEOUT }, async () => {
    const { page } = await env.newPage(VIEWPORTS.desktop);
    await signIn(page, env.url, STAFF);
    expect(await page.getByRole('link', { name: 'Booking page' }).count()).toBe(0);
    await page.goto(`${env.url}/dashboard/admin/booking-page`);
    await page
      .getByText(/not allowed/i)
      .first()
      .waitFor();
  });
});
