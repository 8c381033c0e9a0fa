import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { databaseSettings, freePort, runCli } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { startStripeStandIn, type StripeStandIn } from '../stripe-stand-in.js';
import { launchBrowser } from './browser.js';
import { SCREENSHOTS, UI_TIMEOUT, fetchPatiently, graphqlAt, screenshot, seriousViolations } from './dashboard-env.js';
import { openDatabase } from '../../src/kernel/db/database.js';
import { createAccommodation, createObject } from '../../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../../src/modules/catalog/catalog.commands.js';
import { bookingIdOfManageToken } from '../../src/modules/bookings/index.js';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { DoorClient, memoryStore } from '../../examples/door-client/door-client.js';

// jsqr is CommonJS with a default export (as in test/notifications.test.ts).
type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: DecodeQr }).default ?? jsQRModule) as DecodeQr;

// A guest books in a real Chromium at 390 px (issue #41): the venue's booking page, a free time,
// the price, their details and the cancellation policy, then Stripe Checkout (the local stand-in
// in test/stripe-stand-in.ts, not Stripe) and back to Portier, which sends them on to their manage
// page: CONFIRMED and PAID, with the door QR code, which the reference door client accepts in the
// booking's time. Then the same through the widget,
// embedded in a page served from another origin. Nothing reaches another host.

const TEST_TIMEOUT = 240_000;
const SLUG = 'riverside-tennis';
const HOURS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '08:00', close: '22:00' },
  ]),
);

let stripe: StripeStandIn;
let server: ServerProcess;
let browser: Browser;
let host: Server;
let hostOrigin = '';
let apiKey = '';
let tenantId = '';
let deviceId = '';
let deviceKey = '';
let doorId = '';
const contexts: BrowserContext[] = [];
const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
  graphqlAt<T>(server.url, apiKey, query, variables);

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // The embedding site: another origin (another port), serving a venue's page with the widget's snippet.
  const hostPort = await freePort();
  hostOrigin = `http://127.0.0.1:${hostPort}`;
  const { env: database, pgliteDir } = await databaseSettings();
  const created = await runCli(['tenant', 'create', '--name', 'Riverside Tennis Club'], database);
  if (created.code !== 0) throw new Error(created.stderr);
  ({ apiKey, tenantId } = JSON.parse(created.stdout) as { apiKey: string; tenantId: string });

  // The venue's catalog and its published page, written before the server starts (an embedded
  // database has one process at a time; the settings' API is another part of issue #41).
  const db = await openDatabase(pgliteDir ? { pgliteDir } : { databaseUrl: database.DATABASE_URL });
  try {
    const accommodation = await createAccommodation(
      db.db,
      tenantId,
      parseCreateAccommodation({
        name: 'Riverside Courts',
        address: 'Uferweg 5, 10557 Berlin',
        timeZone: 'Europe/Berlin',
      }),
    );
    for (const [name, price] of [
      ['Court 1 (clay)', 2000],
      ['Court 2 (hard)', 2400],
    ] as const) {
      const object = await createObject(
        db.db,
        tenantId,
        parseCreateObject({
          accommodationId: accommodation.id,
          name,
          pricePerHour: price,
          openingHours: HOURS,
          bookingRules: { maxDurationMinutes: 120 },
        }),
      );
      await db.db.updateTable('objects').set({ published: true }).where('id', '=', object.id).execute();
    }
    await db.db
      .insertInto('booking_pages')
      .values({
        tenant_id: tenantId,
        enabled: true,
        slug: SLUG,
        payment_mode: 'online_required',
        allowed_origins: [hostOrigin],
        accent_colour: '#1d4ed8',
        default_locale: 'en',
        texts: JSON.stringify({
          en: { intro: 'Book one of our courts by the river. Rackets can be borrowed at the front desk.' },
          de: { intro: 'Buchen Sie einen unserer Plätze am Fluss. Schläger leihen Sie an der Rezeption.' },
        }),
        vat_rate_basis_points: 1900,
      })
      .execute();
  } finally {
    await db.close();
  }

  const port = await freePort();
  server = await startServerProcess(
    {
      ...database,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      // A lighter proof of work than the default 16 bits: a busy test machine runs Chromium too.
      BOOKING_PAGE_POW_BITS: '12',
    },
    { startTimeoutMs: 300_000 },
  );
  stripe.webhookUrl = `${server.url}/api/payments/stripe/webhook`;
  host = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Riverside Tennis Club</title>
<style>body{font-family:Georgia,serif;margin:0;background:#fefce8}header{background:#14532d;color:#fff;padding:1rem}main{padding:1rem}</style></head>
<body><header><h1>Riverside Tennis Club</h1><p>Since 1921</p></header><main><h2>Book a court</h2>
<script src="${server.url}/widget.js" data-venue="${SLUG}" data-title="Book a court" async></script></main></body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(hostPort, '127.0.0.1', resolve));

  // The door of Court 1 and a door controller for it.
  const objects = await gql<{ bookableObjects: { id: string; name: string }[] }>('{ bookableObjects { id name } }');
  const court1 = objects.bookableObjects.find((o) => o.name.startsWith('Court 1'))!.id;
  const door = await gql<{ createDoor: { id: string } }>(
    'mutation($o: [ID!]!) { createDoor(name: "Court 1 gate", gpioPin: 17, objectIds: $o) { id } }',
    { o: [court1] },
  );
  doorId = door.createDoor.id;
  const { registerDevice } = await gql<{ registerDevice: { activationCode: string; device: { id: string } } }>(
    'mutation($d: [ID!]!) { registerDevice(name: "Gate controller", doorIds: $d) { activationCode device { id } } }',
    { d: [doorId] },
  );
  deviceId = registerDevice.device.id;
  const activation = await fetchPatiently(`${server.url}/api/devices/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      activation_code: registerDevice.activationCode,
      serial: 'RPI-1',
      firmware_version: '1.0.0',
    }),
  });
  deviceKey = ((await activation.json()) as { device_key: string }).device_key;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await server?.stop();
  await stripe?.close();
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
});

async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    // A phone's pixel density: the QR code on the manage page is read from its pixels.
    deviceScaleFactor: 2,
    locale: 'en-GB',
    timezoneId: 'America/New_York',
  });
  contexts.push(context);
  context.setDefaultTimeout(UI_TIMEOUT);
  const page = await context.newPage();
  const problems: string[] = [];
  const allowed = new Set([new URL(server.url).origin, new URL(stripe.url).origin, hostOrigin]);
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !allowed.has(new URL(url).origin)) problems.push(`request to another host: ${url}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

async function doorCheck(token: string) {
  const res = await fetchPatiently(`${server.url}/api/devices/${deviceId}/access-check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${deviceKey}` },
    body: JSON.stringify({ token, doorId }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { allowed: boolean; reason?: string };
}

/** The text the QR code on the page encodes, read from its pixels as a phone camera would. */
async function qrText(page: Page): Promise<string> {
  const png = PNG.sync.read(await page.locator('img[data-qr]').screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code readable on the page');
  return code.data;
}

/**
 * The reference door client (examples/door-client) as a door controller of Court 1's gate, on a
 * clock of its own: online it asks the server, with the server out of reach it decides alone from
 * the signed token (the venue's keys, the window, the door).
 */
async function doorClientAt(clock: { now: Date }) {
  const { registerDevice } = await gql<{ registerDevice: { activationCode: string } }>(
    'mutation($d: [ID!]!) { registerDevice(name: "Reference door client", doorIds: $d) { activationCode } }',
    { d: [doorId] },
  );
  const link = { up: true };
  const client = new DoorClient({
    baseUrl: server.url,
    fetch: (input, init) =>
      link.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed: ECONNREFUSED')),
    now: () => clock.now,
    store: memoryStore(),
    actuator: { unlock: () => Promise.resolve(), doorStates: () => ({ [doorId]: 'locked' }) },
  });
  await client.activate(registerDevice.activationCode);
  return { client, link };
}

/**
 * After the stand-in's Pay button the guest lands on their own page (/b/{token}, via the success
 * page's 303): thanks, CONFIRMED, the door QR code. The booking is confirmed and paid in the API,
 * and the QR read from the page's pixels is the booking's token, which the door client accepts in
 * the booking's time (and refuses altered).
 */
async function expectPaidAndConfirmed(page: Page, name: string) {
  await page.waitForURL(`${server.url}/b/**`);
  const url = new URL(page.url());
  expect(url.pathname).toMatch(/^\/b\/[A-Za-z0-9_-]{54}$/);
  expect(url.searchParams.get('done')).toBe('paid');
  await page.locator('[data-done="paid"]').getByText('Thank you, your payment was received.').waitFor();
  await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('CONFIRMED');
  await page.locator('img[data-qr]').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, `${name}-paid`);
  const bookingId = bookingIdOfManageToken(url.pathname.slice(3))!;
  const { booking } = await gql<{
    booking: {
      status: string;
      guestPhone: string;
      startTime: string;
      totalPrice: number;
      payment: { status: string; amountPaid: number };
    };
  }>('query($id: ID!) { booking(id: $id) { status guestPhone startTime totalPrice payment { status amountPaid } } }', {
    id: bookingId,
  });
  expect(booking.status).toBe('CONFIRMED');
  expect(booking.payment).toEqual({ status: 'PAID', amountPaid: booking.totalPrice });
  expect(booking.guestPhone).toBe('+4915123456789');
  // The QR on the page is the booking's token.
  const credentials = await fetchPatiently(
    `${server.url}/api/v1/tenants/${tenantId}/bookings/${bookingId}/credentials`,
    {
      headers: { authorization: `Bearer ${apiKey}` },
    },
  );
  const { qrCode } = (await credentials.json()) as { qrCode: { token: string } };
  const scanned = await qrText(page);
  expect(scanned).toBe(qrCode.token);
  // Now (days before it) the server refuses it for the time; an altered token is invalid.
  expect(await doorCheck(scanned)).toEqual({ allowed: false, reason: 'outside_booking_window' });
  expect(await doorCheck(`${scanned}x`)).toMatchObject({ allowed: false, reason: 'invalid_token' });
  // The door client, five minutes into the booking, with the server out of reach: it opens.
  const clock = { now: new Date(Date.parse(booking.startTime) + 5 * 60_000) };
  const door = await doorClientAt(clock);
  expect(await door.client.heartbeat()).toBe(true);
  door.link.up = false;
  expect(await door.client.scan(scanned, doorId)).toEqual({ allowed: true, mode: 'offline' });
  expect(await door.client.scan(`${scanned}x`, doorId)).toMatchObject({ allowed: false, mode: 'offline' });
  // Before the booking (an hour earlier) the same door client refuses it.
  clock.now = new Date(Date.parse(booking.startTime) - 60 * 60_000);
  door.link.up = true;
  expect(await door.client.heartbeat()).toBe(true);
  door.link.up = false;
  expect(await door.client.scan(scanned, doorId)).toMatchObject({ allowed: false, mode: 'offline' });
  return bookingId;
}

describe('a guest books on the booking page', () => {
  it(
    'at 390 px: picks a court, a day and a time, sees the price, pays through Checkout, and is sent to their booking',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await newPage();
      await page.goto(`${server.url}/book/${SLUG}`);
      await page.getByRole('heading', { name: 'Riverside Tennis Club', level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'booking-page-390');

      await page.getByRole('radio', { name: /Court 1 \(clay\)/ }).check();
      const tomorrow = await page.locator('#date').getAttribute('min');
      const day = new Date(`${tomorrow!}T12:00:00Z`);
      day.setUTCDate(day.getUTCDate() + 2);
      await page.locator('#date').fill(day.toISOString().slice(0, 10));
      // The free times arrive without a reload; the guest (in New York) sees their own times too.
      await page.getByRole('radio', { name: /^10:00–11:00/ }).waitFor();
      await expect(
        page.getByText('Under each time: the same time in your time zone (America/New_York).').isVisible(),
      ).resolves.toBe(true);
      await page.getByRole('radio', { name: /^10:00–11:00/ }).check();
      await page.getByText('1 h × €20.00 per hour').waitFor();
      await page.getByText('Includes 19% VAT (€3.19)').waitFor();

      await page.getByLabel('Full name').fill('Grace Hopper');
      await page.getByLabel('Email').fill('grace@example.com');
      await page.getByLabel('Mobile phone').fill('0151 23456789');
      await page.getByLabel('I accept the cancellation policy.').check();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'booking-page-390-filled');
      await page.getByRole('button', { name: 'Book and pay' }).click();

      await page.waitForURL(`${stripe.url}/pay/**`);
      await page.getByRole('button', { name: /^Pay / }).click();
      await expectPaidAndConfirmed(page, 'booking-page');
      expect(problems).toEqual([]);
    },
  );

  it('shows the form’s mistakes in German, with the fields marked', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await newPage();
    await page.goto(`${server.url}/book/${SLUG}?lang=de`);
    await page.getByRole('radio', { name: /Court 2/ }).check();
    await page.locator('input[name=start]').first().waitFor();
    await page.locator('input[name=start]').first().check();
    await page.getByLabel('Vor- und Nachname').fill('Ada Lovelace');
    await page.getByLabel('E-Mail').fill('ada@example.com');
    await page.getByLabel('Mobilnummer').fill('123');
    await page.getByLabel('Ich akzeptiere die Stornobedingungen.').check();
    await page.getByRole('button', { name: 'Buchen und bezahlen' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByText('Geben Sie eine gültige Telefonnummer ein, etwa +49 151 23456789.').first().waitFor();
    await expect(page.locator('#phone').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'booking-page-390-de-error');
    expect(problems).toEqual([]);
  });

  it(
    'through the widget on the venue’s own site (another origin): the same booking and payment',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { page, problems } = await newPage();
      await page.goto(`${hostOrigin}/`);
      const frame = page.frameLocator(`iframe[data-portier-widget="${SLUG}"]`);
      await frame.getByRole('heading', { name: 'Riverside Tennis Club', level: 1 }).waitFor();
      await frame.getByRole('radio', { name: /Court 1 \(clay\)/ }).check();
      const min = await frame.locator('#date').getAttribute('min');
      const day = new Date(`${min!}T12:00:00Z`);
      day.setUTCDate(day.getUTCDate() + 3);
      await frame.locator('#date').fill(day.toISOString().slice(0, 10));
      await frame.getByRole('radio', { name: /^11:00–12:00/ }).waitFor();
      await frame.getByRole('radio', { name: /^11:00–12:00/ }).check();
      await frame.getByText('1 h × €20.00 per hour').waitFor();
      await frame.getByLabel('Full name').fill('Katherine Johnson');
      await frame.getByLabel('Email').fill('katherine@example.com');
      await frame.getByLabel('Mobile phone').fill('+49 151 23456789');
      await frame.getByLabel('I accept the cancellation policy.').check();
      // The frame grew to its content (the page's script told the widget its height).
      const height = await page.locator('iframe').evaluate((el) => el.getBoundingClientRect().height);
      expect(height).toBeGreaterThan(1200);
      await screenshot(page, 'booking-widget-390');
      await frame.getByRole('button', { name: 'Book and pay' }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      await page.getByRole('button', { name: /^Pay / }).click();
      await expectPaidAndConfirmed(page, 'booking-widget');
      expect(problems).toEqual([]);
    },
  );

  it('cannot be framed by any other origin', { timeout: TEST_TIMEOUT }, async () => {
    const { page } = await newPage();
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Other</title></head><body><script src="${server.url}/widget.js" data-venue="${SLUG}"></script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as { port: number }).port;
      const blocked = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
      await page.goto(`http://127.0.0.1:${port}/`);
      await blocked;
      const frame = page.frames().find((f) => f.url().includes(`/book/${SLUG}`));
      const heading = frame
        ? await frame
            .locator('h1')
            .count()
            .catch(() => 0)
        : 0;
      expect(heading).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
