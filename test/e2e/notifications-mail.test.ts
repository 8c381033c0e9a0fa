import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { composeMail, QR_CID } from '../../src/modules/notifications/message.js';

// The guest's confirmation mail as a phone shows it: its HTML part rendered by Chromium at 390 px,
// the inline QR part put where its cid: reference is (as a mail client does). The screenshot is
// docs/notifications-mail.png; the page may load nothing from anywhere.

const SHOT = fileURLToPath(new URL('../../docs/notifications-mail.png', import.meta.url));
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe('the confirmation mail in a browser', () => {
  it('renders at phone width with the QR code inline and loads nothing remote', async () => {
    const mail = await composeMail({
      kind: 'confirmed',
      data: {
        booking: {
          id: '6f1c2a4e-8d0b-4c1e-9a57-3f2b1d0e9c88',
          objectName: 'Court 1',
          guestName: 'Ada Lovelace',
          startTime: '2026-11-21T10:00:00.000Z',
          endTime: '2026-11-21T11:30:00.000Z',
          totalPrice: 3600,
          currency: 'EUR',
          refundAmount: null,
        },
        accommodation: { name: 'Sportpark Demo', address: 'Hauptstrasse 1, 10115 Berlin', timeZone: 'Europe/Berlin' },
      },
      sequence: 2,
      key: { qrToken: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImRlbW8ifQ.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJl', smsCode: '48213957' },
      recipient: 'ada@example.com',
      fromAddress: 'bookings@sportpark.example',
      stamp: new Date('2026-11-20T09:00:00Z'),
      domain: 'sportpark.example',
    });
    const qr = mail.attachments.find((a) => a.cid === QR_CID);
    expect(qr).toBeDefined();
    const html = mail.html.replace(
      `cid:${QR_CID}`,
      `data:image/png;base64,${(qr!.content as Buffer).toString('base64')}`,
    );

    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const requested: string[] = [];
    await page.route('**/*', async (route) => {
      requested.push(route.request().url());
      await route.abort();
    });
    await page.setContent(html, { waitUntil: 'load' });
    expect(requested).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    const decoded = await page.evaluate(() => (document.querySelector('img') as HTMLImageElement).naturalWidth);
    expect(decoded).toBeGreaterThan(0);
    writeFileSync(SHOT, await page.screenshot({ fullPage: true }));
  });
});
