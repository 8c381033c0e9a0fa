import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, bookViaRest, buildDoor, buildVenue } from './builders.js';
import { legacySmsCodeHash, smsCodeHash } from '../src/modules/access/credentials.js';
import { manageToken } from '../src/modules/bookings/manage-link.js';

// PORTIER_SECRET's keys are HKDF-derived per use since issue #44 (docs/configuration.md, "The keys
// taken from PORTIER_SECRET"). What the version before made with its one SHA-256 key must still
// work after the upgrade: an SMS code sent to a guest, and a manage link in the guest's e-mail.
// (Sealed values and derived tokens: src/kernel/crypto.test.ts, with values made by that version.)

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const CREATED_AT = '2026-11-23T07:00:00Z';
const START = '2026-11-23T10:00:00.000Z';
const END = '2026-11-23T11:00:00.000Z';
const INSIDE = '2026-11-23T10:30:00Z';

describe('after the upgrade to HKDF keys', () => {
  it('an SMS code issued before is shown again and still opens the door; a new one is of the new key', async () => {
    const venue = await buildVenue(h);
    const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
    const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
    h.clock.set(CREATED_AT);
    const bookingId = await bookViaRest(h, {
      ...venue,
      objectId: venue.object.id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const credentials = (url: string) => h.request({ method: 'GET', url, apiKey: venue.apiKey });
    const url = `/api/v1/tenants/${venue.tenantId}/bookings/${bookingId}/credentials`;
    const fresh = (await credentials(url)).body.sms.code as string;
    const db = h.deps.database.db;
    const stored = await db
      .selectFrom('booking_credentials')
      .select(['sms_code_hash', 'sms_nonce'])
      .where('booking_id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(stored.sms_code_hash).toBe(smsCodeHash(h.deps.secret, venue.tenantId, fresh));

    // The row as the version before wrote it: the old key's code for the nonce, under the old lookup hash.
    const [current, legacy] = h.deps.secret.derivedDigitsCandidates(
      'booking-sms-code',
      `${venue.tenantId}/${bookingId}/${stored.sms_nonce}`,
      8,
    );
    expect(current).toBe(fresh);
    expect(legacy).not.toBe(fresh);
    await db
      .updateTable('booking_credentials')
      .set({ sms_code_hash: legacySmsCodeHash(h.deps.secret, venue.tenantId, legacy) })
      .where('booking_id', '=', bookingId)
      .execute();

    // The guest's code is the one sent before, and it opens; the new key's code for it does not.
    expect((await credentials(url)).body.sms.code).toBe(legacy);
    h.clock.set(INSIDE);
    const check = (token: string) =>
      h.request({
        method: 'POST',
        url: `/api/devices/${device.deviceId}/access-check`,
        apiKey: device.deviceKey,
        body: { token, doorId: door.id },
      });
    const opened = await check(legacy);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.allowed).toBe(true);
    const refused = await check(fresh);
    expect(refused.body.allowed).toBe(false);
  });

  it('a manage link given out before opens the guest page; an altered one does not', async () => {
    const venue = await buildVenue(h);
    const bookingId = await bookViaRest(h, {
      ...venue,
      objectId: venue.object.id,
      startTime: '2026-12-21T09:00:00Z',
      endTime: '2026-12-21T10:00:00Z',
    });
    const id = manageToken(h.deps.secret, bookingId, 1).slice(0, 22);
    const [currentTag, legacyTag] = h.deps.secret.derivedCandidates('guest-manage-link', `${bookingId}.1`, 24);
    expect(manageToken(h.deps.secret, bookingId, 1)).toBe(`${id}${currentTag}`);
    const page = (token: string) => h.request({ method: 'GET', url: `/b/${token}` });
    expect((await page(`${id}${currentTag}`)).status).toBe(200);
    expect((await page(`${id}${legacyTag}`)).status).toBe(200);
    const altered = legacyTag.slice(0, -1) + (legacyTag.endsWith('A') ? 'B' : 'A');
    expect((await page(`${id}${altered}`)).status).toBe(404);
  });
});
