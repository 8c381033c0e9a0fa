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

export async function launchBrowser(): Promise<Browser> {
  if (existsSync(SYSTEM_CHROMIUM)) {
    return playwright.launch({ executablePath: SYSTEM_CHROMIUM, headless: true, args: ['--no-sandbox', ...QUIET_FLAGS] });
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  return playwright.launch({
    executablePath: await packaged.executablePath(),
    headless: true,
    args: [...packaged.args, ...QUIET_FLAGS],
  });
}
