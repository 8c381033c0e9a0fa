import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';
import { buildPendingBooking } from './builders.js';
import { manageToken } from '../src/modules/bookings/manage-link.js';

// The manage page's Pay button with a payment provider (the Stripe stand-in, test/stripe-stand-in.ts):
// it opens the booking's paymentUrl, and once paid the success page links back to the manage page,
// which then shows the booking confirmed with its door key (issue #41).

let h: Harness;
let app: OwnApp;
let stripe: StripeStandIn;

beforeAll(async () => {
  h = await harness();
  stripe = await startStripeStandIn({ now: h.clock.now });
  app = await ownApp(h, {
    env: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) } },
  });
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

async function pending() {
  const { v, booking } = await buildPendingBooking(h, { via: app });
  return { v, booking, manage: `/b/${manageToken(h.deps.secret, booking.id, 1)}` };
}

describe('paying from the manage page', () => {
  it('links to the paymentUrl; the paid success page links back; the page then shows the door key', async () => {
    const { booking, manage } = await pending();
    const page = await app.request({ method: 'GET', url: manage });
    const payPath = new URL(booking.paymentUrl).pathname;
    expect(page.text).toContain(`data-pay href="${booking.paymentUrl}"`);
    expect(page.text).toContain('Pay €41.00 now');
    expect(page.text).not.toContain('data-qr');
    // A link that merely says done=paid shows no thanks while nothing is paid (the payment decides).
    expect((await app.request({ method: 'GET', url: `${manage}?done=paid` })).text).not.toContain('data-done');

    const opened = await app.request({ method: 'GET', url: payPath });
    expect(opened.status).toBe(303);
    const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(opened.headers.location))?.[1] ?? '';
    stripe.complete(sessionId);
    const done = await app.request({ method: 'GET', url: `${payPath}/done?session_id=${sessionId}` });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`${manage}?done=paid`);
    const landed = await app.request({ method: 'GET', url: String(done.headers.location) });
    expect(landed.text).toContain('Thank you, your payment was received. Your booking is confirmed');
    // In German too.
    const german = await app.request({ method: 'GET', url: `${manage}?done=paid&lang=de` });
    expect(german.text).toContain('Vielen Dank, Ihre Zahlung ist eingegangen.');

    const after = await app.request({ method: 'GET', url: manage });
    expect(after.text).toContain('data-status="CONFIRMED"');
    expect(after.text).toContain('data-payment-status="PAID"');
    expect(after.text).toContain('data-qr');
    expect(after.text).not.toContain('data-pay ');
  });

  it('asks for payment at the venue when the venue takes payment there only', async () => {
    const { v, manage } = await pending();
    await h.deps.database.db
      .insertInto('booking_pages')
      .values({ tenant_id: v.tenantId, slug: `pay-${v.tenantId.slice(0, 8)}`, payment_mode: 'at_venue' })
      .execute();
    const page = await app.request({ method: 'GET', url: manage });
    expect(page.text).not.toContain('data-pay ');
    expect(page.text).toContain('data-pay-at-venue');
    expect(page.text).toContain('Please pay €41.00 at the venue');
  });
});
