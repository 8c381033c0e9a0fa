import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import axe from 'axe-core';
import { ROOT, databaseSettings, finished, runCli, tempDir } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { launchBrowser } from './browser.js';

// What the dashboard's end-to-end tests share: a real server on a fresh PGlite directory with a
// tenant, an admin and a staff user made through the CLI, a catalog made through the API, and a
// real Chromium. Everything waits for elements and answers; nothing sleeps.

export const ADMIN = { email: 'admin@club.example', password: 'correct horse battery staple' };
export const STAFF = { email: 'staff@club.example', password: 'staff password 12345' };
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;
/** Generous: a busy 2-core machine runs the server, Chromium and the test at once. */
export const UI_TIMEOUT = 30_000;

const DIST_INDEX = join(ROOT, 'dashboard', 'dist', 'index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the dashboard when it is missing or older than its sources (npm ci builds it through prepare). */
export async function ensureDashboardBuilt(): Promise<void> {
  const sources = Math.max(
    newestMtime(join(ROOT, 'dashboard', 'src')),
    statSync(join(ROOT, 'dashboard', 'index.html')).mtimeMs,
  );
  if (existsSync(DIST_INDEX) && statSync(DIST_INDEX).mtimeMs >= sources) return;
  const build = await finished(
    spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        'dashboard/vite.config.ts',
        '--logLevel',
        'warn',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  if (build.code !== 0) throw new Error(`dashboard build failed:\n${build.stdout}\n${build.stderr}`);
}

export async function cli(args: string[], env: Record<string, string>): Promise<Record<string, string>> {
  const result = await runCli(args, env);
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

export interface Seed {
  tenantId: string;
  apiKey: string;
  accommodationId: string;
  objectIds: string[];
  doorIds: string[];
  bookingIds: { toConfirm: string; toCancel: string };
}

export class DashboardEnv {
  server!: ServerProcess;
  browser!: Browser;
  seed!: Seed;
  readonly contexts: BrowserContext[] = [];

  get url(): string {
    return this.server.url;
  }

  /**
   * `runDatabase`: use the run's database (PostgreSQL when DATABASE_URL is set, test/processes.ts
   * databaseSettings) instead of a fresh PGlite directory.
   */
  async start(
    extraEnv: Record<string, string> = {},
    options: {
      runDatabase?: boolean;
      /** Runs with the database settings and the new tenant before the server starts (e.g. a CLI catalog import). */
      beforeServer?: (env: Record<string, string>, tenantId: string) => Promise<void>;
    } = {},
  ): Promise<void> {
    await ensureDashboardBuilt();
    const env: Record<string, string> = options.runDatabase
      ? (await databaseSettings()).env
      : { PGLITE_DIR: tempDir('e2e') };
    const tenant = await cli(['tenant', 'create', '--name', 'Riverside Tennis Club'], env);
    await cli(
      [
        'user',
        'create',
        '--tenant',
        tenant.tenantId,
        '--email',
        ADMIN.email,
        '--password',
        ADMIN.password,
        '--role',
        'admin',
      ],
      env,
    );
    await cli(
      [
        'user',
        'create',
        '--tenant',
        tenant.tenantId,
        '--email',
        STAFF.email,
        '--password',
        STAFF.password,
        '--role',
        'staff',
      ],
      env,
    );
    await options.beforeServer?.(env, tenant.tenantId);
    this.server = await startServerProcess(
      { ...env, RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...extraEnv },
      { startTimeoutMs: 180_000 },
    );
    this.seed = await seedCatalog(this.server.url, tenant.tenantId, tenant.apiKey);
    this.browser = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }

  async stop(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => undefined);
    await this.browser?.close().catch(() => undefined);
    await this.server?.stop();
  }

  /** A fresh browser context (no cookies) with a page; every request it makes is recorded. */
  async newPage(
    viewport: { width: number; height: number } = VIEWPORTS.desktop,
  ): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await this.browser.newContext({ viewport });
    this.contexts.push(context);
    context.setDefaultTimeout(UI_TIMEOUT);
    const page = await context.newPage();
    const problems: string[] = [];
    const own = new URL(this.url).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith('data:') && new URL(url).origin !== own) problems.push(`request to another host: ${url}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(`CSP: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { page, context, problems };
  }

  /** GraphQL with the tenant's admin API key (setting up and checking data behind the browser's back). */
  graphql<T>(query: string, variables: Record<string, unknown> = {}, apiKey = this.seed.apiKey): Promise<T> {
    return graphqlAt<T>(this.url, apiKey, query, variables);
  }
}

/** fetch, sent again after Retry-After while the server sheds load (a busy machine; nothing ran). */
export async function fetchPatiently(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, init);
    if (response.status !== 503 || attempt >= 12) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? '5') * 1000));
  }
}

export async function graphqlAt<T>(
  url: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetchPatiently(`${url}/api/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length || !body.data)
    throw new Error(`GraphQL failed (${response.status}): ${JSON.stringify(body.errors)}`);
  return body.data;
}

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { open: '00:00', close: '24:00' },
  ]),
);

async function seedCatalog(url: string, tenantId: string, apiKey: string): Promise<Seed> {
  const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
    graphqlAt<T>(url, apiKey, query, variables);
  const { createAccommodation } = await gql<{ createAccommodation: { id: string } }>(
    'mutation { createAccommodation(name: "Riverside Courts", address: "Uferweg 5, 10557 Berlin", timeZone: "Europe/Berlin") { id } }',
  );
  const objectIds: string[] = [];
  for (const [name, price] of [
    ['Court 1', 2000],
    ['Court 2', 2400],
  ] as const) {
    const { createObject } = await gql<{ createObject: { id: string } }>(
      'mutation($a: ID!, $n: String!, $p: Int!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: $n, pricePerHour: $p, openingHours: $h) { id } }',
      { a: createAccommodation.id, n: name, p: price, h: EVERY_DAY },
    );
    objectIds.push(createObject.id);
  }
  const doorIds: string[] = [];
  for (const [name, pin] of [
    ['Main gate', 17],
    ['Court door', 27],
  ] as const) {
    const { createDoor } = await gql<{ createDoor: { id: string } }>(
      'mutation($n: String!, $p: Int!, $o: [ID!]) { createDoor(name: $n, gpioPin: $p, objectIds: $o) { id } }',
      {
        n: name,
        p: pin,
        o: objectIds,
      },
    );
    doorIds.push(createDoor.id);
  }
  await gql(
    'mutation { createPricingRule(name: "Evening peak", type: "time_based", percent: 25, startTime: "18:00", endTime: "22:00") { pricingRule { id } } }',
  );
  await gql(
    'mutation { createPricingRule(name: "Weekend", type: "day_based", percent: 10, weekdays: ["saturday", "sunday"]) { pricingRule { id } } }',
  );
  await gql(
    'mutation { createCancellationPolicy(name: "Standard", isDefault: true, tiers: [{hoursBeforeStart: 48, refundPercent: 100}, {hoursBeforeStart: 24, refundPercent: 50}]) { id } }',
  );

  const book = async (guestName: string, guestEmail: string, objectId: string, start: DateTime) => {
    const { createBooking } = await gql<{ createBooking: { booking: { id: string } } }>(
      'mutation($o: ID!, $n: String!, $e: String!, $s: DateTime!, $f: DateTime!) { createBooking(objectId: $o, guestName: $n, guestEmail: $e, startTime: $s, endTime: $f) { booking { id } } }',
      { o: objectId, n: guestName, e: guestEmail, s: start.toISO(), f: start.plus({ hours: 1 }).toISO() },
    );
    return createBooking.booking.id;
  };
  const berlin = DateTime.now().setZone('Europe/Berlin').startOf('hour');
  const toConfirm = await book(
    'Ada Lovelace',
    'ada@example.com',
    objectIds[0],
    berlin.plus({ days: 3 }).set({ hour: 10 }),
  );
  const toCancel = await book(
    'Grace Hopper',
    'grace@example.com',
    objectIds[1],
    berlin.plus({ days: 4 }).set({ hour: 18 }),
  );
  await book('Alan Turing', 'alan@example.com', objectIds[0], berlin.plus({ days: 5 }).set({ hour: 9 }));
  // Today's booking for the overview, when there is still an hour left today in Berlin.
  const later = berlin.plus({ hours: 1 });
  if (later.hasSame(berlin, 'day') && later.hour < 23)
    await book('Katherine Johnson', 'katherine@example.com', objectIds[1], later);
  return {
    tenantId,
    apiKey,
    accommodationId: createAccommodation.id,
    objectIds,
    doorIds,
    bookingIds: { toConfirm, toCancel },
  };
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, url: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${url}/dashboard/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/** axe-core in the page; returns the serious and critical violations, described. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not restrict.
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axe.source);
  const results = await page.evaluate(() => {
    if (!window.axe) throw new Error('axe did not load');
    return window.axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
