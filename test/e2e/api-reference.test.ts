import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { harness, type Harness } from '../harness.js';
import { launchBrowser } from './browser.js';
import { SCREENSHOTS, UI_TIMEOUT, VIEWPORTS } from './dashboard-env.js';

// The API reference (/api/docs, rendered by Scalar from the bundle Portier serves) in a real
// Chromium against the in-process app, at a desktop and a phone width: the search finds
// operations, operations have curl samples, the page never scrolls sideways at 390 px, an
// operation's link shows it, and nothing is loaded from (or attempted towards) another host.
let h: Harness;
let base: string;
let browser: Browser;

beforeAll(async () => {
  h = await harness();
  base = await h.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe('the API reference page', () => {
  it('is served with a strict Content-Security-Policy: this host only, no inline script', async () => {
    const page = await h.request({ method: 'GET', url: '/api/docs' });
    expect(page.status).toBe(200);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(page.text).toContain('src="/api/docs/scalar.js"');
    expect(page.text).not.toMatch(/<script>[^<]/);
    const bundle = await h.request({ method: 'GET', url: '/api/docs/scalar.js' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toContain('text/javascript');
    expect(bundle.text).toContain('@scalar/api-reference');
  });

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    it(
      `searches, shows curl samples and fits at ${viewport.width} px; no request leaves the host`,
      { timeout: 300_000 },
      async () => {
        const context = await browser.newContext({ viewport });
        const origin = new URL(base).origin;
        const foreign: string[] = [];
        const violations: string[] = [];
        await context.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
          foreign.push(url);
          return route.abort();
        });
        const page = await context.newPage();
        page.setDefaultTimeout(UI_TIMEOUT * 2);
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        await page.goto(`${base}/api/docs`);
        await page.getByRole('heading', { name: 'Portier API' }).waitFor();
        await screenshot(page, `api-reference-${size}`);

        // The search finds operations by words of their summary and path.
        // At 390 px the sidebar (and its search field) is behind the menu button, top left.
        if (viewport.width < 800) await page.locator('button.scalar-icon-button').first().click();
        await page.getByText('Search', { exact: true }).first().click();
        const search = page.getByRole('combobox', { name: 'Enter search query' });
        await search.waitFor();
        await search.fill('deliveries');
        // By attribute, not `#id`: Scalar's ids are random and may start with a digit, which a CSS id
        // selector cannot (about one run in six failed with "is not a valid selector").
        const results = page.locator(`[id="${await search.getAttribute('aria-controls')}"]`);
        await results.getByText('Delivery log of a subscription').waitFor();
        await expect.poll(() => results.getByText('Create a booking').count()).toBe(0);
        await screenshot(page, `api-reference-${size}-search`);
        await search.fill('create booking');
        await results.getByText('Create a booking').first().waitFor();
        await results.getByText('Create a booking').first().click();
        await expect.poll(() => page.url()).toContain('#');
        await page.getByRole('heading', { name: 'Create a booking' }).first().waitFor({ state: 'visible' });
        await screenshot(page, `api-reference-${size}-operation`);

        // Its curl sample (Scalar draws the samples of the operations in view; the tags before
        // bookings, such as booking-page, come first): its path, the bearer key and a JSON body from the schema.
        const samples = page.locator('pre, code').filter({ hasText: /^curl / });
        await samples.first().waitFor();
        let texts: string[] = [];
        let create: string | undefined;
        await expect
          .poll(async () => {
            texts = await samples.allTextContents();
            create = texts.find(
              (t) => t.includes('/bookings') && t.includes('--request POST') && t.includes('guestEmail'),
            );
            return create !== undefined;
          })
          .toBe(true);
        expect(create, texts.slice(0, 5).join('\n---\n')).toBeDefined();
        expect(create).toContain('/api/v1/tenants/');
        expect(create).toMatch(/--header 'Authorization: Bearer [A-Z_]+'/);
        expect(create).toContain("--header 'Content-Type: application/json'");

        // No sideways scrolling of the page; wide code scrolls inside its block.
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(viewport.width);

        // An operation's link (as the search just followed) opens the page on it, in view.
        const link = page.url();
        await page.goto('about:blank');
        await page.goto(link);
        const heading = page.getByRole('heading', { name: 'Create a booking' }).first();
        await heading.waitFor({ state: 'visible' });
        await expect.poll(async () => (await heading.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
        expect((await heading.boundingBox())?.y ?? Infinity).toBeLessThan(viewport.height);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        expect(foreign).toEqual([]);
        expect(violations).toEqual([]);
        await context.close();
      },
    );
  }
});

async function screenshot(page: import('playwright-core').Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
