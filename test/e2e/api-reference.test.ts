import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { harness, type Harness } from '../harness.js';
import { launchBrowser } from './browser.js';
import { SCREENSHOTS, VIEWPORTS } from './dashboard-env.js';

// The API reference (/api/docs) in a real Chromium against the in-process app, at a desktop and a
// phone width: the search filters operations, each operation has a curl sample, the page never
// scrolls sideways at 390 px, the sticky header does not cover an anchored operation, and nothing
// is loaded from another host.
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
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    it(`searches, shows curl samples and fits at ${viewport.width} px; no request leaves the host`, { timeout: 240_000 }, async () => {
      const context = await browser.newContext({ viewport });
      const origin = new URL(base).origin;
      const foreign: string[] = [];
      const violations: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(`${base}/api/docs`);
      const search = page.getByRole('searchbox', { name: 'Search operations' });
      await search.waitFor();
      const operations = page.locator('section.op:not(.webhook)');
      const total = await operations.count();
      expect(total).toBeGreaterThan(30);

      // A curl sample with the bearer key and a JSON body built from the schema.
      const create = page.locator('section#createBooking');
      const sample = (await create.locator('pre.curl').textContent()) ?? '';
      expect(sample).toContain("curl -X POST '");
      expect(sample).toContain('/api/v1/tenants/{tenantId}/bookings');
      expect(sample).toContain("-H 'Authorization: Bearer $PORTIER_API_KEY'");
      expect(JSON.parse(/-d '([\s\S]*)'$/.exec(sample)![1])).toMatchObject({ guestEmail: 'guest@example.com', startTime: expect.any(String) });
      expect(await page.locator('pre.curl').count()).toBe(total);

      await screenshot(page, `api-reference-${size}`);
      await page.goto(`${base}/api/docs#createBooking`);
      await screenshot(page, `api-reference-${size}-operation`);
      await page.goto(`${base}/api/docs`);
      await search.waitFor();

      // The search filters operations (and their nav links).
      await search.fill('deliveries get');
      await page.waitForFunction((n) => document.querySelectorAll('section.op:not(.webhook):not([hidden])').length < n, total);
      const visible = await page.locator('section.op:not(.webhook):not([hidden])').evaluateAll((nodes) => nodes.map((n) => n.id));
      expect(visible.length).toBeGreaterThan(0);
      expect(visible).toContain('webhookDeliveries');
      expect(visible).not.toContain('createBooking');
      expect(await page.locator('#count').textContent()).toMatch(new RegExp(`^${visible.length} of ${total} operations$`));
      await screenshot(page, `api-reference-${size}-search`);
      await search.fill('no-such-operation-anywhere');
      await page.getByText('No operation matches.').waitFor();
      await search.fill('');
      await page.waitForFunction((n) => document.querySelectorAll('section.op:not(.webhook):not([hidden])').length === n, total);

      // No sideways scrolling of the page; wide code scrolls inside its block.
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(viewport.width);

      // Following an anchor puts the operation below the sticky header, not under it.
      await page.goto(`${base}/api/docs#updateBooking`);
      await page.locator('section#updateBooking').waitFor();
      const { headerBottom, sectionTop } = await page.evaluate(() => ({
        headerBottom: document.querySelector('header.top')!.getBoundingClientRect().bottom,
        sectionTop: document.getElementById('updateBooking')!.getBoundingClientRect().top,
      }));
      expect(sectionTop).toBeGreaterThanOrEqual(headerBottom);

      expect(foreign).toEqual([]);
      expect(violations).toEqual([]);
      await context.close();
    });
  }
});

async function screenshot(page: import('playwright-core').Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
