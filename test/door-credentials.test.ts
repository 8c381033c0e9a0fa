import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, bookViaRest, buildDoor, buildVenue, setBookingStatus } from './builders.js';
import { qrToken, qrTokenHash } from '../src/modules/access/credentials.js';
import { rescheduleCredentials } from '../src/modules/access/index.js';

// Signed QR credentials, online: the access check, key rotation, revocations in heartbeats,
// reported offline decisions. The reference door client's offline decisions: test/door-client.test.ts.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const CREATED_AT = '2026-11-23T07:00:00Z';
const START = '2026-11-23T10:00:00.000Z';
const END = '2026-11-23T11:00:00.000Z';
const INSIDE = '2026-11-23T10:30:00Z';
const TELEMETRY = { cpu_percent: 1, memory_percent: 2, wifi_signal_dbm: -50, door_states: {} };

async function setup() {
  const venue = await buildVenue(h, { objects: 2 });
  const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id]);
  const otherDoor = await buildDoor(h, venue.tenantId, [venue.objects[1].id], { gpioPin: 22 });
  const dev = await buildActiveDevice(h, venue.tenantId, [door.id, otherDoor.id]);
  h.clock.set(CREATED_AT);
  const bookingId = await bookViaRest(h, {
    tenantId: venue.tenantId,
    apiKey: venue.apiKey,
    objectId: venue.objects[0].id,
    startTime: START,
    endTime: END,
    status: 'CONFIRMED',
  });
  const token = await credentialsToken(venue, bookingId);
  return { ...venue, door, otherDoor, ...dev, bookingId, token };
}

async function credentialsToken(s: { tenantId: string; apiKey: string }, bookingId: string): Promise<string> {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/tenants/${s.tenantId}/bookings/${bookingId}/credentials`,
    apiKey: s.apiKey,
  });
  expect(res.status).toBe(200);
  return res.body.qrCode.token as string;
}

function check(s: { deviceId: string; deviceKey: string }, token: string, doorId: string) {
  return h.request({
    method: 'POST',
    url: `/api/devices/${s.deviceId}/access-check`,
    apiKey: s.deviceKey,
    body: { token, doorId },
  });
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('signed QR tokens', () => {
  it('carry booking, tenant, object, window, token id and key id, EdDSA; identical on every request', async () => {
    const s = await setup();
    expect(decodeProtectedHeader(s.token)).toEqual({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: expect.any(String) });
    const claims = decodeJwt(s.token);
    expect(claims).toEqual({
      sub: s.bookingId,
      tid: s.tenantId,
      obj: [s.objects[0].id],
      jti: expect.stringMatching(/^[\w-]{22}$/),
      nbf: Date.parse(START) / 1000,
      exp: Date.parse(END) / 1000,
    });
    expect(s.token.length).toBeLessThanOrEqual(512);
    expect(await credentialsToken(s, s.bookingId)).toBe(s.token);
  });

  it('open the mapped door online with the same answers and denial reasons as before', async () => {
    const s = await setup();
    h.clock.set(INSIDE);
    expect((await check(s, s.token, s.door.id)).body).toEqual({
      allowed: true,
      behavior: 'unlock_per_scan',
      unlockDurationSeconds: 5,
    });
    expect((await check(s, s.token, s.otherDoor.id)).body).toEqual({
      allowed: false,
      reason: 'door_not_mapped_to_object',
    });
    h.clock.set(END);
    expect((await check(s, s.token, s.door.id)).body).toEqual({ allowed: false, reason: 'outside_booking_window' });
    h.clock.set('2026-11-23T09:59:59Z');
    expect((await check(s, s.token, s.door.id)).body).toEqual({ allowed: false, reason: 'outside_booking_window' });
    h.clock.set(INSIDE);
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    expect((await check(s, s.token, s.door.id)).body).toEqual({ allowed: false, reason: 'booking_not_confirmed' });
    const log = await h.graphql(
      s.apiKey,
      `query($d: ID) { accessLog(deviceId: $d) { allowed reason mode tokenId bookingId credentialType } }`,
      { d: s.deviceId },
    );
    expect(log.body.data.accessLog).toContainEqual({
      allowed: false,
      reason: 'booking_not_confirmed',
      mode: 'online',
      tokenId: decodeJwt(s.token).jti,
      bookingId: s.bookingId,
      credentialType: 'qr',
    });
  });

  it('are refused online when signed by another tenant’s key, altered, of an unknown key, alg none or HS256', async () => {
    const s = await setup();
    const other = await buildVenue(h);
    const otherDoor = await buildDoor(h, other.tenantId, [other.object.id]);
    h.clock.set(CREATED_AT);
    const otherBooking = await bookViaRest(h, {
      tenantId: other.tenantId,
      apiKey: other.apiKey,
      objectId: other.object.id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const otherToken = await credentialsToken(other, otherBooking);
    const [header, payload, signature] = s.token.split('.') as [string, string, string];
    const claims = decodeJwt(s.token);
    const otherParts = otherToken.split('.');

    // The other tenant's key over this tenant's claims: header and signature of a token signed by it.
    const { privateKey: foreignKey } = generateKeyPairSync('ed25519');
    const otherKid = decodeProtectedHeader(otherToken).kid!;
    const signedByOtherTenant = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: otherKid })
      .sign(foreignKey);
    const unknownKid = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: 'nosuchkey123' })
      .sign(foreignKey);
    const altered = `${header}.${b64({ ...claims, exp: (claims.exp ?? 0) + 86_400 })}.${signature}`;
    const otherObject = `${header}.${b64({ ...claims, obj: [s.objects[1].id] })}.${signature}`;
    const algNone = `${b64({ alg: 'none', typ: 'portier-door+jwt', kid: decodeProtectedHeader(s.token).kid })}.${payload}.`;
    const hs256 = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'portier-door+jwt', kid: decodeProtectedHeader(s.token).kid! })
      .sign(new TextEncoder().encode('a guessed shared secret of 32 bytes!'));
    const swappedSignature = `${header}.${payload}.${otherParts[2]}`;

    h.clock.set(INSIDE);
    for (const token of [
      signedByOtherTenant,
      unknownKid,
      altered,
      otherObject,
      algNone,
      hs256,
      swappedSignature,
      otherToken,
    ]) {
      expect((await check(s, token, s.door.id)).body, token).toEqual({ allowed: false, reason: 'invalid_token' });
    }
    // The other tenant's own door rejects nothing of its own, but this tenant's token is unknown there.
    const otherDevice = await buildActiveDevice(h, other.tenantId, [otherDoor.id]);
    expect((await check(otherDevice, s.token, otherDoor.id)).body).toEqual({ allowed: false, reason: 'invalid_token' });
    expect((await check(otherDevice, otherToken, otherDoor.id)).body.allowed).toBe(true);
  });

  it('keep working as opaque tokens for bookings issued before signed tokens, until they expire', async () => {
    const s = await setup();
    const db = h.deps.database.db;
    // Make the booking's credentials look as they were before this feature: an opaque token's hash only.
    const opaque = qrToken(h.deps.secret, s.tenantId, s.bookingId);
    await db
      .updateTable('booking_credentials')
      .set({
        qr_token_hash: qrTokenHash(opaque),
        token_id: null,
        key_id: null,
        valid_from: null,
        valid_until: null,
        object_id: null,
      })
      .where('booking_id', '=', s.bookingId)
      .execute();
    h.clock.set(INSIDE);
    expect((await check(s, opaque, s.door.id)).body.allowed).toBe(true);
    // Its credentials now also carry a signed token; both open the door.
    const signed = await credentialsToken(s, s.bookingId);
    expect(signed.split('.')).toHaveLength(3);
    expect((await check(s, signed, s.door.id)).body.allowed).toBe(true);
    expect((await check(s, opaque, s.door.id)).body.allowed).toBe(true);
    h.clock.set(END);
    expect((await check(s, opaque, s.door.id)).body).toEqual({ allowed: false, reason: 'outside_booking_window' });
  });
});

describe('key rotation', () => {
  it('signs new tokens with the new key; old tokens verify until they expire; the JWKS keeps the old key until then', async () => {
    const s = await setup();
    const oldKid = decodeProtectedHeader(s.token).kid;
    const config = async () =>
      (await h.request({ method: 'GET', url: `/api/devices/${s.deviceId}/config`, apiKey: s.deviceKey })).body;
    expect((await config()).jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([oldKid]);

    const rotated = await h.graphql(s.apiKey, 'mutation { rotateDoorSigningKey { kid active publicJwk } }');
    expect(rotated.body.errors).toBeUndefined();
    const newKid = rotated.body.data.rotateDoorSigningKey.kid;
    expect(newKid).not.toBe(oldKid);
    expect(rotated.body.data.rotateDoorSigningKey).toMatchObject({
      active: true,
      publicJwk: { kty: 'OKP', crv: 'Ed25519', kid: newKid, alg: 'EdDSA' },
    });
    expect(rotated.body.data.rotateDoorSigningKey.publicJwk.d).toBeUndefined();

    h.clock.set(CREATED_AT);
    const second = await bookViaRest(h, {
      tenantId: s.tenantId,
      apiKey: s.apiKey,
      objectId: s.objects[1].id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const newToken = await credentialsToken(s, second);
    expect(decodeProtectedHeader(newToken).kid).toBe(newKid);
    expect(await credentialsToken(s, s.bookingId)).toBe(s.token); // the old token stays the same

    h.clock.set(INSIDE);
    expect((await check(s, s.token, s.door.id)).body.allowed).toBe(true);
    expect((await check(s, newToken, s.otherDoor.id)).body.allowed).toBe(true);
    expect(new Set((await config()).jwks.keys.map((k: { kid: string }) => k.kid))).toEqual(new Set([oldKid, newKid]));
    // After the last token of the old key expired (plus the clock skew), doors no longer get it.
    h.clock.set('2026-11-23T11:00:31Z');
    expect((await config()).jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid]);
    const keys = await h.graphql(s.apiKey, '{ doorSigningKeys { kid active retiredAt } }');
    expect(keys.body.data.doorSigningKeys.map((k: { kid: string; active: boolean }) => [k.kid, k.active])).toEqual([
      [newKid, true],
      [oldKid, false],
    ]);
  });

  it('a tenant’s first booking makes its key; later ones are signed by the active key, read in the credentials’ insert', async () => {
    const venue = await buildVenue(h, { objects: 1 }); // no device: nothing has made a key yet
    const keysOf = () =>
      h.deps.database.db
        .selectFrom('door_signing_keys')
        .select(['kid', 'retired_at'])
        .where('tenant_id', '=', venue.tenantId)
        .execute();
    expect(await keysOf()).toEqual([]);
    h.clock.set(CREATED_AT);
    const book = (hour: number) =>
      bookViaRest(h, {
        tenantId: venue.tenantId,
        apiKey: venue.apiKey,
        objectId: venue.objects[0].id,
        startTime: `2026-11-23T${hour}:00:00.000Z`,
        endTime: `2026-11-23T${hour + 1}:00:00.000Z`,
      });
    const first = await book(10);
    const [key] = await keysOf();
    expect(key).toMatchObject({ retired_at: null });
    const second = await book(12);
    const stored = await h.deps.database.db
      .selectFrom('booking_credentials')
      .select(['booking_id', 'key_id', 'token_id'])
      .where('tenant_id', '=', venue.tenantId)
      .execute();
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.key_id).toBe(key.kid);
      expect(row.token_id).toMatch(/\S{16,}/);
    }
    for (const bookingId of [first, second]) {
      const token = await credentialsToken(venue, bookingId);
      expect(decodeProtectedHeader(token).kid).toBe(key.kid);
      expect(decodeJwt(token).sub).toBe(bookingId);
    }

    // Rotated: the next booking's insert reads the new key, with no cache to go stale.
    const rotated = await h.graphql(venue.apiKey, 'mutation { rotateDoorSigningKey { kid } }');
    const third = await book(14);
    expect(decodeProtectedHeader(await credentialsToken(venue, third)).kid).toBe(
      rotated.body.data.rotateDoorSigningKey.kid,
    );
  });

  it('needs devices:write', async () => {
    const s = await setup();
    const reader = await h.key(s.tenantId, ['devices:read']);
    const res = await h.graphql(reader, 'mutation { rotateDoorSigningKey { kid } }');
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('device config and heartbeats', () => {
  it('config carries the JWKS and the offline policy (900 s by default, set per tenant)', async () => {
    const s = await setup();
    const res = await h.request({ method: 'GET', url: `/api/devices/${s.deviceId}/config`, apiKey: s.deviceKey });
    expect(res.body.offline).toEqual({ max_offline_seconds: 900, clock_skew_seconds: 30 });
    expect(res.body.jwks.keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.any(String),
        kid: decodeProtectedHeader(s.token).kid,
        alg: 'EdDSA',
        use: 'sig',
      },
    ]);
    const set = await h.graphql(
      s.apiKey,
      'mutation { setDoorOfflinePolicy(maxOfflineSeconds: 120) { maxOfflineSeconds clockSkewSeconds } }',
    );
    expect(set.body.data.setDoorOfflinePolicy).toEqual({ maxOfflineSeconds: 120, clockSkewSeconds: 30 });
    const again = await h.request({ method: 'GET', url: `/api/devices/${s.deviceId}/config`, apiKey: s.deviceKey });
    expect(again.body.offline.max_offline_seconds).toBe(120);
    for (const bad of [-1, 86_401]) {
      const refused = await h.graphql(
        s.apiKey,
        `mutation { setDoorOfflinePolicy(maxOfflineSeconds: ${bad}) { maxOfflineSeconds } }`,
      );
      expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(refused.body.errors[0])).toContain('maxOfflineSeconds');
    }
  });

  it('heartbeats list token ids revoked since the previous heartbeat: cancellation and reschedule', async () => {
    const s = await setup();
    const beat = async () =>
      (
        await h.request({
          method: 'POST',
          url: `/api/devices/${s.deviceId}/heartbeat`,
          apiKey: s.deviceKey,
          body: TELEMETRY,
        })
      ).body.revoked_token_ids;
    h.clock.set('2026-11-23T08:00:00Z');
    expect(await beat()).toEqual([]);
    const jti = decodeJwt(s.token).jti;
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    h.clock.set('2026-11-23T08:00:15Z');
    expect(await beat()).toEqual([jti]);
    // Repeated while within 60 s before the previous heartbeat, then no longer.
    h.clock.set('2026-11-23T08:01:30Z');
    expect(await beat()).toEqual([jti]);
    h.clock.set('2026-11-23T08:02:00Z');
    expect(await beat()).toEqual([]);

    // A reschedule: the old token id is revoked, a new token for the new window is issued.
    h.clock.set(CREATED_AT);
    const second = await bookViaRest(h, {
      tenantId: s.tenantId,
      apiKey: s.apiKey,
      objectId: s.objects[1].id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const before = await credentialsToken(s, second);
    h.clock.set('2026-11-23T08:03:00Z');
    const db = h.deps.database.db;
    const moved = await db.transaction().execute(async (trx) => {
      const booking = await trx
        .updateTable('bookings')
        .set({
          start_time: new Date('2026-11-23T12:00:00Z'),
          end_time: new Date('2026-11-23T13:00:00Z'),
          blocked_until: new Date('2026-11-23T13:00:00Z'),
        })
        .where('id', '=', second)
        .returningAll()
        .executeTakeFirstOrThrow();
      return rescheduleCredentials(trx, h.deps, booking);
    });
    expect(moved?.token_id).not.toBe(decodeJwt(before).jti);
    const after = await credentialsToken(s, second);
    expect(decodeJwt(after)).toMatchObject({
      jti: moved?.token_id,
      nbf: Date.parse('2026-11-23T12:00:00Z') / 1000,
      exp: Date.parse('2026-11-23T13:00:00Z') / 1000,
    });
    h.clock.set('2026-11-23T08:03:15Z');
    expect(await beat()).toEqual([decodeJwt(before).jti]);
    h.clock.set('2026-11-23T12:30:00Z');
    expect((await check(s, before, s.otherDoor.id)).body).toEqual({ allowed: false, reason: 'invalid_token' });
    expect((await check(s, after, s.otherDoor.id)).body.allowed).toBe(true);
  });

  it('a device’s first heartbeat lists every unexpired revocation of the tenant', async () => {
    const s = await setup();
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    const { deviceId, deviceKey } = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    h.clock.set('2026-11-23T09:00:00Z');
    const res = await h.request({
      method: 'POST',
      url: `/api/devices/${deviceId}/heartbeat`,
      apiKey: deviceKey,
      body: TELEMETRY,
    });
    expect(res.body.revoked_token_ids).toEqual([decodeJwt(s.token).jti]);
    h.clock.set('2026-11-23T11:01:00Z'); // the token expired: no longer listed
    const fresh = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    expect(
      (
        await h.request({
          method: 'POST',
          url: `/api/devices/${fresh.deviceId}/heartbeat`,
          apiKey: fresh.deviceKey,
          body: TELEMETRY,
        })
      ).body.revoked_token_ids,
    ).toEqual([]);
  });
  it('a heartbeat is two statements (the key, then one that records it, hands out commands and lists revocations), each revocation once beside several commands', async () => {
    const s = await setup();
    h.clock.set('2026-11-23T08:00:00Z');
    await setBookingStatus(h, s, s.bookingId, 'CANCELLED');
    for (const door of [s.door, s.otherDoor]) {
      const made = await h.graphql(
        s.apiKey,
        `mutation($d: ID!, $door: ID!) { createDeviceCommand(deviceId: $d, type: "unlock", doorId: $door) { command { id } } }`,
        { d: s.deviceId, door: door.id },
      );
      expect(made.body.errors).toBeUndefined();
    }
    const beat = () =>
      h.request({ method: 'POST', url: `/api/devices/${s.deviceId}/heartbeat`, apiKey: s.deviceKey, body: TELEMETRY });
    const before = h.deps.database.queries.count;
    const first = await beat();
    const statements = h.deps.database.queries.count - before;
    expect(first.status).toBe(200);
    expect(first.body.pending_commands).toHaveLength(2);
    expect(first.body.revoked_token_ids).toEqual([decodeJwt(s.token).jti]);
    // A background poll may land in one count, never in two: the fewer is the request's own.
    h.clock.set('2026-11-23T08:00:15Z'); // within the overlap: the revocation is listed again
    const again = h.deps.database.queries.count;
    const second = await beat();
    expect(second.body).toEqual({ status: 'ok', pending_commands: [], revoked_token_ids: [decodeJwt(s.token).jti] });
    expect(Math.min(statements, h.deps.database.queries.count - again)).toBe(2);
  });
});

describe('offline decisions reported back', () => {
  it('are stored once per entry with mode offline and the booking of the token id; 202 {accepted}', async () => {
    const s = await setup();
    const jti = decodeJwt(s.token).jti as string;
    h.clock.set('2026-11-23T10:40:00Z');
    const entries = [
      { token_id: jti, door_id: s.door.id, decided_at: '2026-11-23T10:31:00Z', allowed: true },
      {
        token_id: jti,
        door_id: s.otherDoor.id,
        decided_at: '2026-11-23T10:32:00.000Z',
        allowed: false,
        reason: 'door_not_mapped_to_object',
      },
      {
        token_id: null,
        door_id: s.door.id,
        decided_at: '2026-11-23T10:33:00Z',
        allowed: false,
        reason: 'invalid_token',
      },
    ];
    const post = (body: unknown) =>
      h.request({ method: 'POST', url: `/api/devices/${s.deviceId}/access-log`, apiKey: s.deviceKey, body });
    const first = await post({ entries });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ accepted: 3, rejected: [] });
    expect((await post({ entries })).body).toEqual({ accepted: 3, rejected: [] }); // again: nothing doubled
    expect((await post({ entries: [] })).body).toEqual({ accepted: 0, rejected: [] });
    const log = await h.graphql(
      s.apiKey,
      `query($d: ID) { accessLog(deviceId: $d) { doorId bookingId allowed reason mode tokenId checkedAt credentialType } }`,
      { d: s.deviceId },
    );
    expect(log.body.data.accessLog).toEqual([
      {
        doorId: s.door.id,
        bookingId: null,
        allowed: false,
        reason: 'invalid_token',
        mode: 'offline',
        tokenId: null,
        checkedAt: '2026-11-23T10:33:00.000Z',
        credentialType: null,
      },
      {
        doorId: s.otherDoor.id,
        bookingId: s.bookingId,
        allowed: false,
        reason: 'door_not_mapped_to_object',
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T10:32:00.000Z',
        credentialType: 'qr',
      },
      {
        doorId: s.door.id,
        bookingId: s.bookingId,
        allowed: true,
        reason: null,
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T10:31:00.000Z',
        credentialType: 'qr',
      },
    ]);
  });

  it.each([
    [{}, 'entries'],
    [{ entries: [{ door_id: 'x', decided_at: '2026-11-23T10:31:00Z', allowed: true }] }, 'entries.0.door_id'],
    [
      { entries: [{ door_id: '0b0e8b1c-6f57-4d8c-9d8e-1c1b1f1e1d1c', decided_at: 'yesterday', allowed: true }] },
      'entries.0.decided_at',
    ],
    [
      {
        entries: [
          { door_id: '0b0e8b1c-6f57-4d8c-9d8e-1c1b1f1e1d1c', decided_at: '2026-11-23T10:31:00Z', allowed: false },
        ],
      },
      'entries.0.reason',
    ],
    [
      {
        entries: [
          {
            door_id: '0b0e8b1c-6f57-4d8c-9d8e-1c1b1f1e1d1c',
            decided_at: '2026-11-23T10:31:00Z',
            allowed: false,
            reason: 'because',
          },
        ],
      },
      'entries.0.reason',
    ],
  ])('refuses %j with 400 naming %s, storing nothing', async (body, field) => {
    const s = await setup();
    h.clock.set('2026-11-23T10:40:00Z');
    const res = await h.request({
      method: 'POST',
      url: `/api/devices/${s.deviceId}/access-log`,
      apiKey: s.deviceKey,
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  // #23 finding 3: a stolen device key must not forge admissions for any door and any date.
  it('#23 finding 3: refuses per entry a door the device does not drive, another tenant’s door, a random UUID, year 1, the future, an unknown token id', async () => {
    const s = await setup();
    const jti = decodeJwt(s.token).jti as string;
    const unassigned = await buildDoor(h, s.tenantId, [s.objects[0].id], { gpioPin: 23 }); // same tenant and object, another device's door
    const elsewhere = await buildVenue(h, { objects: 1 });
    const foreignDoor = await buildDoor(h, elsewhere.tenantId, [elsewhere.objects[0].id]);
    h.clock.set('2026-11-23T10:40:00Z');
    const allowed = (doorId: string, decidedAt: string, tokenId: string | null = jti) => ({
      token_id: tokenId,
      door_id: doorId,
      decided_at: decidedAt,
      allowed: true,
    });
    const entries = [
      allowed(s.door.id, '2026-11-23T10:31:00Z'), // 0: believed
      allowed(unassigned.id, '2026-11-23T10:31:00Z'),
      allowed(foreignDoor.id, '2026-11-23T10:31:00Z'),
      allowed('5f0c3a52-8a9e-4c55-9a54-2d1a3f0e7b11', '2026-11-23T10:31:00Z'),
      allowed(s.door.id, '0001-01-01T00:00:00Z'),
      allowed(s.door.id, '2026-11-23T10:41:00Z'), // a minute ahead of the server: beyond the 30 s skew
      allowed(s.door.id, '2026-11-23T10:32:00Z', 'tok_unknown'),
      allowed(s.door.id, '2026-11-23T10:33:00Z', null),
      allowed(s.otherDoor.id, '2026-11-23T10:34:00Z'), // a door of the device that does not serve the booking's object
      allowed(s.door.id, '2026-11-23T09:59:31Z'), // 29 s before the window: inside the skew, believed
      allowed(s.door.id, '2026-11-23T09:59:29Z'),
      allowed(s.door.id, '2026-11-23T10:40:29Z'), // 29 s ahead of the server: inside the skew, believed
      {
        token_id: 'tok_unknown',
        door_id: s.door.id,
        decided_at: '2026-11-23T10:35:00Z',
        allowed: false,
        reason: 'invalid_token',
      },
      {
        token_id: null,
        door_id: foreignDoor.id,
        decided_at: '2026-11-23T10:35:00Z',
        allowed: false,
        reason: 'invalid_token',
      },
      {
        token_id: null,
        door_id: s.door.id,
        decided_at: '2026-11-23T10:36:00Z',
        allowed: false,
        reason: 'invalid_token',
      }, // believed
    ];
    const res = await h.request({
      method: 'POST',
      url: `/api/devices/${s.deviceId}/access-log`,
      apiKey: s.deviceKey,
      body: { entries },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: 5,
      rejected: [
        { index: 1, reason: 'door_not_assigned' },
        { index: 2, reason: 'door_not_assigned' },
        { index: 3, reason: 'door_not_assigned' },
        { index: 4, reason: 'outside_token_validity' },
        { index: 5, reason: 'decided_in_future' },
        { index: 6, reason: 'unknown_token' },
        { index: 7, reason: 'token_required' },
        { index: 8, reason: 'token_not_for_door' },
        { index: 10, reason: 'outside_token_validity' },
        { index: 13, reason: 'door_not_assigned' },
      ],
    });
    const log = await h.graphql(s.apiKey, `query($d: ID) { accessLog(deviceId: $d) { doorId allowed checkedAt } }`, {
      d: s.deviceId,
    });
    expect(log.body.data.accessLog).toEqual([
      { doorId: s.door.id, allowed: true, checkedAt: '2026-11-23T10:40:29.000Z' },
      { doorId: s.door.id, allowed: false, checkedAt: '2026-11-23T10:36:00.000Z' },
      { doorId: s.door.id, allowed: false, checkedAt: '2026-11-23T10:35:00.000Z' }, // the unknown token's denial
      { doorId: s.door.id, allowed: true, checkedAt: '2026-11-23T10:31:00.000Z' },
      { doorId: s.door.id, allowed: true, checkedAt: '2026-11-23T09:59:31.000Z' },
    ]);
    // Nothing reached the other tenant's log either.
    const foreign = await h.graphql(elsewhere.apiKey, `query { accessLog { id } }`);
    expect(foreign.body.data.accessLog).toEqual([]);
  });

  it('issue #42: an offline denial of a token Portier never issued is kept (invalid_token); its admission is still refused', async () => {
    const s = await setup();
    h.clock.set('2026-11-23T10:40:00Z');
    const forged = { token_id: 'forged-jti-42', door_id: s.door.id, decided_at: '2026-11-23T10:32:00Z' };
    const post = (entries: unknown[]) =>
      h.request({
        method: 'POST',
        url: `/api/devices/${s.deviceId}/access-log`,
        apiKey: s.deviceKey,
        body: { entries },
      });
    const res = await post([
      { ...forged, allowed: false, reason: 'outside_booking_window' },
      { ...forged, decided_at: '2026-11-23T10:33:00Z', allowed: true },
    ]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 1, rejected: [{ index: 1, reason: 'unknown_token' }] });
    // Reported again (the door retries): stored once.
    expect((await post([{ ...forged, allowed: false, reason: 'outside_booking_window' }])).body).toEqual({
      accepted: 1,
      rejected: [],
    });
    const log = await h.graphql(
      s.apiKey,
      `query($d: ID) { accessLog(deviceId: $d) { doorId allowed reason mode tokenId bookingId checkedAt } }`,
      { d: s.deviceId },
    );
    expect(log.body.data.accessLog).toEqual([
      {
        doorId: s.door.id,
        allowed: false,
        reason: 'invalid_token',
        mode: 'offline',
        tokenId: 'forged-jti-42',
        bookingId: null,
        checkedAt: '2026-11-23T10:32:00.000Z',
      },
    ]);
  });

  it('#23 finding 3: an admission with a revoked token is believed only inside that token’s own window', async () => {
    const s = await setup();
    const oldJti = decodeJwt(s.token).jti as string;
    h.clock.set(CREATED_AT);
    await h.deps.database.db.transaction().execute(async (trx) => {
      const booking = await trx
        .updateTable('bookings')
        .set({
          start_time: new Date('2026-11-23T12:00:00Z'),
          end_time: new Date('2026-11-23T13:00:00Z'),
          blocked_until: new Date('2026-11-23T13:00:00Z'),
        })
        .where('id', '=', s.bookingId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return rescheduleCredentials(trx, h.deps, booking);
    });
    h.clock.set('2026-11-23T12:40:00Z');
    const post = (decidedAt: string) =>
      h.request({
        method: 'POST',
        url: `/api/devices/${s.deviceId}/access-log`,
        apiKey: s.deviceKey,
        body: { entries: [{ token_id: oldJti, door_id: s.door.id, decided_at: decidedAt, allowed: true }] },
      });
    expect((await post('2026-11-23T10:30:00Z')).body).toEqual({ accepted: 1, rejected: [] }); // decided offline before the door learned of the move
    expect((await post('2026-11-23T12:30:00Z')).body).toEqual({
      accepted: 0,
      rejected: [{ index: 0, reason: 'outside_token_validity' }],
    });
    expect((await post('0001-01-01T00:00:00Z')).body).toEqual({
      accepted: 0,
      rejected: [{ index: 0, reason: 'outside_token_validity' }],
    });
  });

  it('is only for the device itself', async () => {
    const s = await setup();
    const other = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    const res = await h.request({
      method: 'POST',
      url: `/api/devices/${s.deviceId}/access-log`,
      apiKey: other.deviceKey,
      body: { entries: [] },
    });
    expect(res.status).toBe(403);
    expect(
      (await h.request({ method: 'POST', url: `/api/devices/${s.deviceId}/access-log`, body: { entries: [] } })).status,
    ).toBe(401);
  });
});
