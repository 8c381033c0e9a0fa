import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { harness, type Harness } from '../harness.js';
import { launchBrowser } from './browser.js';
import { EXPLORER_CSP } from '../../src/transport/http/explorer.js';

// The GraphQL explorer (GraphiQL at /api/v1/graphql) in a real Chromium against the in-process
// app: it loads only from Portier, runs a query with a key typed into the header editor, and
// shows the answer.
let h: Harness;
let base: string;
let browser: Browser;

beforeAll(async () => {
  h = await harness();
  base = await h.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

describe('the GraphQL explorer', () => {
  it('a browser gets the page (strict CSP, no key needed); an API client still gets 401 without a key', async () => {
    const page = await h.request({
      method: 'GET',
      url: '/api/v1/graphql',
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toBe(EXPLORER_CSP);
    expect(EXPLORER_CSP).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const api = await h.request({ method: 'GET', url: '/api/v1/graphql?query=%7Bviewer%7Bname%7D%7D' });
    expect(api.status).toBe(401);
    const asset = await h.request({ method: 'GET', url: '/api/explorer/graphiql.js' });
    expect(asset.status).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/explorer/nope.js' })).status).toBe(404);
  });

  it(
    'runs a query with a key from the header editor and shows the answer; no request leaves the host',
    { timeout: 240_000 },
    async () => {
      const { apiKey } = await h.tenant('Explorer Venue');
      const context = await browser.newContext();
      const foreign: string[] = [];
      const violations: string[] = [];
      const origin = new URL(base).origin;
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(`${base}/api/v1/graphql`);
      // GraphiQL's editors are Monaco: type into the focused editors rather than fill() a textarea.
      const headersTab = page
        .getByRole('tab', { name: 'Headers' })
        .or(page.getByText('Headers', { exact: true }))
        .first();
      await headersTab.waitFor({ timeout: 120_000 });
      await headersTab.click();
      const headerEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
      await headerEditor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(`{"Authorization": "Bearer ${apiKey}"}`);
      const answer = page.waitForResponse(
        (r) =>
          r.url() === `${origin}/api/v1/graphql` &&
          r.request().method() === 'POST' &&
          (r.request().postData() ?? '').includes('viewer'),
      );
      await page
        .getByRole('button', { name: /execute query/i })
        .first()
        .click();
      const response = await answer;
      expect(response.status()).toBe(200);
      await page.locator('.graphiql-response').getByText('Explorer Venue').first().waitFor({ timeout: 60_000 });
      expect(foreign).toEqual([]);
      expect(violations.filter((v) => !/style/i.test(v))).toEqual([]);
      await context.close();
    },
  );
});
