import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { Receiver } from '../receiver.js';
import {
  ADMIN,
  DashboardEnv,
  STAFF,
  UI_TIMEOUT,
  VIEWPORTS,
  fetchPatiently,
  screenshot,
  seriousViolations,
  signIn,
} from './dashboard-env.js';

// The front desk's remaining work (#24), in a real Chromium, on the run's database (PGlite, or
// PostgreSQL when DATABASE_URL is set): each webhook delivery's request and response, the objects
// a pricing rule applies to, a device's command history, your own sessions, the cancellation
// policies' plain words, and every page axe-clean at 390 and 1280 px with a screenshot of each
// (test-results/screenshots/round2-*).

const env = new DashboardEnv();
const receiver = new Receiver();
const TEST_TIMEOUT = 240_000;
const SECRET = 'whsec_cm91bmQtdHdvLXNpZ25pbmctc2VjcmV0LXZhbHVl';
/** A receiver answer longer than the 4 KiB kept. */
const LONG_ANSWER = JSON.stringify({ received: true, echo: 'x'.repeat(6000) });

let webhookId = '';
let deviceId = '';
let deviceKey = '';

const deviceApi = (path: string, init: RequestInit = {}) =>
  fetchPatiently(`${env.url}/api/devices/${deviceId}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${deviceKey}`,
      ...(init.headers as Record<string, string> | undefined),
    },
  });

beforeAll(async () => {
  await receiver.start();
  receiver.reply = (request) =>
    request.path === '/round2'
      ? { status: 202, headers: { 'content-type': 'application/json', 'x-receiver': 'round2-ok' }, body: LONG_ANSWER }
      : { status: 204 };
  await env.start({}, { runDatabase: true });
  const { createWebhook } = await env.graphql<{ createWebhook: { webhook: { id: string } } }>(
    'mutation($u: String!, $s: String!) { createWebhook(url: $u, events: ["booking.created"], secret: $s) { webhook { id } } }',
    { u: receiver.url('/round2'), s: SECRET },
  );
  webhookId = createWebhook.webhook.id;
  const { registerDevice } = await env.graphql<{ registerDevice: { activationCode: string; device: { id: string } } }>(
    'mutation($d: [ID!]!) { registerDevice(name: "Court gate controller", doorIds: $d) { activationCode device { id } } }',
    { d: env.seed.doorIds },
  );
  deviceId = registerDevice.device.id;
  const activation = await fetchPatiently(`${env.url}/api/devices/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      activation_code: registerDevice.activationCode,
      serial: 'RPI-22',
      firmware_version: '1.2.0',
    }),
  });
  expect(activation.status).toBe(200);
  deviceKey = ((await activation.json()) as { device_key: string }).device_key;
}, 900_000);

afterAll(async () => {
  await env.stop();
  await receiver.stop();
});

describe('webhook deliveries: request and response', () => {
  it(
    'the delivery log shows what each attempt sent and the first 4 KiB of the answer, never the secret; GraphQL has them too',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/admin/webhooks/${webhookId}`);
      await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Send test' }).click();
      // Events of the setup's bookings may be listed too: open the test event's row.
      await page
        .getByRole('row')
        .filter({ hasText: 'webhook.test' })
        .getByRole('button', { name: '1 attempt' })
        .click();

      const request = page.getByRole('region', { name: 'Attempt 1: request', exact: true });
      const requestHeaders = request.getByLabel('Attempt 1: request headers');
      await requestHeaders.getByText('webhook-signature').waitFor();
      const sent = receiver.requests.find(
        (r) => r.path === '/round2' && (JSON.parse(r.body) as { type?: string }).type === 'webhook.test',
      );
      if (!sent) throw new Error('the receiver got nothing');
      expect(await requestHeaders.textContent()).toContain(String(sent.headers['webhook-id']));
      expect(await requestHeaders.textContent()).toContain(String(sent.headers['webhook-signature']));
      const requestBody = (await request.getByLabel('Attempt 1: request body').textContent()) ?? '';
      expect(JSON.parse(requestBody)).toEqual(JSON.parse(sent.body));

      const response = page.getByRole('region', { name: 'Attempt 1: response', exact: true });
      await response.getByRole('heading', { name: 'Response · HTTP 202' }).waitFor();
      expect(await response.getByLabel('Attempt 1: response headers').textContent()).toContain('round2-ok');
      await response.getByText('Only the first 4 KiB of the body is kept.').waitFor();
      const shownAnswer = (await response.getByLabel('Attempt 1: response body').textContent()) ?? '';
      expect(shownAnswer.startsWith(LONG_ANSWER.slice(0, 100))).toBe(true);
      expect(shownAnswer.length).toBeLessThanOrEqual(4096);

      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET.replace(/^whsec_/, ''));
      await screenshot(page, 'round2-webhook-exchange-desktop');
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);

      type Header = { name: string; value: string };
      const { webhookDeliveries } = await env.graphql<{
        webhookDeliveries: {
          deliveries: {
            eventType: string;
            requestHeaders: Header[];
            requestBody: string;
            responseStatus: number;
            responseHeaders: Header[];
            responseBody: string;
            attempts: { responseBodyTruncated: boolean; requestBody: string; responseBody: string }[];
          }[];
        };
      }>(
        'query($id: ID!) { webhookDeliveries(webhookId: $id) { deliveries { eventType requestHeaders { name value } requestBody responseStatus responseHeaders { name value } responseBody attempts { responseBodyTruncated requestBody responseBody } } } }',
        { id: webhookId },
      );
      const [delivery] = webhookDeliveries.deliveries;
      expect(delivery.eventType).toBe('webhook.test');
      expect(delivery.requestBody).toBe(sent.body);
      expect(delivery.responseStatus).toBe(202);
      expect(delivery.responseBody).toBe(LONG_ANSWER.slice(0, 4096));
      expect(delivery.attempts[0].responseBodyTruncated).toBe(true);
      expect(delivery.responseHeaders).toContainEqual({ name: 'x-receiver', value: 'round2-ok' });
      expect(delivery.requestHeaders.map((h) => h.name)).toEqual(
        expect.arrayContaining(['webhook-id', 'webhook-signature', 'webhook-timestamp', 'user-agent']),
      );
      expect(JSON.stringify(delivery)).not.toContain(SECRET.replace(/^whsec_/, ''));
    },
  );
});

describe('pricing rules: the objects they apply to', () => {
  it(
    'a rule created for one court lists it; edited to two, lists both; the API has the same ids',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/pricing`);
      const rules = page.getByRole('region', { name: 'Pricing rules' });
      // The seeded rules name no object: they apply to every object.
      await rules.getByRole('row').filter({ hasText: 'Evening peak' }).getByText('Every object').waitFor();

      await page.getByRole('button', { name: 'Add rule' }).click();
      const form = page.getByRole('form', { name: 'New pricing rule' });
      await form.getByLabel('Name').fill('Court 2 late');
      await form.getByLabel('Adjustment (%)').fill('15');
      await form.getByLabel('From (HH:MM)').fill('21:00');
      await form.getByLabel('Until (HH:MM)').fill('23:00');
      await form
        .getByRole('group', { name: 'Objects' })
        .getByRole('checkbox', { name: 'Court 2', exact: true })
        .check();
      await form.getByRole('button', { name: 'Create rule' }).click();
      const row = rules.getByRole('row').filter({ hasText: 'Court 2 late' });
      await row.getByRole('cell', { name: 'Court 2', exact: true }).waitFor();

      await row.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('form', { name: 'Edit Court 2 late' });
      const objects = edit.getByRole('group', { name: 'Objects' });
      expect(await objects.getByRole('checkbox', { name: 'Court 2', exact: true }).isChecked()).toBe(true);
      expect(await objects.getByRole('checkbox', { name: 'Court 1', exact: true }).isChecked()).toBe(false);
      await objects.getByRole('checkbox', { name: 'Court 1', exact: true }).check();
      await edit.getByRole('button', { name: 'Save rule' }).click();
      await row.getByRole('cell', { name: 'Court 1, Court 2', exact: true }).waitFor();

      const { pricingRules } = await env.graphql<{ pricingRules: { name: string; objectIds: string[] }[] }>(
        '{ pricingRules { name objectIds } }',
      );
      const saved = pricingRules.find((r) => r.name === 'Court 2 late');
      expect([...(saved?.objectIds ?? [])].sort()).toEqual([...env.seed.objectIds].sort());
      expect(problems).toEqual([]);
    },
  );

  it(
    'the cancellation policies say plainly that notice below the lowest tier refunds nothing',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/pricing`);
      await page.getByText('notice below the lowest tier refunds nothing').waitFor();
      // The seeded policy's lowest tier is 24 h.
      await page.getByText(/Less than 24 h before the start:\s*no refund/).waitFor();
    },
  );
});

describe("a device's command history", () => {
  it(
    'an unlock queued on the Devices page is shown with its status, times and the result the controller reported; a failure with its error',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      await page.goto(`${env.url}/dashboard/admin/devices`);
      const unlockForm = page.getByRole('form', { name: 'Unlock a door of Court gate controller' });
      await unlockForm.getByLabel('Door to unlock').selectOption({ label: 'Court door' });
      await unlockForm.getByRole('button', { name: 'Unlock' }).click();
      await page.getByText('Unlock queued').waitFor();

      // The controller polls, unlocks and reports.
      const polled = (await (await deviceApi('/commands')).json()) as { commands: { id: string }[] };
      expect(polled.commands).toHaveLength(1);
      const executed = await deviceApi(`/commands/${polled.commands[0].id}`, {
        method: 'PATCH',
        body: JSON.stringify({ status: 'executed', result: { unlocked_seconds: 5 } }),
      });
      expect(executed.status).toBe(200);
      // A second one that fails.
      const { createDeviceCommand } = await env.graphql<{ createDeviceCommand: { command: { id: string } } }>(
        'mutation($d: ID!, $door: ID!) { createDeviceCommand(deviceId: $d, type: "unlock", doorId: $door) { command { id } } }',
        { d: deviceId, door: env.seed.doorIds[0] },
      );
      await deviceApi('/commands');
      const failed = await deviceApi(`/commands/${createDeviceCommand.command.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ status: 'failed', error: 'relay did not switch' }),
      });
      expect(failed.status).toBe(200);

      await page.getByRole('link', { name: 'Command history' }).click();
      await page.getByRole('heading', { name: 'Court gate controller', level: 1 }).waitFor();
      const history = page.getByRole('region', { name: 'Command history' });
      const first = history.getByRole('row').filter({ hasText: 'unlock Court door' });
      await first.getByText('executed').waitFor();
      expect(await first.textContent()).toContain('{"unlocked_seconds":5}');
      expect(await first.textContent()).toMatch(/\d\d:\d\d/);
      const second = history.getByRole('row').filter({ hasText: 'unlock Main gate' });
      await second.getByText('relay did not switch').waitFor();
      expect(await second.getByText('failed').count()).toBe(1);
      // Newest first.
      const names = await history.locator('tbody tr .strong').allTextContents();
      expect(names).toEqual(['unlock Main gate', 'unlock Court door']);
      expect(problems).toEqual([]);
    },
  );
});

describe('your account: your own sessions', () => {
  it(
    'lists your sessions (this one marked, the browser shortened); signing out another ends it there',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await env.newPage();
      await signIn(page, env.url, STAFF);
      const other = await env.newPage(VIEWPORTS.mobile);
      await signIn(other.page, env.url, STAFF);

      await page.getByRole('button', { name: 'Your account' }).click();
      await page.getByRole('link', { name: 'Password and sessions' }).click();
      const table = page.getByRole('region', { name: 'Your sessions' });
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: UI_TIMEOUT }).toBe(2);
      const current = table.locator('tbody tr[aria-current="true"]');
      await current.getByText('this session').waitFor();
      expect(await current.textContent()).toMatch(/Chrome \d+ on Linux/);
      expect(await current.textContent()).not.toContain('Mozilla/5.0');

      await table
        .locator('tbody tr:not([aria-current])')
        .getByRole('button', { name: /^Sign out / })
        .click();
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: UI_TIMEOUT }).toBe(1);
      await other.page.reload();
      await other.page.waitForURL('**/dashboard/login');
      // This browser is still signed in.
      await page.reload();
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      expect(problems).toEqual([]);
    },
  );

  it(
    "ending another user's session, or an unknown one, is a 404 and ends nothing",
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page } = await env.newPage();
      await signIn(page, env.url, ADMIN);
      const staff = await env.newPage();
      await signIn(staff.page, env.url, STAFF);
      const staffSessions = await staff.page.evaluate(
        async () => (await (await fetch('/dashboard/api/session/sessions')).json()) as { sessions: { id: string }[] },
      );
      const answers = await page.evaluate(
        async (ids) => {
          const { csrfToken } = (await (await fetch('/dashboard/api/session')).json()) as { csrfToken: string };
          const statuses: number[] = [];
          for (const id of ids)
            statuses.push(
              (
                await fetch(`/dashboard/api/session/sessions/${id}`, {
                  method: 'DELETE',
                  headers: { 'x-csrf-token': csrfToken },
                })
              ).status,
            );
          return statuses;
        },
        [staffSessions.sessions[0].id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'],
      );
      expect(answers).toEqual([404, 404, 404]);
      await staff.page.reload();
      await staff.page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      // Without the CSRF token: refused.
      const refused = await page.evaluate(
        async (id) => (await fetch(`/dashboard/api/session/sessions/${id}`, { method: 'DELETE' })).status,
        staffSessions.sessions[0].id,
      );
      expect(refused).toBe(403);
    },
  );
});

describe('every page at 390 and 1280 px', () => {
  it(
    'no serious or critical axe violation, the calendar included; a screenshot of each',
    { timeout: 900_000 },
    async () => {
      const pages: { name: string; path: string; heading: string; then?: (page: Page) => Promise<void> }[] = [
        { name: 'overview', path: '/dashboard/', heading: 'Overview' },
        { name: 'calendar-day', path: '/dashboard/calendar', heading: 'Calendar' },
        { name: 'calendar-week', path: '/dashboard/calendar?view=week', heading: 'Calendar' },
        { name: 'bookings', path: '/dashboard/bookings', heading: 'Bookings' },
        { name: 'booking', path: `/dashboard/bookings/${env.seed.bookingIds.toConfirm}`, heading: 'Ada Lovelace' },
        { name: 'catalog', path: '/dashboard/catalog', heading: 'Catalog' },
        { name: 'catalog-object', path: `/dashboard/catalog/objects/${env.seed.objectIds[0]}`, heading: 'Court 1' },
        {
          name: 'pricing-rule-form',
          path: '/dashboard/pricing',
          heading: 'Pricing',
          then: async (page) => {
            await page.getByRole('button', { name: 'Add rule' }).click();
            await page
              .getByRole('form', { name: 'New pricing rule' })
              .getByRole('group', { name: 'Objects' })
              .waitFor();
          },
        },
        { name: 'api-keys', path: '/dashboard/admin/api-keys', heading: 'API Keys' },
        { name: 'devices', path: '/dashboard/admin/devices', heading: 'Devices' },
        { name: 'device', path: `/dashboard/admin/devices/${deviceId}`, heading: 'Court gate controller' },
        { name: 'webhooks', path: '/dashboard/admin/webhooks', heading: 'Webhooks' },
        {
          name: 'webhook-exchange',
          path: `/dashboard/admin/webhooks/${webhookId}`,
          heading: 'Webhook deliveries',
          then: async (page) => {
            // A fresh test delivery, so the page has an attempt to open whichever tests ran before.
            await page.getByRole('button', { name: 'Send test' }).click();
            await page.getByText('Test event delivered').waitFor();
            await page
              .getByRole('button', { name: /^\d+ attempts?$/ })
              .first()
              .click();
            await page.getByRole('region', { name: 'Attempt 1: response', exact: true }).waitFor();
          },
        },
        { name: 'team', path: '/dashboard/admin/team', heading: 'Team' },
        { name: 'notifications', path: '/dashboard/admin/notifications', heading: 'Notifications' },
        { name: 'oauth-apps', path: '/dashboard/admin/oauth-apps', heading: 'OAuth Apps' },
        { name: 'connected-apps', path: '/dashboard/admin/connected-apps', heading: 'Connected apps' },
        { name: 'account', path: '/dashboard/account', heading: 'Your account' },
        { name: 'not-found', path: '/dashboard/admin/no-such-page', heading: 'Page not found' },
      ];
      const found: string[] = [];
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const login = await env.newPage(viewport);
        await login.page.goto(`${env.url}/dashboard/login`);
        await login.page.getByRole('button', { name: 'Sign in' }).waitFor();
        await screenshot(login.page, `round2-login-${size}`);
        found.push(...(await seriousViolations(login.page)).map((v) => `login ${size}: ${v}`));

        const { page, problems } = await env.newPage(viewport);
        // Requests in flight, but for the live event stream (docs/dashboard-ui.md#live-updates), which
        // stays open by design: Playwright's 'networkidle' would never come.
        const inFlight = new Set<Request>();
        page.on('request', (r) => {
          if (r.headers().accept !== 'text/event-stream') inFlight.add(r);
        });
        page.on('requestfinished', (r) => inFlight.delete(r));
        page.on('requestfailed', (r) => inFlight.delete(r));
        await signIn(page, env.url, ADMIN);
        for (const target of pages) {
          await page.goto(`${env.url}${target.path}`);
          // The first page after sign-in loads the bundle and its first queries: on a machine busy with
          // other suites that took longer than the default 30 s once, so the heading gets more.
          await page.getByRole('heading', { name: target.heading, level: 1 }).waitFor({ timeout: UI_TIMEOUT * 3 });
          await expect.poll(() => page.locator('.loading').count(), { timeout: UI_TIMEOUT }).toBe(0);
          if (target.then) await target.then(page);
          // Every query answered (the calendar's free time comes a day and an object at a time).
          for (let quiet = 0; quiet < 2; quiet += 1) {
            await expect.poll(() => inFlight.size, { timeout: UI_TIMEOUT }).toBe(0);
            await page.waitForTimeout(500);
          }
          await expect.poll(() => page.getByText('…', { exact: true }).count(), { timeout: UI_TIMEOUT }).toBe(0);
          await screenshot(page, `round2-${target.name}-${size}`);
          const widths = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
          }));
          if (widths.scroll > widths.client)
            found.push(`${target.name} ${size}: page is ${widths.scroll} px wide in a ${widths.client} px window`);
          found.push(...(await seriousViolations(page)).map((v) => `${target.name} ${size}: ${v}`));
        }
        expect(problems).toEqual([]);
      }
      expect(found).toEqual([]);
    },
  );
});
