import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { DASHBOARD_CSP, DASHBOARD_DIST } from '../src/transport/http/dashboard.js';
import { ensureDashboardBuilt } from './e2e/dashboard-env.js';

// How Portier serves the dashboard's built files (the pages themselves: test/e2e/).

let h: Harness;
beforeAll(async () => {
  await ensureDashboardBuilt();
  h = await harness();
}, 300_000);

describe('the dashboard is served at /dashboard', () => {
  it('answers every page address with the app, under a strict CSP', async () => {
    expect(existsSync(`${DASHBOARD_DIST}index.html`)).toBe(true);
    for (const url of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/login',
      '/dashboard/bookings/123',
      '/dashboard/admin/api-keys',
    ]) {
      const res = await h.request({ method: 'GET', url });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toContain('<div id="root"></div>');
    }
  });

  it('the page loads only its own assets: no inline script or style, nothing from another host', async () => {
    const page = await h.request({ method: 'GET', url: '/dashboard/' });
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style/);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const url of assets) {
      const res = await h.request({ method: 'GET', url });
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
    }
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
  });

  it('never serves files outside the build; addresses that are no page are JSON 404s', async () => {
    const traversal = await h.request({ method: 'GET', url: '/dashboard/assets/..%2f..%2fpackage.json' });
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(traversal.text).not.toContain('"dependencies"');
    const missing = await h.request({ method: 'GET', url: '/dashboard/assets/nope.js' });
    expect(missing.status).toBe(404);
    for (const url of ['/dashboard/api/nothing-here', '/dashboard/no/such/page', '/dashboard/index.html']) {
      const res = await h.request({ method: 'GET', url });
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
  });
});
