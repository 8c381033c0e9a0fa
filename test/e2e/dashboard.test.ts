import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Receiver } from '../receiver.js';
import {
  ADMIN,
  DashboardEnv,
  fetchPatiently,
  STAFF,
  UI_TIMEOUT,
  VIEWPORTS,
  screenshot,
  seriousViolations,
  signIn,
} from './dashboard-env.js';

// The dashboard in a real Chromium against a real server (see dashboard-env.ts).

const env = new DashboardEnv();
const receiver = new Receiver();
const TEST_TIMEOUT = 180_000;

beforeAll(async () => {
  await receiver.start();
  await env.start();
}, 300_000);

afterAll(async () => {
  await env.stop();
  await receiver.stop();
});

/** Presses Tab until the focused element's accessible text matches; fails after `limit` presses. */
async function tabTo(page: Page, name: string | RegExp, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el) return '';
      const labelled = el instanceof HTMLInputElement && el.labels?.[0] ? el.labels[0].textContent : null;
      return (labelled ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
    });
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/** Follows a link of the main navigation. */
async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe('dashboard sign-in', () => {
  it('refuses a wrong password, signs in, and signs out', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await env.newPage();
    await page.goto(`${env.url}/dashboard/`);
    // Not signed in: the app sends the visitor to the sign-in page.
    await page.waitForURL('**/dashboard/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: UI_TIMEOUT })
      .toContain('The email or password is not correct');
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);

    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'portier_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Signed out for real: a reload stays on the sign-in page.
    await page.goto(`${env.url}/dashboard/bookings`);
    await page.waitForURL('**/dashboard/login');
    expect(problems).toEqual([]);
  });

  it('keyboard alone signs in and creates an API key', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await env.newPage();
    await page.goto(`${env.url}/dashboard/login`);
    await page.getByLabel('Email').waitFor();
    // The Email field has focus on arrival.
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    await tabTo(page, 'API Keys');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
    await tabTo(page, 'Name');
    await page.keyboard.type('Keyboard key');
    await tabTo(page, 'bookings:read');
    await page.keyboard.press('Space');
    await tabTo(page, 'Create API key');
    await page.keyboard.press('Enter');
    const key = await page.locator('.secret-value').textContent({ timeout: UI_TIMEOUT });
    expect(key).toMatch(/^svc_/);
    expect(problems).toEqual([]);
  });
});

describe('dashboard admin flows', () => {
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ page, problems } = await env.newPage());
    await signIn(page, env.url, ADMIN);
  }, 120_000);

  it('creates an API key that works against REST with exactly its scopes', { timeout: TEST_TIMEOUT }, async () => {
    await openPage(page, 'API Keys');
    const form = page.getByRole('form', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('Booking website');
    await form.getByRole('checkbox', { name: 'bookings:read', exact: true }).check();
    await form.getByRole('checkbox', { name: 'catalog:read', exact: true }).check();
    await form.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.locator('.secret-value').textContent()) ?? '';
    expect(key).toMatch(/^svc_/);
    await page.getByRole('row').filter({ hasText: 'Booking website' }).waitFor();

    const bookings = await fetchPatiently(`${env.url}/api/v1/tenants/${env.seed.tenantId}/bookings`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bookings.status).toBe(200);
    expect(((await bookings.json()) as { pagination: { total: number } }).pagination.total).toBeGreaterThanOrEqual(3);
    const webhooks = await fetchPatiently(`${env.url}/api/v1/tenants/${env.seed.tenantId}/webhooks`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(webhooks.status).toBe(403);

    // Revoked in the browser: the key stops working.
    const row = page.getByRole('row').filter({ hasText: 'Booking website' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText('revoked').waitFor();
    const after = await fetchPatiently(`${env.url}/api/v1/tenants/${env.seed.tenantId}/bookings`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(after.status).toBe(401);
    expect(problems).toEqual([]);
  });

  it('registers a device whose code activates it', { timeout: TEST_TIMEOUT }, async () => {
    await openPage(page, 'Devices');
    const form = page.getByRole('form', { name: 'Register a device' });
    await form.getByLabel('Name').fill('Main entrance controller');
    await form.getByRole('checkbox', { name: 'Main gate', exact: true }).check();
    await form.getByRole('button', { name: 'Register device' }).click();
    const code = ((await page.locator('.secret-value').textContent()) ?? '').trim();
    expect(code.length).toBeGreaterThan(5);

    const activation = await fetchPatiently(`${env.url}/api/devices/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ activation_code: code, serial: 'RPI-0001', firmware_version: '1.4.2' }),
    });
    expect(activation.status).toBe(200);
    const { device_id: deviceId, device_key: deviceKey } = (await activation.json()) as {
      device_id: string;
      device_key: string;
    };
    const heartbeat = await fetchPatiently(`${env.url}/api/devices/${deviceId}/heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${deviceKey}` },
      body: JSON.stringify({
        cpu_percent: 12,
        memory_percent: 40,
        wifi_signal_dbm: -58,
        door_states: { [env.seed.doorIds[0]]: 'locked' },
      }),
    });
    expect(heartbeat.status).toBe(200);

    await page.reload();
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Main entrance controller' }) });
    await card.getByText('online').waitFor();
    await card.getByText('RPI-0001').waitFor();
    expect(problems).toEqual([]);
  });

  it('creates a webhook and shows its test delivery in the log', { timeout: TEST_TIMEOUT }, async () => {
    await openPage(page, 'Webhooks');
    const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url('/portier'));
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const row = page.getByRole('row').filter({ hasText: receiver.url('/portier') });
    await row.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event delivered').waitFor();
    await receiver.received(1);
    expect(receiver.bodies()[0].type).toBe('webhook.test');

    await row.getByRole('link', { name: 'Delivery log' }).click();
    const delivery = page.getByRole('row').filter({ hasText: 'webhook.test' });
    await delivery.getByText('succeeded').waitFor();
    await delivery.getByRole('button', { name: '1 attempt' }).click();
    await page.getByText(/Attempt 1 .* HTTP 204/).waitFor();
    expect(problems).toEqual([]);
  });

  it('confirms one booking and cancels another after showing the refund', { timeout: TEST_TIMEOUT }, async () => {
    await openPage(page, 'Bookings');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('button', { name: 'Complete booking' }).waitFor();
    const confirmed = await env.graphql<{ booking: { status: string } }>(
      'query($id: ID!) { booking(id: $id) { status } }',
      { id: env.seed.bookingIds.toConfirm },
    );
    expect(confirmed.booking.status).toBe('CONFIRMED');

    await openPage(page, 'Bookings');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    // What the guest gets back shows before anything changes; this booking was never paid (issue #26:
    // no "€0.00 refund"), so the dialog says nothing was paid.
    const refund = page.locator('.refund');
    await expect.poll(() => refund.textContent(), { timeout: UI_TIMEOUT }).toContain('Nothing was paid');
    const pending = await env.graphql<{ booking: { status: string } }>(
      'query($id: ID!) { booking(id: $id) { status } }',
      { id: env.seed.bookingIds.toCancel },
    );
    expect(pending.booking.status).toBe('PENDING');
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.getByText('refunded', { exact: false }).first().waitFor();
    const cancelled = await env.graphql<{ booking: { status: string; refundAmount: number } }>(
      'query($id: ID!) { booking(id: $id) { status refundAmount } }',
      {
        id: env.seed.bookingIds.toCancel,
      },
    );
    expect(cancelled.booking.status).toBe('CANCELLED');

    // The webhook made by the test before receives both events; Ada's page lists hers.
    await receiver.received(3);
    expect(receiver.bodies().map((b) => b.type)).toEqual(
      expect.arrayContaining(['booking.confirmed', 'booking.cancelled']),
    );
    await page.goto(`${env.url}/dashboard/bookings/${env.seed.bookingIds.toConfirm}`);
    await page.getByRole('row').filter({ hasText: 'booking.confirmed' }).first().waitFor();
    expect(problems).toEqual([]);
  });
});

describe('dashboard as staff', () => {
  it(
    'shows no API Keys link, and the GraphQL behind the page is refused with 403',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, STAFF);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Bookings' }).waitFor();
      expect(await nav.getByRole('link', { name: 'API Keys' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);

      // The same call the API Keys page makes, with the staff session's cookie and CSRF token.
      const answer = await page.evaluate(async () => {
        const session = (await (await fetch('/dashboard/api/session')).json()) as { csrfToken: string };
        const response = await fetch('/api/v1/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: JSON.stringify({ query: '{ apiKeys { id name } }' }),
        });
        return { status: response.status, body: await response.text() };
      });
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('Booking website');

      // Opening the page by its address shows the refusal, not the keys.
      await page.goto(`${env.url}/dashboard/admin/api-keys`);
      await page.getByRole('alert').filter({ hasText: 'Not allowed' }).waitFor();
      expect(problems).toEqual([]);
    },
  );
});

describe('dashboard pages', () => {
  it(
    'every page passes axe (no serious or critical violation) and is captured at 1280 and 390 px',
    { timeout: 600_000 },
    async () => {
      const { webhooks } = await env.graphql<{ webhooks: { id: string }[] }>('{ webhooks { id } }');
      const pages: { name: string; path: string; heading: string }[] = [
        { name: 'overview', path: '/dashboard/', heading: 'Overview' },
        { name: 'bookings', path: '/dashboard/bookings', heading: 'Bookings' },
        {
          name: 'booking-detail',
          path: `/dashboard/bookings/${env.seed.bookingIds.toConfirm}`,
          heading: 'Ada Lovelace',
        },
        { name: 'catalog', path: '/dashboard/catalog', heading: 'Catalog' },
        { name: 'catalog-object', path: `/dashboard/catalog/objects/${env.seed.objectIds[0]}`, heading: 'Court 1' },
        { name: 'pricing', path: '/dashboard/pricing', heading: 'Pricing' },
        { name: 'api-keys', path: '/dashboard/admin/api-keys', heading: 'API Keys' },
        { name: 'devices', path: '/dashboard/admin/devices', heading: 'Devices' },
        { name: 'webhooks', path: '/dashboard/admin/webhooks', heading: 'Webhooks' },
        {
          name: 'webhook-deliveries',
          path: `/dashboard/admin/webhooks/${webhooks[0]?.id ?? 'none'}`,
          heading: 'Webhook deliveries',
        },
        { name: 'team', path: '/dashboard/admin/team', heading: 'Team' },
        { name: 'oauth-apps', path: '/dashboard/admin/oauth-apps', heading: 'OAuth Apps' },
        { name: 'connected-apps', path: '/dashboard/admin/connected-apps', heading: 'Connected apps' },
        { name: 'not-found', path: '/dashboard/admin/no-such-page', heading: 'Page not found' },
      ];
      const violations: string[] = [];
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const signedOut = await env.newPage(viewport);
        await signedOut.page.goto(`${env.url}/dashboard/login`);
        await signedOut.page.getByRole('button', { name: 'Sign in' }).waitFor();
        await screenshot(signedOut.page, `login-${size}`);
        violations.push(...(await seriousViolations(signedOut.page)).map((v) => `login ${size}: ${v}`));

        const { page, problems } = await env.newPage(viewport);
        await signIn(page, env.url, ADMIN);
        for (const target of pages) {
          await page.goto(`${env.url}${target.path}`);
          await page.getByRole('heading', { name: target.heading, level: 1 }).waitFor();
          // Every section has loaded (no spinner left).
          await expect.poll(() => page.locator('.loading').count(), { timeout: UI_TIMEOUT }).toBe(0);
          await screenshot(page, `${target.name}-${size}`);
          violations.push(...(await seriousViolations(page)).map((v) => `${target.name} ${size}: ${v}`));
        }
        if (size === 'mobile') {
          // The navigation folds behind the Menu button on a phone.
          await page.getByRole('button', { name: 'Menu' }).click();
          await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookings' }).waitFor();
          await screenshot(page, `menu-open-${size}`);
          violations.push(...(await seriousViolations(page)).map((v) => `menu ${size}: ${v}`));
        }
        expect(problems).toEqual([]);
        expect(signedOut.problems).toEqual([]);
      }
      expect(violations).toEqual([]);
    },
  );
});
