import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, bookViaRest, buildDoor, buildVenue, setBookingStatus } from './builders.js';
import { smsCode, smsCodeHash } from '../src/modules/access/credentials.js';
import { issueCredentials } from '../src/modules/access/access.service.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

// Monday 23 November 2026; the venue (Europe/Berlin, open 08–22) is booked 11:00–12:00 local.
const CREATED_AT = '2026-11-23T07:00:00Z';
const START = '2026-11-23T10:00:00.000Z';
const END = '2026-11-23T11:00:00.000Z';
const INSIDE = '2026-11-23T10:30:00Z';

/** A tenant with two objects, a door for each, one device driving both doors, and a booking of object 1. */
async function setup(status: 'CONFIRMED' | 'PENDING' = 'CONFIRMED') {
  const venue = await buildVenue(h, { objects: 2 });
  const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id], { gpioPin: 17, unlockDurationSeconds: 5 });
  const otherDoor = await buildDoor(h, venue.tenantId, [venue.objects[1].id], { gpioPin: 22 });
  const dev = await buildActiveDevice(h, venue.tenantId, [door.id, otherDoor.id]);
  h.clock.set(CREATED_AT);
  const bookingId = await bookViaRest(h, {
    tenantId: venue.tenantId,
    apiKey: venue.apiKey,
    objectId: venue.objects[0].id,
    startTime: START,
    endTime: END,
    status: status === 'PENDING' ? undefined : status,
  });
  const credentials = (
    await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${bookingId}/credentials`,
      apiKey: venue.apiKey,
    })
  ).body;
  return { ...venue, door, otherDoor, ...dev, bookingId, credentials };
}

function check(s: { deviceId: string; deviceKey: string }, body: unknown) {
  return h.request({ method: 'POST', url: `/api/devices/${s.deviceId}/access-check`, apiKey: s.deviceKey, body });
}

describe('booking credentials', () => {
  it('are issued at creation and returned as {bookingId, validFrom, validUntil, qrCode: {token, svg}, sms: {code, message}}', async () => {
    const s = await setup();
    const stored = await h.deps.database.db
      .selectFrom('booking_credentials')
      .selectAll()
      .where('booking_id', '=', s.bookingId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(s.credentials).toEqual({
      bookingId: s.bookingId,
      validFrom: START,
      validUntil: END,
      qrCode: {
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]{86}$/),
        svg: expect.stringMatching(/^<svg[\s\S]*<\/svg>\s*$/),
      },
      sms: { code: expect.stringMatching(/^\d{8}$/), message: expect.any(String) },
    });
    expect(s.credentials.sms.message).toBe(
      `Your door code for Court 1 at Sportpark Test: ${s.credentials.sms.code}. Valid Mon 23 Nov 2026 11:00–12:00 (Europe/Berlin).`,
    );
  });

  it('stay the same across requests and through GraphQL, and the database holds neither value', async () => {
    const s = await setup();
    const again = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${s.tenantId}/bookings/${s.bookingId}/credentials`,
      apiKey: s.apiKey,
    });
    expect(again.body).toEqual(s.credentials);
    const gql = await h.graphql(
      s.apiKey,
      `query($b: ID!) { bookingCredentials(bookingId: $b) { qrCode { token } sms { code } } }`,
      { b: s.bookingId },
    );
    expect(gql.body.data.bookingCredentials).toEqual({
      qrCode: { token: s.credentials.qrCode.token },
      sms: { code: s.credentials.sms.code },
    });
    const row = await h.deps.database.db
      .selectFrom('booking_credentials')
      .selectAll()
      .where('booking_id', '=', s.bookingId)
      .executeTakeFirstOrThrow();
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(s.credentials.qrCode.token);
    expect(dump).not.toContain(s.credentials.sms.code);
  });

  it('need bookings:read and the key of the booking’s tenant; an unknown booking is 404', async () => {
    const s = await setup();
    const url = `/api/v1/tenants/${s.tenantId}/bookings/${s.bookingId}/credentials`;
    const devicesOnly = await h.key(s.tenantId, ['devices:read']);
    expect((await h.request({ method: 'GET', url, apiKey: devicesOnly })).status).toBe(403);
    expect((await h.request({ method: 'GET', url, apiKey: await h.key(s.tenantId, ['bookings:read']) })).status).toBe(
      200,
    );
    const other = await buildVenue(h);
    const foreign = await h.request({ method: 'GET', url, apiKey: other.apiKey });
    expect(foreign.status).toBe(403);
    const viaOwnPath = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${other.tenantId}/bookings/${s.bookingId}/credentials`,
      apiKey: other.apiKey,
    });
    expect(viaOwnPath.status).toBe(404);
    const unknown = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${s.tenantId}/bookings/${crypto.randomUUID()}/credentials`,
      apiKey: s.apiKey,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
  });

  it('are issued once: issuing again returns the stored ones', async () => {
    const s = await setup();
    const db = h.deps.database.db;
    const before = await db
      .selectFrom('booking_credentials')
      .selectAll()
      .where('booking_id', '=', s.bookingId)
      .executeTakeFirstOrThrow();
    const again = await db
      .transaction()
      .execute((trx) => issueCredentials(trx, h.deps, { id: s.bookingId, tenant_id: s.tenantId }));
    expect(again).toEqual(before);
    expect(
      await db.selectFrom('booking_credentials').select('booking_id').where('booking_id', '=', s.bookingId).execute(),
    ).toHaveLength(1);
  });

  it('give a booking the next SMS code when its first one is taken in the tenant', async () => {
    const s = await setup();
    const db = h.deps.database.db;
    h.clock.set(CREATED_AT);
    const second = await bookViaRest(h, {
      tenantId: s.tenantId,
      apiKey: s.apiKey,
      objectId: s.objects[1].id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    // Make the first booking hold the second booking's nonce-0 code, then issue the second's afresh.
    const taken = smsCode(h.deps.secret, s.tenantId, second, 0);
    await db.deleteFrom('booking_credentials').where('booking_id', '=', second).execute();
    await db
      .updateTable('booking_credentials')
      .set({ sms_code_hash: smsCodeHash(h.deps.secret, s.tenantId, taken) })
      .where('booking_id', '=', s.bookingId)
      .execute();
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${s.tenantId}/bookings/${second}/credentials`,
      apiKey: s.apiKey,
    });
    expect(res.body.sms.code).toBe(smsCode(h.deps.secret, s.tenantId, second, 1));
    expect(res.body.sms.code).not.toBe(taken);
    const row = await db
      .selectFrom('booking_credentials')
      .select('sms_nonce')
      .where('booking_id', '=', second)
      .executeTakeFirstOrThrow();
    expect(row.sms_nonce).toBe(1);
  });
});

describe('access check', () => {
  it('opens a mapped door for a confirmed booking inside its window, by QR token and by SMS code', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    const allowed = { allowed: true, behavior: 'unlock_per_scan', unlockDurationSeconds: 5 };
    const qr = await check(s, { token: s.credentials.qrCode.token, doorId: s.door.id });
    expect(qr.status).toBe(200);
    expect(qr.body).toEqual(allowed);
    const sms = await check(s, {
      token: `${s.credentials.sms.code.slice(0, 4)} ${s.credentials.sms.code.slice(4)}`,
      doorId: s.door.id,
    });
    expect(sms.body).toEqual(allowed);
    h.clock.set(START);
    expect((await check(s, { token: s.credentials.qrCode.token, doorId: s.door.id })).body).toEqual(allowed);
  });

  it('denies an unknown or malformed token with invalid_token', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    const other = await setup();
    h.clock.set(INSIDE);
    for (const token of [
      'garbage',
      '00000000',
      'A'.repeat(32),
      other.credentials.qrCode.token,
      other.credentials.sms.code,
    ]) {
      const res = await check(s, { token, doorId: s.door.id });
      expect(res.status, token).toBe(200);
      expect(res.body, token).toEqual({ allowed: false, reason: 'invalid_token' });
    }
  });

  it('denies a booking that is not confirmed with booking_not_confirmed', async () => {
    const s = await setup('PENDING');
    h.clock.set(INSIDE);
    expect((await check(s, { token: s.credentials.qrCode.token, doorId: s.door.id })).body).toEqual({
      allowed: false,
      reason: 'booking_not_confirmed',
    });
  });

  it('denies the same token once the booking is cancelled', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    expect((await check(s, { token: s.credentials.sms.code, doorId: s.door.id })).body.allowed).toBe(true);
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    for (const token of [s.credentials.qrCode.token, s.credentials.sms.code]) {
      expect((await check(s, { token, doorId: s.door.id })).body).toEqual({
        allowed: false,
        reason: 'booking_not_confirmed',
      });
    }
  });

  it('denies outside the booking window with outside_booking_window', async () => {
    const s = await setup();
    for (const at of ['2026-11-23T09:59:59.999Z', END, '2026-11-24T10:30:00Z']) {
      h.clock.set(at);
      expect((await check(s, { token: s.credentials.qrCode.token, doorId: s.door.id })).body, at).toEqual({
        allowed: false,
        reason: 'outside_booking_window',
      });
    }
  });

  it('denies a door of the device that does not serve the booked object with door_not_mapped_to_object', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    expect((await check(s, { token: s.credentials.qrCode.token, doorId: s.otherDoor.id })).body).toEqual({
      allowed: false,
      reason: 'door_not_mapped_to_object',
    });
  });

  it('refuses a door the device does not drive with 403 door_not_assigned', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    const foreignDoor = await buildDoor(h, s.tenantId, [s.objects[0].id], { gpioPin: 5 });
    for (const doorId of [foreignDoor.id, crypto.randomUUID(), 'front-door']) {
      const res = await check(s, { token: s.credentials.qrCode.token, doorId });
      expect(res.status, doorId).toBe(403);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.code).toBe('door_not_assigned');
    }
  });

  it.each([
    [{ doorId: 'd' }, 'token'],
    [{ token: 't' }, 'doorId'],
    [{ token: '', doorId: 'd' }, 'token'],
    [{ token: { value: 't' }, doorId: 'd' }, 'token'],
    [{ token: 't', doorId: 'x'.repeat(101) }, 'doorId'],
  ])('refuses the malformed body %j with 400 naming %s', async (body, field) => {
    const s = await setup();
    const res = await check(s, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('writes every check, allowed or denied, to the access log', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    await check(s, { token: s.credentials.qrCode.token, doorId: s.door.id });
    await check(s, { token: s.credentials.sms.code, doorId: s.otherDoor.id });
    await check(s, { token: 'garbage', doorId: s.door.id });
    await check(s, { token: 'garbage', doorId: 'front-door' });
    const log = await h.graphql(
      s.apiKey,
      `query($d: ID!) { accessLog(deviceId: $d) { deviceId doorId bookingId credentialType allowed reason checkedAt } }`,
      { d: s.deviceId },
    );
    expect(log.body.errors).toBeUndefined();
    const base = { deviceId: s.deviceId, checkedAt: '2026-11-23T10:30:00.000Z' };
    expect(log.body.data.accessLog).toEqual(
      expect.arrayContaining([
        { ...base, doorId: s.door.id, bookingId: s.bookingId, credentialType: 'qr', allowed: true, reason: null },
        {
          ...base,
          doorId: s.otherDoor.id,
          bookingId: s.bookingId,
          credentialType: 'sms',
          allowed: false,
          reason: 'door_not_mapped_to_object',
        },
        { ...base, doorId: s.door.id, bookingId: null, credentialType: null, allowed: false, reason: 'invalid_token' },
        {
          ...base,
          doorId: 'front-door',
          bookingId: null,
          credentialType: null,
          allowed: false,
          reason: 'door_not_assigned',
        },
      ]),
    );
    expect(log.body.data.accessLog).toHaveLength(4);
    const byBooking = await h.graphql(s.apiKey, `query($b: ID!) { accessLog(bookingId: $b, first: 1) { allowed } }`, {
      b: s.bookingId,
    });
    expect(byBooking.body.data.accessLog).toHaveLength(1);
    const bookingsOnly = await h.key(s.tenantId, ['bookings:read']);
    expect((await h.graphql(bookingsOnly, `{ accessLog { id } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('never refuses a valid QR token or SMS code, however many wrong tokens were tried at the door before', async () => {
    const s = await setup();
    const neighbour = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    h.clock.set(INSIDE);
    // Garbage, wrong QR-shaped tokens and 40 wrong SMS codes (past both tiers of the SMS limit).
    for (const token of ['xx', 'A'.repeat(32)]) {
      for (let i = 0; i < 12; i += 1)
        expect((await check(s, { token, doorId: s.door.id })).body.reason).toBe('invalid_token');
    }
    const answers: number[] = [];
    for (let i = 0; i < 40; i += 1)
      answers.push((await check(s, { token: String(10_000_000 + i), doorId: s.door.id })).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(answers.slice(10)).toEqual(Array(30).fill(429));
    for (const device of [s, neighbour]) {
      for (const token of [
        s.credentials.qrCode.token,
        s.credentials.sms.code,
        s.credentials.sms.code.replace(/(\d{4})/, '$1-'),
      ]) {
        const res = await check(device, { token, doorId: s.door.id });
        expect(res.status, token).toBe(200);
        expect(res.body, token).toEqual({ allowed: true, behavior: 'unlock_per_scan', unlockDurationSeconds: 5 });
      }
    }
  });

  it('counts wrong SMS codes per door: past 10 a minute, SMS codes that do not open the door get 429 without a reason', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    // Wrong QR tokens and garbage are not counted.
    for (let i = 0; i < 15; i += 1) await check(s, { token: i % 2 ? 'xx' : 'B'.repeat(32), doorId: s.door.id });
    for (let i = 0; i < 10; i += 1) {
      expect((await check(s, { token: String(20_000_000 + i), doorId: s.door.id })).body).toEqual({
        allowed: false,
        reason: 'invalid_token',
      });
    }
    const blocked = await check(s, { token: '20000099', doorId: s.door.id });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['content-type']).toContain('application/problem+json');
    expect(blocked.body.code).toBe('too_many_invalid_tokens');
    const wait = Number(blocked.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // A real code that does not open this door now is not told apart from a wrong one while blocked
    // (the other door has its own budget, and says why),
    expect((await check(s, { token: s.credentials.sms.code, doorId: s.otherDoor.id })).body.reason).toBe(
      'door_not_mapped_to_object',
    );
    h.clock.set('2026-11-23T09:00:00Z');
    expect((await check(s, { token: s.credentials.sms.code, doorId: s.door.id })).status).toBe(429);
    // and a wrong QR token is still just invalid.
    expect((await check(s, { token: 'C'.repeat(32), doorId: s.door.id })).body.reason).toBe('invalid_token');
    // The other door keeps its own budget.
    expect((await check(s, { token: '20000098', doorId: s.otherDoor.id })).body.reason).toBe('invalid_token');
    const log = await h.graphql(s.apiKey, `query($d: ID!) { accessLog(deviceId: $d, first: 500) { reason } }`, {
      d: s.deviceId,
    });
    expect(
      log.body.data.accessLog.filter((e: { reason: string }) => e.reason === 'too_many_invalid_tokens'),
    ).toHaveLength(2);
  });
});
