import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { harness, type Harness } from './harness.js';
import { bookViaRest, buildDevice, buildDoor, buildVenue, setBookingStatus } from './builders.js';
import { DoorClient, memoryStore } from '../examples/door-client/door-client.js';

// The reference door client (examples/door-client) against the app, with the test clock. "The
// server stopped" is a transport that fails every request as a refused connection would.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const START = '2026-11-23T10:00:00.000Z';
const END = '2026-11-23T11:00:00.000Z';

function transport(link: { up: boolean }): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    if (!link.up) throw new TypeError('fetch failed: connect ECONNREFUSED');
    const url = new URL(input instanceof Request ? input.url : input);
    const res = await h.app.fastify.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init?.headers as Record<string, string>,
      payload: init?.body as string | undefined,
    });
    return new Response(res.body.length ? res.body : null, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  };
}

async function setup(options: { clockAheadMs?: number } = {}) {
  const venue = await buildVenue(h, { objects: 2 });
  const door = await buildDoor(h, venue.tenantId, [venue.objects[0].id], { gpioPin: 17, unlockDurationSeconds: 5 });
  const otherDoor = await buildDoor(h, venue.tenantId, [venue.objects[1].id], { gpioPin: 22 });
  const { activationCode, device } = await buildDevice(h, venue.tenantId, [door.id, otherDoor.id]);
  h.clock.set('2026-11-23T07:00:00Z');
  const book = async (objectIndex: number) => {
    const id = await bookViaRest(h, {
      tenantId: venue.tenantId,
      apiKey: venue.apiKey,
      objectId: venue.objects[objectIndex].id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${id}/credentials`,
      apiKey: venue.apiKey,
    });
    return { id, token: res.body.qrCode.token as string };
  };
  const booking = await book(0);
  const link = { up: true };
  const unlocks: { pin: number; seconds: number }[] = [];
  const logs: string[] = [];
  const client = new DoorClient({
    baseUrl: 'http://portier.test',
    fetch: transport(link),
    now: options.clockAheadMs ? () => new Date(h.clock.now().getTime() + (options.clockAheadMs ?? 0)) : h.clock.now,
    log: (m) => void logs.push(m),
    store: memoryStore(),
    actuator: {
      unlock: async (pin, seconds) => void unlocks.push({ pin, seconds }),
      doorStates: () => ({ [door.id]: 'locked' }),
    },
  });
  await client.activate(activationCode);
  return { ...venue, door, otherDoor, deviceId: device.id, booking, book, link, unlocks, logs, client };
}

const at = (iso: string) => h.clock.set(iso);

describe('the reference door client', () => {
  it('opens online; with the server stopped opens only within window, max_offline_seconds and the right door; reports offline decisions after reconnecting', async () => {
    const s = await setup();
    at('2026-11-23T10:05:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'online' });
    expect(s.unlocks).toEqual([{ pin: 17, seconds: 5 }]);

    s.link.up = false; // the server is gone
    at('2026-11-23T10:10:00Z');
    expect(await s.client.heartbeat()).toBe(false);
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' });
    expect(s.unlocks).toHaveLength(2);
    at('2026-11-23T10:10:01Z');
    expect(await s.client.scan(s.booking.token, s.otherDoor.id)).toEqual({
      allowed: false,
      reason: 'door_not_mapped_to_object',
      mode: 'offline',
    });
    // 900 s after the last heartbeat (10:05) the door stops deciding alone, although the booking still runs.
    at('2026-11-23T10:20:00Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' });
    at('2026-11-23T10:20:01Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({
      allowed: false,
      reason: 'offline_limit_exceeded',
      mode: 'offline',
    });
    expect(s.unlocks).toHaveLength(3);

    // Online again just before the end; then offline past the end (and its 30 s clock skew).
    s.link.up = true;
    at('2026-11-23T10:58:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    s.link.up = false;
    at('2026-11-23T11:00:20Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' }); // within the skew
    at('2026-11-23T11:00:31Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({
      allowed: false,
      reason: 'outside_booking_window',
      mode: 'offline',
    });
    at('2026-11-23T11:00:32Z');
    expect(await s.client.scan('12345678', s.door.id)).toEqual({
      allowed: false,
      reason: 'online_only_credential',
      mode: 'offline',
    });

    s.link.up = true;
    at('2026-11-23T11:01:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    const log = await h.graphql(
      s.apiKey,
      `query($d: ID) { accessLog(deviceId: $d) { doorId allowed reason mode tokenId checkedAt bookingId } }`,
      { d: s.deviceId },
    );
    const jti = decodeJwt(s.booking.token).jti;
    const b = s.booking.id;
    expect(log.body.data.accessLog).toEqual([
      {
        doorId: s.door.id,
        allowed: false,
        reason: 'online_only_credential',
        mode: 'offline',
        tokenId: null,
        checkedAt: '2026-11-23T11:00:32.000Z',
        bookingId: null,
      },
      {
        doorId: s.door.id,
        allowed: false,
        reason: 'outside_booking_window',
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T11:00:31.000Z',
        bookingId: b,
      },
      {
        doorId: s.door.id,
        allowed: true,
        reason: null,
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T11:00:20.000Z',
        bookingId: b,
      },
      {
        doorId: s.door.id,
        allowed: false,
        reason: 'offline_limit_exceeded',
        mode: 'offline',
        tokenId: null,
        checkedAt: '2026-11-23T10:20:01.000Z',
        bookingId: null,
      },
      {
        doorId: s.door.id,
        allowed: true,
        reason: null,
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T10:20:00.000Z',
        bookingId: b,
      },
      {
        doorId: s.otherDoor.id,
        allowed: false,
        reason: 'door_not_mapped_to_object',
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T10:10:01.000Z',
        bookingId: b,
      },
      {
        doorId: s.door.id,
        allowed: true,
        reason: null,
        mode: 'offline',
        tokenId: jti,
        checkedAt: '2026-11-23T10:10:00.000Z',
        bookingId: b,
      },
      {
        doorId: s.door.id,
        allowed: true,
        reason: null,
        mode: 'online',
        tokenId: jti,
        checkedAt: '2026-11-23T10:05:00.000Z',
        bookingId: b,
      },
    ]);
    // Reconnecting again sends nothing twice.
    at('2026-11-23T11:01:15Z');
    await s.client.heartbeat();
    expect(
      (await h.graphql(s.apiKey, `query($d: ID) { accessLog(deviceId: $d) { id } }`, { d: s.deviceId })).body.data
        .accessLog,
    ).toHaveLength(8);
  });

  it('refuses offline before the window, and a token revoked in a heartbeat received before the outage', async () => {
    const s = await setup();
    const second = await s.book(1);
    at('2026-11-23T09:55:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    s.link.up = false;
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({
      allowed: false,
      reason: 'outside_booking_window',
      mode: 'offline',
    });

    s.link.up = true;
    await setBookingStatus(h, s, second.id, 'CANCELLED');
    at('2026-11-23T10:00:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    s.link.up = false;
    at('2026-11-23T10:05:00Z');
    expect(await s.client.scan(second.token, s.otherDoor.id)).toEqual({
      allowed: false,
      reason: 'invalid_token',
      mode: 'offline',
    });
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' });
  });

  it('refuses offline a token of another tenant’s key, an altered claim, an unknown key id, alg none and an expired token', async () => {
    const s = await setup();
    const other = await buildVenue(h);
    await buildDoor(h, other.tenantId, [other.object.id]);
    h.clock.set('2026-11-23T07:00:00Z');
    const otherBooking = await bookViaRest(h, {
      tenantId: other.tenantId,
      apiKey: other.apiKey,
      objectId: other.object.id,
      startTime: START,
      endTime: END,
      status: 'CONFIRMED',
    });
    const otherToken = (
      await h.request({
        method: 'GET',
        url: `/api/v1/tenants/${other.tenantId}/bookings/${otherBooking}/credentials`,
        apiKey: other.apiKey,
      })
    ).body.qrCode.token;
    const claims = decodeJwt(s.booking.token);
    const kid = decodeProtectedHeader(s.booking.token).kid!;
    const [header, payload, signature] = s.booking.token.split('.');
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const { privateKey } = generateKeyPairSync('ed25519');
    const refused = {
      'another tenant’s token': otherToken,
      'another tenant’s key claiming this tenant': await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: decodeProtectedHeader(otherToken).kid! })
        .sign(privateKey),
      'an altered claim': `${header}.${b64({ ...claims, obj: [s.objects[1].id] })}.${signature}`,
      'an unknown key id': await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'portier-door+jwt', kid: 'nosuchkey123' })
        .sign(privateKey),
      'alg none': `${b64({ alg: 'none', typ: 'portier-door+jwt', kid })}.${payload}.`,
    };
    at('2026-11-23T10:10:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    s.link.up = false;
    for (const [what, token] of Object.entries(refused)) {
      expect(await s.client.scan(token, s.door.id), what).toEqual({
        allowed: false,
        reason: 'invalid_token',
        mode: 'offline',
      });
      expect(await s.client.scan(token, s.otherDoor.id), what).toEqual({
        allowed: false,
        reason: 'invalid_token',
        mode: 'offline',
      });
    }
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' });
    // Expired: a later heartbeat, then past the end.
    s.link.up = true;
    at('2026-11-23T10:59:00Z');
    await s.client.heartbeat();
    s.link.up = false;
    at('2026-11-23T11:05:00Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({
      allowed: false,
      reason: 'outside_booking_window',
      mode: 'offline',
    });
  });

  it('learns a rotated key after the outage and verifies tokens of both keys offline; executes unlock commands and reports them', async () => {
    const s = await setup();
    at('2026-11-23T10:01:00Z');
    await s.client.heartbeat();
    expect((await h.graphql(s.apiKey, 'mutation { rotateDoorSigningKey { kid } }')).body.errors).toBeUndefined();
    h.clock.set('2026-11-23T07:00:00Z');
    const second = await s.book(1);
    expect(decodeProtectedHeader(second.token).kid).not.toBe(decodeProtectedHeader(s.booking.token).kid);
    at('2026-11-23T10:02:00Z');
    s.link.up = false;
    await s.client.heartbeat();
    s.link.up = true;
    const command = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${s.tenantId}/devices/${s.deviceId}/commands`,
      apiKey: s.apiKey,
      body: { type: 'unlock', doorId: s.otherDoor.id, durationSeconds: 3 },
    });
    expect(command.status).toBe(201);
    at('2026-11-23T10:02:15Z');
    expect(await s.client.heartbeat()).toBe(true); // back after an outage: fetches the config again
    expect(s.unlocks).toEqual([{ pin: 22, seconds: 3 }]);
    const commands = await h.graphql(
      s.apiKey,
      `query($d: ID!) { deviceCommands(deviceId: $d) { command { status } } }`,
      { d: s.deviceId },
    );
    expect(commands.body.data.deviceCommands[0].command.status).toBe('executed');
    s.link.up = false;
    at('2026-11-23T10:03:00Z');
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' });
    expect(await s.client.scan(second.token, s.otherDoor.id)).toEqual({ allowed: true, mode: 'offline' });
  });

  it('#23 finding 3: shows the offline decisions Portier refused (a door clock running 2 minutes ahead) and does not send them again', async () => {
    const s = await setup({ clockAheadMs: 120_000 });
    at('2026-11-23T10:05:00Z');
    expect(await s.client.heartbeat()).toBe(true);
    s.link.up = false;
    expect(await s.client.scan(s.booking.token, s.door.id)).toEqual({ allowed: true, mode: 'offline' }); // decided at 10:07 by the door's clock
    s.link.up = true;
    at('2026-11-23T10:05:15Z');
    expect(await s.client.heartbeat()).toBe(true);
    expect(s.logs.filter((m) => m.includes('refused by Portier'))).toEqual([
      `offline decision refused by Portier (decided_in_future): door ${s.door.id} at 2026-11-23T10:07:00.000Z, token ${decodeJwt(s.booking.token).jti}, allowed true`,
    ]);
    const log = await h.graphql(s.apiKey, `query($d: ID) { accessLog(deviceId: $d) { allowed mode } }`, {
      d: s.deviceId,
    });
    expect(log.body.data.accessLog).toEqual([]);
    at('2026-11-23T10:05:30Z');
    expect(await s.client.heartbeat()).toBe(true);
    expect(s.logs.filter((m) => m.includes('refused by Portier'))).toHaveLength(1); // dropped, not sent again
  });

  it('#23 finding 10: npm run door -- --help prints the usage and exits 0', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/door-client/main.ts', '--help'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: npm run door -- [--activation-code CODE]');
    const wrong = spawnSync(process.execPath, ['--import', 'tsx', 'examples/door-client/main.ts', '--no-such-option'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--no-such-option'");
  });
});
