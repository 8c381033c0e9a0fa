import { describe, expect, it } from 'vitest';
import type { NotificationData } from '../../kernel/db/types.js';
import { LOCALES } from '../../kernel/i18n.js';
import { bookingTexts } from '../bookings/guest.texts.js';
import { composeSms } from './message.js';
import { messageTexts } from './messages.texts.js';
import { smsSegments, vatIncluded, vatRate } from './notification.rules.js';

describe('vatIncluded: price × rate / (1 + rate), rounded to the cent', () => {
  it.each([
    [11900, 1900, 1900],
    [4100, 1900, 655], // 654.62
    [1000, 1900, 160], // 159.66
    [4100, 770, 293], // 293.13
    [10700, 700, 700],
    [1, 1900, 0], // 0.16
    [3, 1900, 0], // 0.48
    [4, 1900, 1], // 0.64
    [0, 1900, 0],
    [5000, 0, 0],
    [-4100, 1900, -655],
  ])('%i cents at %i bp → %i', (amount, rate, vat) => {
    expect(vatIncluded(amount, rate)).toBe(vat);
  });

  it.each([
    [1900, 'en', '19%'],
    [1900, 'de', '19 %'],
    [770, 'en', '7.7%'],
    [770, 'de', '7,7 %'],
    [1925, 'en', '19.25%'],
  ] as const)('the rate %i in %s reads %j', (bp, locale, text) => {
    expect(vatRate(bp, locale)).toBe(text);
  });
});

describe('smsSegments', () => {
  it.each([
    ['a'.repeat(160), 'gsm7', 1],
    ['a'.repeat(161), 'gsm7', 2],
    ['a'.repeat(306), 'gsm7', 2],
    ['a'.repeat(307), 'gsm7', 3],
    ['€'.repeat(80), 'gsm7', 1], // an extension character counts two septets
    ['€'.repeat(81), 'gsm7', 2],
    ['Türcode ß äöü ÄÖÜ', 'gsm7', 1],
    ['a–b', 'ucs2', 1], // an en dash is not GSM 7-bit
    ['x'.repeat(70) + '–', 'ucs2', 2],
    ['😀'.repeat(35), 'ucs2', 1],
  ] as const)('%j → %s, %i', (text, encoding, segments) => {
    expect(smsSegments(text)).toMatchObject({ encoding, segments });
  });
});

const LONG = 'Sportpark am Tempelhofer Feld, Halle Nord und Süd';
const data: NotificationData = {
  booking: {
    id: '0b7e8c1e-2f6a-4e51-9a3c-5d0f6b7c8d9e',
    objectName: 'Beachvolleyball-Feld 12 (überdacht, mit Flutlicht)',
    guestName: 'Ada Lovelace',
    startTime: '2026-11-21T10:00:00Z',
    endTime: '2026-11-22T11:30:00Z',
    totalPrice: 123456,
    currency: 'EUR',
    refundAmount: null,
    amountDue: 123456,
  },
  accommodation: { name: LONG, address: 'Teststrasse 1, 10115 Berlin', timeZone: 'Europe/Berlin' },
};
const facts = {
  reference: 'PRT-7KQ2M',
  manageUrl: `https://bookings.sportpark-example.com/b/${'A'.repeat(54)}`,
  paymentUrl: `https://bookings.sportpark-example.com/pay/${'B'.repeat(46)}`,
  vatRateBasisPoints: null,
};

describe('composeSms: one link, GSM 7-bit, at most two segments with long names and a long PUBLIC_URL', () => {
  const cases = LOCALES.flatMap((locale) =>
    (['confirmed', 'rescheduled', 'reminder', 'cancelled', 'payment_due'] as const).map(
      (kind) => [locale, kind] as const,
    ),
  );
  it.each(cases)('%s %s', (locale, kind) => {
    const body = composeSms(kind, data, { ...facts, locale }, { qrToken: 'x', smsCode: '482913' });
    expect(smsSegments(body), body).toMatchObject({ encoding: 'gsm7' });
    expect(smsSegments(body).segments, body).toBeLessThanOrEqual(2);
    expect(body.match(/https:\/\//g)).toHaveLength(1);
    expect(body).toContain(kind === 'payment_due' ? facts.paymentUrl : facts.manageUrl);
    // Long names are shortened, never dropped.
    expect(body).toContain(LONG.slice(0, 20));
  });

  it('refuses to write a receipt as a text message (mail only)', () => {
    expect(() => composeSms('receipt', data, { ...facts, locale: 'en' })).toThrow(/mail only/);
  });
});

describe("the messages' labels", () => {
  it("say what bookingTexts' shared labels say (notifications may not import bookings)", () => {
    for (const locale of LOCALES)
      for (const [key, text] of Object.entries(messageTexts.texts[locale]))
        if (key.startsWith('label.') && key in bookingTexts.texts[locale])
          expect(text, `${locale} ${key}`).toBe(bookingTexts.texts[locale][key as keyof typeof bookingTexts.texts.en]);
  });
});
