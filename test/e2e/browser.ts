import { existsSync } from 'node:fs';
import { chromium as playwright, type Browser } from 'playwright-core';

// One way to get a browser for the end-to-end tests, on any machine `npm ci` ran on: Debian's
// Chromium when it is installed, else the Chromium binary shipped inside @sparticuz/chromium
// (unpacked to the temp directory on first use). Headless, and with the background services that
// would try to reach other hosts switched off: no page may load anything from another host.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-gpu',
];

/**
 * @sparticuz/chromium's own flags are made for AWS Lambda; these would make the tests lie:
 * `--single-process` lets browser contexts share cookies (a second user's context was signed in as
 * the first), and the web-security switches turn off the same-origin policy and mixed-content
 * blocking that the dashboard's CSRF and CSP checks rely on.
 */
const LAMBDA_ONLY_FLAGS = new Set([
  '--single-process',
  '--no-zygote',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--disable-features=AudioServiceOutOfProcess,IsolateOrigins,site-per-process',
]);

export async function launchBrowser(): Promise<Browser> {
  if (existsSync(SYSTEM_CHROMIUM)) {
    return playwright.launch({
      executablePath: SYSTEM_CHROMIUM,
      headless: true,
      args: ['--no-sandbox', ...QUIET_FLAGS],
    });
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  return playwright.launch({
    executablePath: await packaged.executablePath(),
    headless: true,
    args: [...packaged.args.filter((flag) => !LAMBDA_ONLY_FLAGS.has(flag)), ...QUIET_FLAGS],
  });
}
