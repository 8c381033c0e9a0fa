import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildActiveDevice, buildCancellationPolicy, buildDoor, buildVenue, setBookingStatus } from './builders.js';
import { manageToken } from '../src/modules/bookings/manage-link.js';
import { ServerSecret } from '../src/kernel/crypto.js';

// The guest's manage page, /b/{token} (issue #41, docs/booking-page.md "The guest's manage page"):
// what it shows, the calendar file and receipt, the one 404 for every link that opens nothing, the
// forms' CSRF checks, and cancel and reschedule going through the staff's services.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

const ORIGIN = 'http://portier.test';
const db = () => h.deps.database.db;

interface Booked {
  tenantId: string;
  apiKey: string;
  objectId: string;
  objectIds: string[];
  bookingId: string;
  reference: string;
  token: string;
  path: string;
}

async function booked(
  options: { status?: 'CONFIRMED'; start?: string; end?: string; pricePerHour?: number; objects?: number } = {},
): Promise<Booked> {
  const v = await buildVenue(h, { pricePerHour: options.pricePerHour ?? 2050, objects: options.objects });
  const res = await h.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: {
      objectId: v.object.id,
      guestName: 'Ada <b>Lovelace</b>',
      guestEmail: 'ada@example.com',
      guestPhone: '+49 30 1234567',
      startTime: options.start ?? '2026-11-21T09:00:00Z',
      endTime: options.end ?? '2026-11-21T11:00:00Z',
    },
  });
  expect(res.status, res.text).toBe(201);
  const bookingId = res.body.booking.id as string;
  const reference = res.body.booking.reference as string;
  if (options.status) await setBookingStatus(h, v, bookingId, options.status);
  const token = manageToken(h.deps.secret, bookingId, 1);
  return {
    tenantId: v.tenantId,
    apiKey: v.apiKey,
    objectId: v.object.id,
    objectIds: v.objects.map((o) => o.id),
    bookingId,
    reference,
    token,
    path: `/b/${token}`,
  };
}

const get = (url: string, headers: Record<string, string> = {}) => h.request({ method: 'GET', url, headers });

function post(url: string, form: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) {
  return h.request({
    method: 'POST',
    url,
    body: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

const csrfOf = (res: TestResponse) => /name="csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? '';
const attr = (res: TestResponse, name: string) => new RegExp(`${name}="([^"]*)"`).exec(res.text)?.[1];

async function bookingRow(id: string) {
  return db().selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function credentials(b: Booked) {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/tenants/${b.tenantId}/bookings/${b.bookingId}/credentials`,
    apiKey: b.apiKey,
  });
  expect(res.status).toBe(200);
  return res.body as { qrCode: { token: string; svg: string }; sms: { code: string } };
}

function expectPageHeaders(res: TestResponse) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
}

async function setPage(tenantId: string, values: { default_locale?: 'en' | 'de'; vat_rate_basis_points?: number }) {
  await db()
    .insertInto('booking_pages')
    .values({ tenant_id: tenantId, slug: `venue-${tenantId.slice(0, 8)}`, ...values })
    .execute();
}

async function auditEntries(tenantId: string) {
  return db().selectFrom('audit_log').selectAll().where('tenant_id', '=', tenantId).execute();
}

describe('GET /b/:token', () => {
  it('shows a confirmed booking with its door key, in the venue’s zone, without a credential and without contact details', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const res = await get(b.path);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('Court 1');
    expect(res.text).toContain('Sportpark Test');
    expect(res.text).toContain('Teststrasse 1, 10115 Berlin');
    expect(res.text).toContain('Saturday 21 November 2026, 10:00–12:00');
    expect(res.text).toContain('Europe/Berlin');
    expect(attr(res, 'data-status')).toBe('CONFIRMED');
    expect(attr(res, 'data-payment-status')).toBe('UNPAID');
    expect(attr(res, 'data-price-cents')).toBe('4100');
    expect(res.text).toContain('€41.00');
    // The short reference the guest quotes, not the 36-character id.
    expect(res.text).toContain(b.reference);
    expect(b.reference).toMatch(/^PRT-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{5,}$/);
    const key = await credentials(b);
    expect(res.text).toContain(`<code class="code" data-sms-code>${key.sms.code}</code>`);
    expect(res.text).toContain(`data:image/svg+xml;base64,${Buffer.from(key.qrCode.svg).toString('base64')}`);
    // nothing left to pay online here (no provider): the guest is told to pay at the venue
    expect(res.text).toContain('data-pay-at-venue');
    expect(res.text).not.toContain('ada@example.com');
    expect(res.text).not.toContain('1234567');
    expect(res.text).not.toContain('<b>Lovelace');
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toContain(`href="${b.path}/calendar.ics"`);
  });

  it('shows no door key while pending', async () => {
    const b = await booked();
    const res = await get(b.path);
    expect(res.status).toBe(200);
    expect(attr(res, 'data-status')).toBe('PENDING');
    expect(res.text).not.toContain('data-sms-code');
    expect(res.text).not.toContain('data-qr');
    expect(res.text).toContain('Your door key appears here once the booking is confirmed.');
  });

  it('speaks German by ?lang=, by Accept-Language, or by the venue’s default, with a link to the other language', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const byQuery = await get(`${b.path}?lang=de`);
    expect(byQuery.text).toContain('<html lang="de">');
    expect(byQuery.text).toContain('Ihre Buchung');
    expect(byQuery.text).toContain('Samstag, 21. November 2026, 10:00–12:00');
    expect(byQuery.text).toMatch(/41,00\s€/u);
    expect(byQuery.text).toContain('Bestätigt');
    expect(byQuery.text).toContain('href="?lang=en"');
    const byHeader = await get(b.path, { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' });
    expect(byHeader.text).toContain('<html lang="de">');
    expect((await get(b.path)).text).toContain('href="?lang=de"');
    await setPage(b.tenantId, { default_locale: 'de' });
    expect((await get(b.path)).text).toContain('<html lang="de">');
    expect((await get(`${b.path}?lang=en`)).text).toContain('<html lang="en">');
    expect((await get(b.path, { 'accept-language': 'en' })).text).toContain('<html lang="en">');
  });
});

describe('the calendar file and the receipt', () => {
  it('GET …/calendar.ics is the mails’ VEVENT, cancelled once the booking is', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const res = await get(`${b.path}/calendar.ics`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.headers['cache-control']).toBe('no-store');
    const ics = res.text.replace(/\r\n /g, '');
    expect(ics).toContain(`UID:booking-${b.bookingId}@portier.test`);
    expect(ics).toContain('DTSTART:20261121T090000Z');
    expect(ics).toContain('DTEND:20261121T110000Z');
    expect(ics).toContain('STATUS:CONFIRMED');
    await setBookingStatus(h, b, b.bookingId, 'CANCELLED');
    const cancelled = (await get(`${b.path}/calendar.ics`)).text;
    expect(cancelled).toContain('METHOD:CANCEL');
    expect(cancelled).toContain('STATUS:CANCELLED');
  });

  it('GET …/receipt shows what was paid and refunded, and a VAT line only when the venue sets a rate', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const empty = await get(`${b.path}/receipt`);
    expect(empty.status).toBe(200);
    expectPageHeaders(empty);
    expect(empty.text).toContain('No payment has been received for this booking.');
    const paid = await h.graphql(
      b.apiKey,
      'mutation($id: ID!) { markBookingPaid(id: $id, amount: 4100, note: "card") { id } }',
      { id: b.bookingId },
    );
    expect(paid.body.errors, paid.text).toBeUndefined();
    const receipt = await get(`${b.path}/receipt`);
    expect(attr(receipt, 'data-paid-cents')).toBe('4100');
    expect(attr(receipt, 'data-net-cents')).toBe('4100');
    expect(receipt.text).not.toContain('data-vat-cents');
    expect(receipt.text).toContain('Sportpark Test');
    expect(receipt.text).toContain('Teststrasse 1, 10115 Berlin');
    await setPage(b.tenantId, { vat_rate_basis_points: 1900 });
    const withVat = await get(`${b.path}/receipt?lang=de`);
    // 41.00 gross at 19 %: 41.00 × 19 / 119 = 6.546… → 6.55
    expect(attr(withVat, 'data-vat-cents')).toBe('655');
    expect(withVat.text).toContain('Enthaltene MwSt. 19');
    expect(withVat.text).toMatch(/6,55\s€/u);
  });
});

describe('a link that opens nothing', () => {
  it('is one 404 page for malformed, forged, unknown, hostile and revoked tokens', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const flipped = b.token.slice(0, -1) + (b.token.endsWith('A') ? 'B' : 'A');
    const wrong = [
      flipped,
      b.token.slice(0, 22),
      `${b.token}A`,
      'x',
      manageToken(new ServerSecret('another-secret-of-32-characters!'), b.bookingId, 1),
      manageToken(h.deps.secret, b.bookingId, 2),
      manageToken(h.deps.secret, '00000000-0000-4000-8000-000000000000', 1),
      '%00',
      `${b.token.slice(0, 30)}%00${b.token.slice(33)}`,
      '%ED%A0%80',
      '%F0%9F%98%80',
      '%uD800',
      '..%2F..%2Fetc%2Fpasswd',
      'A'.repeat(100),
      'A'.repeat(10_000),
    ];
    const bodies = new Set<string>();
    for (const token of wrong) {
      for (const suffix of ['', '/calendar.ics', '/receipt', '/cancel', '/reschedule']) {
        const res = await get(`/b/${token}${suffix}`);
        expect(res.status, `${token.slice(0, 40)}${suffix}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('This link is not valid');
        expect(res.headers['cache-control']).toBe('no-store');
        bodies.add(res.text);
      }
      const posted = await post(`/b/${token}/cancel`, { csrf: 'x' });
      expect(posted.status).toBe(404);
      expect(posted.text).toContain('This link is not valid');
    }
    // the same page whatever was wrong: nothing tells which bookings exist
    expect(bodies.size).toBe(1);
    expect((await get(`/b/${flipped}`, { 'accept-language': 'de' })).text).toContain('Dieser Link ist ungültig');
    expect((await bookingRow(b.bookingId)).status).toBe('CONFIRMED');
  });
});

describe('staff: the guest link', () => {
  it('guestLink needs bookings:write; revokeGuestLink ends the old link, gives a new one and is audited without the link', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const reader = await h.key(b.tenantId, ['bookings:read']);
    const denied = await h.graphql(reader, 'query($id: ID!) { guestLink(bookingId: $id) { manageUrl } }', {
      id: b.bookingId,
    });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const link = await h.graphql(b.apiKey, 'query($id: ID!) { guestLink(bookingId: $id) { bookingId manageUrl } }', {
      id: b.bookingId,
    });
    expect(link.body.data.guestLink).toEqual({ bookingId: b.bookingId, manageUrl: `${ORIGIN}${b.path}` });

    const revoked = await h.graphql(
      b.apiKey,
      'mutation($id: ID!) { revokeGuestLink(bookingId: $id) { bookingId manageUrl } }',
      { id: b.bookingId },
    );
    expect(revoked.body.errors, revoked.text).toBeUndefined();
    const fresh = revoked.body.data.revokeGuestLink.manageUrl as string;
    expect(fresh).not.toBe(`${ORIGIN}${b.path}`);
    expect((await get(b.path)).status).toBe(404);
    expect((await get(new URL(fresh).pathname)).status).toBe(200);
    const entries = await auditEntries(b.tenantId);
    const entry = entries.find((e) => e.action === 'booking.guest_link_revoked');
    expect(entry).toMatchObject({ target_type: 'booking', target_id: b.bookingId, actor_type: 'apiKey' });
    expect(JSON.stringify(entries)).not.toContain(b.token);
    expect(JSON.stringify(entries)).not.toContain(new URL(fresh).pathname.slice(3));

    const other = await h.tenant();
    const foreign = await h.graphql(
      other.apiKey,
      'mutation($id: ID!) { revokeGuestLink(bookingId: $id) { bookingId } }',
      {
        id: b.bookingId,
      },
    );
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await get(new URL(fresh).pathname)).status).toBe(200);
  });
});

describe('the forms’ CSRF protection', () => {
  it('refuses a POST from another origin or without the page’s token, and changes nothing', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const csrf = csrfOf(await get(`${b.path}/cancel`));
    expect(csrf).not.toBe('');
    const refused = [
      await post(`${b.path}/cancel`, {}),
      await post(`${b.path}/cancel`, { csrf: 'A'.repeat(csrf.length) }),
      await post(`${b.path}/cancel`, { csrf: csrfOf(await get(`${(await booked()).path}/cancel`)) }),
      await post(`${b.path}/cancel`, { csrf }, { origin: 'https://evil.example' }),
      await post(`${b.path}/cancel`, { csrf }, { origin: 'null', 'sec-fetch-site': 'cross-site' }),
      await post(`${b.path}/cancel`, { csrf }, { 'sec-fetch-site': 'cross-site' }),
      await post(`${b.path}/reschedule`, { csrf, start: '2026-11-22T09:00:00Z' }, { origin: 'https://evil.example' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.text).toContain('The form could not be verified');
    }
    expect((await bookingRow(b.bookingId)).status).toBe('CONFIRMED');
    expect((await bookingRow(b.bookingId)).start_time.toISOString()).toBe('2026-11-21T09:00:00.000Z');
    // a form from the page itself (Origin: null, as with Referrer-Policy: no-referrer, and same-origin)
    const ok = await post(`${b.path}/cancel`, { csrf }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
  });

  it('refuses a JSON body', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const csrf = csrfOf(await get(`${b.path}/cancel`));
    const res = await h.request({
      method: 'POST',
      url: `${b.path}/cancel`,
      body: { csrf },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(415);
    expect((await bookingRow(b.bookingId)).status).toBe('CONFIRMED');
  });
});

describe('the guest cancels', () => {
  it('sees the refund the policy gives first, then cancels through the staff’s service, audited as the guest', async () => {
    // Paid, 30 hours before the start: the 24-hour tier refunds half.
    const b = await booked({ status: 'CONFIRMED', start: '2026-11-21T15:00:00Z', end: '2026-11-21T17:00:00Z' });
    await buildCancellationPolicy(h, b.tenantId, {
      name: 'Half a day ahead',
      isDefault: true,
      tiers: [
        { hoursBeforeStart: 48, refundPercent: 100 },
        { hoursBeforeStart: 24, refundPercent: 50 },
      ],
    });
    const paid = await h.graphql(b.apiKey, 'mutation($id: ID!) { markBookingPaid(id: $id, amount: 4100) { id } }', {
      id: b.bookingId,
    });
    expect(paid.body.errors, paid.text).toBeUndefined();
    const view = await get(b.path);
    expect(view.text).toContain(`href="${b.path}/cancel?lang=en"`);
    const step = await get(`${b.path}/cancel`);
    expect(step.status).toBe(200);
    expectPageHeaders(step);
    expect(attr(step, 'data-money-back')).toBe('2050');
    expect(step.text).toContain('If you cancel now, you get €20.50 back.');
    expect(step.text).toContain('Cancellation policy: Half a day ahead.');
    expect((await bookingRow(b.bookingId)).status).toBe('CONFIRMED');

    const res = await post(`${b.path}/cancel`, { csrf: csrfOf(step), lang: 'en' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${b.path}?lang=en&done=cancelled`);
    const after = await bookingRow(b.bookingId);
    expect(after.status).toBe('CANCELLED');
    expect(after.refund_amount).toBe(2050);
    const landed = await get(String(res.headers.location));
    expect(attr(landed, 'data-done')).toBe('cancelled');
    expect(landed.text).toContain('Your booking is cancelled. €20.50 is refunded to you.');
    expect(attr(landed, 'data-status')).toBe('CANCELLED');
    expect(landed.text).not.toContain('data-sms-code');

    // the staff's event, and the audit entry with the guest as actor and no token
    const events = await db()
      .selectFrom('events')
      .select(['type', 'data'])
      .where('tenant_id', '=', b.tenantId)
      .where('type', '=', 'booking.cancelled')
      .execute();
    expect(events).toHaveLength(1);
    const entries = await auditEntries(b.tenantId);
    const entry = entries.find((e) => e.action === 'booking.guest_cancelled');
    expect(entry).toMatchObject({
      actor_type: 'guest',
      actor_id: b.bookingId,
      target_type: 'booking',
      target_id: b.bookingId,
      ip: '127.0.0.1',
    });
    expect(entry?.details).toMatchObject({
      previousStatus: 'CONFIRMED',
      refundAmount: 2050,
      policyName: 'Half a day ahead',
    });
    expect(JSON.stringify(entries)).not.toContain(b.token);

    // again: already cancelled, said plainly, nothing changes
    const again = await post(`${b.path}/cancel`, { csrf: csrfOf(step) });
    expect(again.status).toBe(409);
    expect(attr(again, 'data-refusal')).toBe('cancelled');
    expect((await auditEntries(b.tenantId)).filter((e) => e.action === 'booking.guest_cancelled')).toHaveLength(1);
  });

  it('is refused outside the policy (less notice than its shortest tier) and once the booking has started', async () => {
    const b = await booked({ status: 'CONFIRMED', start: '2026-11-21T15:00:00Z', end: '2026-11-21T17:00:00Z' });
    await buildCancellationPolicy(h, b.tenantId, {
      isDefault: true,
      tiers: [{ hoursBeforeStart: 48, refundPercent: 100 }],
    });
    const step = await get(`${b.path}/cancel`);
    expect(step.status).toBe(409);
    expect(attr(step, 'data-refusal')).toBe('tooLate');
    expect(step.text).toContain('the cancellation policy allows it until 48 hours before the start');
    expect(step.text).not.toContain('name="csrf"');
    const csrf = csrfOf(await get(`${b.path}/reschedule?date=2026-11-22`)) || csrfOf(await get(`${b.path}/cancel`));
    const res = await post(`${b.path}/cancel`, {
      csrf: csrf || h.deps.secret.derive('guest-manage-form', b.token, 24),
    });
    expect(res.status).toBe(409);
    expect(attr(res, 'data-refusal')).toBe('tooLate');
    expect((await bookingRow(b.bookingId)).status).toBe('CONFIRMED');

    const started = await booked({ status: 'CONFIRMED' });
    h.clock.set('2026-11-21T09:30:00Z');
    const late = await get(`${started.path}/cancel`);
    expect(late.status).toBe(409);
    expect(attr(late, 'data-refusal')).toBe('started');
  });

  it('without a policy, a pending unpaid booking is cancelled with nothing to refund', async () => {
    const b = await booked();
    const step = await get(`${b.path}/cancel?lang=de`);
    expect(step.text).toContain('Es wurde nichts bezahlt, daher wird nichts erstattet.');
    expect(step.text).toContain('Der Ort erstattet eine Stornierung vollständig.');
    const res = await post(`${b.path}/cancel`, { csrf: csrfOf(step), lang: 'de' });
    expect(res.status).toBe(303);
    expect((await get(String(res.headers.location))).text).toContain('Ihre Buchung ist storniert.');
  });
});

describe('at once', () => {
  it('two cancels of one booking: one cancels, the other is told it is cancelled; one event, one audit entry', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const csrf = csrfOf(await get(`${b.path}/cancel`));
    const answers = await Promise.all([post(`${b.path}/cancel`, { csrf }), post(`${b.path}/cancel`, { csrf })]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    const events = await db()
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', b.tenantId)
      .where('type', '=', 'booking.cancelled')
      .execute();
    expect(events).toHaveLength(1);
    expect((await auditEntries(b.tenantId)).filter((e) => e.action === 'booking.guest_cancelled')).toHaveLength(1);
  });

  it('two guests moving to the same free time: one gets it, the other is told it is taken', async () => {
    const first = await booked({ status: 'CONFIRMED', objects: 1 });
    // a second booking of the same object, through the same tenant
    const res = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${first.tenantId}/bookings`,
      apiKey: first.apiKey,
      body: {
        objectId: first.objectId,
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
        startTime: '2026-11-21T13:00:00Z',
        endTime: '2026-11-21T15:00:00Z',
      },
    });
    expect(res.status).toBe(201);
    const secondToken = manageToken(h.deps.secret, res.body.booking.id as string, 1);
    const start = '2026-11-23T10:00:00.000Z';
    const answers = await Promise.all([
      post(`${first.path}/reschedule`, { csrf: h.deps.secret.derive('guest-manage-form', first.token, 24), start }),
      post(`/b/${secondToken}/reschedule`, { csrf: h.deps.secret.derive('guest-manage-form', secondToken, 24), start }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(answers.map((r) => attr(r, 'data-message')).filter(Boolean)).toEqual(['taken']);
  });
});

describe('the guest reschedules', () => {
  async function withDoor(b: Booked) {
    const door = await buildDoor(h, b.tenantId, b.objectIds);
    const device = await buildActiveDevice(h, b.tenantId, [door.id]);
    const check = (token: string) =>
      h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/access-check`,
        apiKey: device.deviceKey,
        body: { token, doorId: door.id },
      });
    return { check };
  }

  it('picks a date, a free time and confirms; the old QR is refused at the door and the new one opens it', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const { check } = await withDoor(b);
    const oldKey = await credentials(b);
    // Another booking of the object at 14:00–15:00 local (13:00 UTC) on the 22nd.
    const other = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${b.tenantId}/bookings`,
      apiKey: b.apiKey,
      body: {
        objectId: b.objectId,
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
        startTime: '2026-11-22T13:00:00Z',
        endTime: '2026-11-22T14:00:00Z',
      },
    });
    expect(other.status).toBe(201);

    const first = await get(`${b.path}/reschedule`);
    expect(first.status).toBe(200);
    expectPageHeaders(first);
    // the booking's own date; its own time is not offered as a new one
    expect(attr(first, 'id="date" name="date" type="date" value')).toBe('2026-11-21');
    expect(first.text).toContain('value="2026-11-21T09:00:00.000Z" disabled');

    const day = await get(`${b.path}/reschedule?date=2026-11-22`);
    const starts = [...day.text.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1]);
    // 08:00–22:00 local, two hours long: 08:00 … 20:00, minus those meeting 14:00–15:00
    expect(starts).toContain('2026-11-22T07:00:00.000Z');
    expect(starts).toContain('2026-11-22T10:00:00.000Z');
    expect(starts).not.toContain('2026-11-22T12:00:00.000Z');
    expect(starts).not.toContain('2026-11-22T13:00:00.000Z');
    expect(starts).toContain('2026-11-22T14:00:00.000Z');
    expect(starts).not.toContain('2026-11-22T20:00:00.000Z');

    const confirm = await get(`${b.path}/reschedule?date=2026-11-22&start=2026-11-22T10:00:00.000Z`);
    expect(confirm.status).toBe(200);
    expect(attr(confirm, 'data-new-start')).toBe('2026-11-22T10:00:00.000Z');
    expect(attr(confirm, 'data-new-price-cents')).toBe('4100');
    expect(confirm.text).toContain('Sunday 22 November 2026, 11:00–13:00');

    const res = await post(`${b.path}/reschedule`, { csrf: csrfOf(confirm), start: '2026-11-22T10:00:00.000Z' });
    expect(res.status, res.text).toBe(303);
    expect(res.headers.location).toBe(`${b.path}?lang=en&done=rescheduled`);
    const moved = await bookingRow(b.bookingId);
    expect(moved.start_time.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(moved.end_time.toISOString()).toBe('2026-11-22T12:00:00.000Z');
    expect(moved.status).toBe('CONFIRMED');
    const landed = await get(String(res.headers.location));
    expect(attr(landed, 'data-done')).toBe('rescheduled');
    const newKey = await credentials(b);
    expect(newKey.qrCode.token).not.toBe(oldKey.qrCode.token);
    expect(landed.text).toContain(Buffer.from(newKey.qrCode.svg).toString('base64'));
    expect(landed.text).toContain(newKey.sms.code);

    const events = await db()
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', b.tenantId)
      .where('type', '=', 'booking.rescheduled')
      .execute();
    expect(events).toHaveLength(1);
    const entry = (await auditEntries(b.tenantId)).find((e) => e.action === 'booking.guest_rescheduled');
    expect(entry).toMatchObject({ actor_type: 'guest', target_id: b.bookingId });
    expect(entry?.details).toMatchObject({
      previous: { startTime: '2026-11-21T09:00:00.000Z', endTime: '2026-11-21T11:00:00.000Z' },
      startTime: '2026-11-22T10:00:00.000Z',
    });

    // At the door: the old QR is refused both in its own (old) window and in the new one; the new opens.
    for (const at of ['2026-11-21T09:30:00Z', '2026-11-22T10:30:00Z']) {
      h.clock.set(at);
      const old = await check(oldKey.qrCode.token);
      expect(old.body, at).toMatchObject({ allowed: false, reason: 'invalid_token' });
    }
    const fresh = await check(newKey.qrCode.token);
    expect(fresh.body).toMatchObject({ allowed: true });
  });

  it('refuses a time taken meanwhile, with the free times again, and changes nothing', async () => {
    const b = await booked({ status: 'CONFIRMED' });
    const confirm = await get(`${b.path}/reschedule?date=2026-11-22&start=2026-11-22T10:00:00.000Z`);
    expect(confirm.status).toBe(200);
    // someone else books 11:00 UTC meanwhile
    const taken = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${b.tenantId}/bookings`,
      apiKey: b.apiKey,
      body: {
        objectId: b.objectId,
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
        startTime: '2026-11-22T11:00:00Z',
        endTime: '2026-11-22T12:00:00Z',
      },
    });
    expect(taken.status).toBe(201);
    const res = await post(`${b.path}/reschedule`, { csrf: csrfOf(confirm), start: '2026-11-22T10:00:00.000Z' });
    expect(res.status).toBe(409);
    expect(attr(res, 'data-message')).toBe('taken');
    expect(res.text).toContain('That time is no longer free.');
    expect(res.text).not.toContain('value="2026-11-22T10:00:00.000Z"');
    expect((await bookingRow(b.bookingId)).start_time.toISOString()).toBe('2026-11-21T09:00:00.000Z');
    // a start off the grid or outside the hours is refused too
    const closed = await post(`${b.path}/reschedule`, { csrf: csrfOf(confirm), start: '2026-11-22T23:00:00.000Z' });
    expect(closed.status).toBe(409);
    expect(attr(closed, 'data-message')).toBe('badStart');
    const garbage = await post(`${b.path}/reschedule`, { csrf: csrfOf(confirm), start: 'tomorrow\u0000' });
    expect(garbage.status).toBe(400);
    const badDate = await get(`${b.path}/reschedule?date=2026-02-30`);
    expect(badDate.status).toBe(400);
    expect(attr(badDate, 'data-message')).toBe('badDate');
    const badStart = await get(`${b.path}/reschedule?date=2026-11-22&start=2026-11-22T10:17:00.000Z`);
    expect(badStart.status).toBe(400);
    expect((await auditEntries(b.tenantId)).filter((e) => e.action === 'booking.guest_rescheduled')).toHaveLength(0);
  });

  it('is refused for cancelled and past bookings', async () => {
    const cancelled = await booked({ status: 'CONFIRMED' });
    await setBookingStatus(h, cancelled, cancelled.bookingId, 'CANCELLED');
    const page = await get(`${cancelled.path}/reschedule`);
    expect(page.status).toBe(409);
    expect(attr(page, 'data-refusal')).toBe('cancelled');
    const csrf = h.deps.secret.derive('guest-manage-form', cancelled.token, 24);
    const res = await post(`${cancelled.path}/reschedule`, { csrf, start: '2026-11-22T10:00:00.000Z' });
    expect(res.status).toBe(409);
    expect(attr(res, 'data-refusal')).toBe('cancelled');
    expect((await get(cancelled.path)).text).not.toContain('/reschedule');

    const past = await booked({ status: 'CONFIRMED' });
    h.clock.set('2026-11-21T12:00:00Z');
    expect(attr(await get(`${past.path}/reschedule`), 'data-refusal')).toBe('started');
    const late = await post(`${past.path}/reschedule`, {
      csrf: h.deps.secret.derive('guest-manage-form', past.token, 24),
      start: '2026-11-22T10:00:00.000Z',
    });
    expect(late.status).toBe(409);
    expect((await bookingRow(past.bookingId)).start_time.toISOString()).toBe('2026-11-21T09:00:00.000Z');
  });
});
