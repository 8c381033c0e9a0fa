import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildPendingBooking, buildVenue } from './builders.js';
import { paymentToken } from '../src/modules/bookings/payment.js';
import { ServerSecret } from '../src/kernel/crypto.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

const bookedVenue = (locale?: 'DE' | 'EN') =>
  buildPendingBooking(h, { guestPhone: '+49 30 1234567', ...(locale ? { locale } : {}) });

describe('GET /pay/:token', () => {
  it('shows the booking in local time and the amount due, without an API key', async () => {
    const { booking, path } = await bookedVenue();
    expect(booking.paymentUrl.startsWith('http://portier.test/pay/')).toBe(true);
    const res = await h.request({ method: 'GET', url: path });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('Court 1');
    expect(res.text).toContain('Sportpark Test');
    expect(res.text).toContain('Saturday 21 November 2026, 10:00–12:00 (Europe/Berlin)');
    expect(res.text).toContain('data-status="PENDING"');
    expect(res.text).toContain('data-amount-cents="4100"');
    expect(res.text).toContain('€41.00');
    // #41: the short reference the guest can quote, not the 36-character id.
    expect(res.text).toContain(`<dd data-reference>${booking.reference}</dd>`);
    expect(res.text).not.toContain(booking.id);
    // contact details stay out of the page
    expect(res.text).not.toContain('ada@example.com');
    expect(res.text).not.toContain('1234567');
  });

  it('shows nothing due once the booking is cancelled, and the new status', async () => {
    const { v, booking, path } = await bookedVenue();
    await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}`,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED' },
    });
    const res = await h.request({ method: 'GET', url: path });
    expect(res.text).toContain('data-status="CANCELLED"');
    expect(res.text).toContain('data-amount-cents="0"');
  });

  it('is in German for a German guest (the booking’s locale) or by Accept-Language; ?lang wins', async () => {
    const german = await bookedVenue('DE');
    const de = await h.request({ method: 'GET', url: german.path });
    expect(de.status).toBe(200);
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toContain('<h1>Ihre Buchung</h1>');
    expect(de.text).toContain('Samstag, 21. November 2026, 10:00–12:00 (Europe/Berlin)');
    expect(de.text).toContain('Ausstehend: wartet auf Zahlung und Bestätigung');
    expect(de.text).toContain('41,00\u00a0€');
    expect(de.text).toContain('Buchungsnummer');
    expect(de.text).not.toContain('Your booking');
    // The guest's own choice beats the browser's language; ?lang beats both.
    const stillDe = await h.request({ method: 'GET', url: german.path, headers: { 'accept-language': 'en-GB,en' } });
    expect(stillDe.text).toContain('<html lang="de">');
    const asked = await h.request({ method: 'GET', url: `${german.path}?lang=en` });
    expect(asked.text).toContain('<h1>Your booking</h1>');

    // No language chosen: Accept-Language decides.
    const plain = await bookedVenue();
    const byHeader = await h.request({
      method: 'GET',
      url: plain.path,
      headers: { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' },
    });
    expect(byHeader.text).toContain('<h1>Ihre Buchung</h1>');
    const english = await h.request({ method: 'GET', url: plain.path });
    expect(english.text).toContain('<h1>Your booking</h1>');
    expect(english.text).toContain('€41.00');

    // The return pages and a link that opens nothing speak German too.
    const cancelled = await h.request({ method: 'GET', url: `${german.path}/cancelled` });
    expect(cancelled.text).toContain('<h1>Zahlung nicht abgeschlossen</h1>');
    expect(cancelled.text).toContain('Erneut versuchen</a>');
    const waiting = await h.request({ method: 'GET', url: `${german.path}/done` });
    expect(waiting.text).toContain('Ihre Zahlung wird bestätigt');
    const missing = await h.request({ method: 'GET', url: '/pay/not-a-token', headers: { 'accept-language': 'de' } });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Zahlungslink nicht gefunden');
  });

  it('is 404 and reveals nothing for a wrong token', async () => {
    const { booking, path } = await bookedVenue();
    const token = path.split('/').pop()!;
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const otherSecret = paymentToken(new ServerSecret('another-secret-of-32-characters!'), booking.id);
    for (const wrong of [
      flipped,
      token.slice(0, 22),
      'x',
      otherSecret,
      `${token}A`,
      paymentToken(h.deps.secret, '00000000-0000-4000-8000-000000000000'),
    ]) {
      const res = await h.request({ method: 'GET', url: `/pay/${wrong}` });
      expect(res.status, wrong).toBe(404);
      expect(res.text).not.toContain('Court 1');
      expect(res.text).not.toContain(booking.id);
    }
  });

  it('escapes names it shows', async () => {
    const v = await buildVenue(h);
    await h.deps.database.db
      .updateTable('objects')
      .set({ name: '<script>alert(1)</script>' })
      .where('id', '=', v.object.id)
      .execute();
    const res = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
        startTime: '2026-11-21T09:00:00Z',
        endTime: '2026-11-21T10:00:00Z',
      },
    });
    const page = await h.request({ method: 'GET', url: new URL(res.body.booking.paymentUrl).pathname });
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&lt;script&gt;');
  });
});
