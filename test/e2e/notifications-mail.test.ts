import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { composeMail, QR_CID } from '../../src/modules/notifications/message.js';
import { manageUrl, paymentUrl } from '../../src/modules/bookings/index.js';
import { ServerSecret } from '../../src/kernel/crypto.js';

// The guest's mails as a phone shows them: the HTML part rendered by Chromium at 390 px, the inline
// QR part put where its cid: reference is (as a mail client does). The screenshots are
// docs/notifications-mail.png (English confirmation), docs/notifications-mail-de.png (German, #41)
// and docs/notifications-payment-due-de.png (German "pay here"); the page may load nothing from anywhere.

const shot = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
const secret = new ServerSecret('a-demo-secret-of-32-characters!!');
const BOOKING_ID = '6f1c2a4e-8d0b-4c1e-9a57-3f2b1d0e9c88';
const PUBLIC_URL = 'https://bookings.sportpark.example';
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe('the guest mails in a browser', () => {
  it.each([
    ['confirmed', 'en', 'notifications-mail.png'],
    ['confirmed', 'de', 'notifications-mail-de.png'],
    ['payment_due', 'de', 'notifications-payment-due-de.png'],
  ] as const)(
    '%s (%s) renders at phone width, the QR code inline, the links Portier’s own, nothing remote',
    async (kind, locale, file) => {
      const manage = manageUrl(PUBLIC_URL, secret, BOOKING_ID, 1);
      const mail = await composeMail({
        kind,
        data: {
          booking: {
            id: BOOKING_ID,
            objectName: 'Court 1',
            guestName: 'Ada Lovelace',
            startTime: '2026-11-21T10:00:00.000Z',
            endTime: '2026-11-21T11:30:00.000Z',
            totalPrice: 3600,
            currency: 'EUR',
            refundAmount: null,
            amountDue: 3600,
          },
          accommodation: { name: 'Sportpark Demo', address: 'Hauptstrasse 1, 10115 Berlin', timeZone: 'Europe/Berlin' },
        },
        sequence: 2,
        key:
          kind === 'confirmed'
            ? {
                qrToken: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImRlbW8ifQ.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJl',
                smsCode: '48213957',
              }
            : undefined,
        facts: {
          reference: 'PRT-7KQ2M',
          locale,
          manageUrl: manage,
          paymentUrl: paymentUrl(PUBLIC_URL, secret, BOOKING_ID),
          vatRateBasisPoints: null,
        },
        recipient: 'ada@example.com',
        fromAddress: 'bookings@sportpark.example',
        stamp: new Date('2026-11-20T09:00:00Z'),
        domain: 'sportpark.example',
      });
      const qr = mail.attachments.find((a) => a.cid === QR_CID);
      expect(Boolean(qr)).toBe(kind === 'confirmed');
      const html = qr
        ? mail.html.replace(`cid:${QR_CID}`, `data:image/png;base64,${(qr.content as Buffer).toString('base64')}`)
        : mail.html;
      expect(html).toContain(`href="${manage}"`);

      browser ??= await launchBrowser();
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
      if (qr) {
        const decoded = await page.evaluate(() => (document.querySelector('img') as HTMLImageElement).naturalWidth);
        expect(decoded).toBeGreaterThan(0);
      }
      writeFileSync(shot(file), await page.screenshot({ fullPage: true }));
      await page.close();
    },
  );
});
