import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildActiveDevice, buildDevice, buildDoor, buildVenue } from './builders.js';
import { sha256 } from '../src/kernel/crypto.js';
import { importCatalog } from '../src/transport/import/import.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const TELEMETRY = {
  cpu_percent: 12,
  memory_percent: 40,
  wifi_signal_dbm: -61,
  door_states: {} as Record<string, string>,
};

/** An activation from a given client address (the failure limit is per address). */
async function activate(body: unknown, remoteAddress = '127.0.0.1'): Promise<TestResponse> {
  const res = await h.app.fastify.inject({
    method: 'POST',
    url: '/api/devices/activate',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    remoteAddress,
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.body ? JSON.parse(res.body) : undefined,
    text: res.body,
  };
}

function device(key: string | null, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
  return h.request({ method, url: `/api/devices${url}`, apiKey: key, body });
}

const DEVICE_FIELDS = `id name status online lastHeartbeatAt serial firmwareVersion keyPrefix activationExpiresAt activatedAt revokedAt
  telemetry { cpuPercent memoryPercent wifiSignalDbm doorStates { doorId state } } doors { id name }`;

describe('registering devices (tenant side)', () => {
  it('returns a one-time activation code, stores only its hash, and lists the device pending activation', async () => {
    const { apiKey, object, tenantId } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const res = await h.graphql(
      apiKey,
      `mutation($d: [ID!]!) { registerDevice(name: "Gate controller", doorIds: $d) { activationCode device { ${DEVICE_FIELDS} } } }`,
      {
        d: [door.id],
      },
    );
    expect(res.body.errors).toBeUndefined();
    const { activationCode, device: registered } = res.body.data.registerDevice;
    expect(activationCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){6}$/);
    expect(registered).toMatchObject({
      name: 'Gate controller',
      status: 'PENDING_ACTIVATION',
      online: false,
      telemetry: null,
      keyPrefix: null,
      doors: [{ id: door.id, name: 'Gate' }],
    });
    const days = (Date.parse(registered.activationExpiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const row = await h.deps.database.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', registered.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(activationCode.replace(/-/g, ''));
    expect(row.activation_code_hash).toBe(sha256(activationCode.replace(/-/g, '')));

    const list = await h.graphql(apiKey, `{ devices { id status } }`);
    expect(list.body.data.devices).toEqual([{ id: registered.id, status: 'PENDING_ACTIVATION' }]);
  });

  it('refuses doors of another tenant, naming doorIds', async () => {
    const { apiKey } = await buildVenue(h);
    const other = await buildVenue(h);
    const foreignDoor = await buildDoor(h, other.tenantId, [other.object.id]);
    const res = await h.graphql(
      apiKey,
      `mutation($d: [ID!]!) { registerDevice(name: "X", doorIds: $d) { activationCode } }`,
      { d: [foreignDoor.id] },
    );
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'doorIds' }] });
  });

  it('needs devices:write to register and devices:read to list', async () => {
    const { tenantId } = await buildVenue(h);
    const reader = await h.key(tenantId, ['devices:read']);
    const denied = await h.graphql(reader, `mutation { registerDevice(name: "X", doorIds: []) { activationCode } }`);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await h.graphql(reader, `{ devices { id } }`)).body.data.devices).toEqual([]);
    const bookingsOnly = await h.key(tenantId, ['bookings:read']);
    expect((await h.graphql(bookingsOnly, `{ devices { id } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('does not show another tenant its devices', async () => {
    const a = await buildVenue(h);
    const b = await buildVenue(h);
    const { device: registered } = await buildDevice(h, a.tenantId, []);
    const res = await h.graphql(b.apiKey, `query($id: ID!) { device(id: $id) { id } }`, { id: registered.id });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const revoke = await h.graphql(b.apiKey, `mutation($id: ID!) { revokeDevice(id: $id) { id } }`, {
      id: registered.id,
    });
    expect(revoke.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('activation', () => {
  it('exchanges the code for a device key once; the key is stored hashed', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const { activationCode, device: registered } = await buildDevice(h, tenantId, []);
    const res = await activate({
      activation_code: activationCode.toLowerCase(),
      serial: 'SN-42',
      firmware_version: '2.1.0',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      device_id: registered.id,
      device_key: expect.stringMatching(/^svc_dk_[A-Za-z0-9_-]{43}$/),
      message: expect.any(String),
    });
    const row = await h.deps.database.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', registered.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(res.body.device_key));
    expect(JSON.stringify(row)).not.toContain(res.body.device_key);

    const again = await activate({ activation_code: activationCode, serial: 'SN-43', firmware_version: '2.1.0' });
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.body).toMatchObject({ status: 409, code: 'activation_code_used' });

    const view = await h.graphql(
      apiKey,
      `query($id: ID!) { device(id: $id) { status serial firmwareVersion keyPrefix } }`,
      { id: registered.id },
    );
    expect(view.body.data.device).toEqual({
      status: 'ACTIVE',
      serial: 'SN-42',
      firmwareVersion: '2.1.0',
      keyPrefix: res.body.device_key.slice(0, 12),
    });
  });

  it('refuses an unknown code with 400 naming activation_code', async () => {
    const res = await activate(
      { activation_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG', serial: 'SN', firmware_version: '1' },
      '10.1.0.1',
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'activation_code_invalid', errors: [{ field: 'activation_code' }] });
  });

  it('refuses a code after 7 days with 409 activation_code_expired', async () => {
    const { tenantId } = await buildVenue(h);
    h.clock.set('2026-11-20T10:00:00Z');
    const { activationCode } = await buildDevice(h, tenantId, []);
    h.clock.set('2026-11-27T09:59:59Z');
    const { activationCode: second } = await buildDevice(h, tenantId, []);
    h.clock.set('2026-11-27T10:00:00Z');
    const expired = await activate({ activation_code: activationCode, serial: 'SN', firmware_version: '1' });
    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe('activation_code_expired');
    expect((await activate({ activation_code: second, serial: 'SN', firmware_version: '1' })).status).toBe(200);
  });

  it('refuses the code of a revoked device', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const { activationCode, device: registered } = await buildDevice(h, tenantId, []);
    await h.graphql(apiKey, `mutation($id: ID!) { revokeDevice(id: $id) { status } }`, { id: registered.id });
    const res = await activate({ activation_code: activationCode, serial: 'SN', firmware_version: '1' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('device_revoked');
  });

  it.each([
    [{ serial: 'SN', firmware_version: '1' }, 'activation_code'],
    [{ activation_code: 'X', firmware_version: '1' }, 'serial'],
    [{ activation_code: 'X', serial: 'SN' }, 'firmware_version'],
    [{ activation_code: 42, serial: 'SN', firmware_version: '1' }, 'activation_code'],
    [{ activation_code: 'X', serial: '', firmware_version: '1' }, 'serial'],
  ])('refuses the malformed body %j with 400 naming %s', async (body, field) => {
    const res = await activate(body, '10.1.0.2');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('slows down repeated wrong codes from one address: 429 with Retry-After after 5 in 15 minutes', async () => {
    h.clock.set('2026-11-20T10:00:00Z');
    const wrong = { activation_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG', serial: 'SN', firmware_version: '1' };
    for (let i = 0; i < 5; i += 1) expect((await activate(wrong, '10.2.0.1')).status).toBe(400);
    const { tenantId } = await buildVenue(h);
    const { activationCode } = await buildDevice(h, tenantId, []);
    const blocked = await activate({ ...wrong, activation_code: activationCode }, '10.2.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('too_many_activation_attempts');
    const wait = Number(blocked.headers['retry-after']);
    expect(wait).toBeGreaterThan(800);
    expect(wait).toBeLessThanOrEqual(900);
    expect((await activate(wrong, '10.2.0.2')).status).toBe(400);
    // Once the window is over (test/limits.test.ts lets one run out) the address may try again.
    await h.deps.limits.activationCodes.reset('10.2.0.1');
    expect((await activate({ ...wrong, activation_code: activationCode }, '10.2.0.1')).status).toBe(200);
  });

  it('of 20 concurrent activations with one code, exactly one gets a device key', async () => {
    const { tenantId } = await buildVenue(h);
    const { activationCode } = await buildDevice(h, tenantId, []);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        activate({ activation_code: activationCode, serial: `SN-${i}`, firmware_version: '1' }, '10.3.0.1'),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'activation_code_used')).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const keys = await h.deps.database.db
      .selectFrom('devices')
      .select('key_hash')
      .where('id', '=', ok[0].body.device_id)
      .execute();
    expect(keys).toEqual([{ key_hash: sha256(ok[0].body.device_key) }]);
  });
});

describe('device authentication', () => {
  it('answers 401 without a key, with an unknown key, and with an API key', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const { deviceId } = await buildActiveDevice(h, tenantId, [(await buildDoor(h, tenantId, [object.id])).id]);
    for (const key of [null, 'svc_dk_not-a-real-key', apiKey]) {
      const res = await device(key, 'POST', `/${deviceId}/heartbeat`, TELEMETRY);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        key === null
          ? 'Bearer realm="portier"'
          : 'Bearer realm="portier", error="invalid_token", error_description="The device key is unknown or revoked"',
      );
      expect(res.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
  });

  it('a revoked device key stops working at once', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const { deviceId, deviceKey } = await buildActiveDevice(h, tenantId, []);
    expect((await device(deviceKey, 'GET', `/${deviceId}/config`)).status).toBe(200);
    const revoked = await h.graphql(
      apiKey,
      `mutation($id: ID!) { revokeDevice(id: $id) { status revokedAt online } }`,
      { id: deviceId },
    );
    expect(revoked.body.data.revokeDevice).toMatchObject({ status: 'REVOKED', online: false });
    for (const [method, url] of [
      ['GET', '/config'],
      ['POST', '/heartbeat'],
      ['GET', '/commands'],
      ['POST', '/access-check'],
    ] as const) {
      const res = await device(deviceKey, method, `/${deviceId}${url}`, method === 'POST' ? {} : undefined);
      expect(res.status, url).toBe(401);
    }
    const again = await h.graphql(apiKey, `mutation($id: ID!) { revokeDevice(id: $id) { revokedAt } }`, {
      id: deviceId,
    });
    expect(again.body.data.revokeDevice.revokedAt).toBe(revoked.body.data.revokeDevice.revokedAt);
  });

  it("refuses another device's id with 403, before looking at the body", async () => {
    const { tenantId } = await buildVenue(h);
    const mine = await buildActiveDevice(h, tenantId, []);
    const other = await buildActiveDevice(h, tenantId, []);
    for (const [method, url, body] of [
      ['POST', '/heartbeat', TELEMETRY],
      ['POST', '/heartbeat', { nonsense: true }],
      ['GET', '/commands', undefined],
      ['PATCH', `/commands/${crypto.randomUUID()}`, { status: 'executed' }],
      ['GET', '/config', undefined],
      ['POST', '/access-check', { token: 'x', doorId: 'y' }],
    ] as const) {
      const res = await device(mine.deviceKey, method, `/${other.deviceId}${url}`, body);
      expect(res.status, url).toBe(403);
      expect(res.body.code).toBe('device_mismatch');
    }
  });
});

describe('heartbeat and config', () => {
  it('records telemetry and door states; the device is online for 45 s after a heartbeat', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const { deviceId, deviceKey } = await buildActiveDevice(h, tenantId, [door.id]);
    h.clock.set('2026-11-20T10:00:00Z');
    const res = await device(deviceKey, 'POST', `/${deviceId}/heartbeat`, {
      ...TELEMETRY,
      door_states: { [door.id]: 'locked' },
      uptime_seconds: 5,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', pending_commands: [], revoked_token_ids: [] });

    const query = `{ devices { id online lastHeartbeatAt telemetry { cpuPercent memoryPercent wifiSignalDbm doorStates { doorId state } } } }`;
    h.clock.set('2026-11-20T10:00:45Z');
    const online = await h.graphql(apiKey, query);
    expect(online.body.data.devices).toEqual([
      {
        id: deviceId,
        online: true,
        lastHeartbeatAt: '2026-11-20T10:00:00.000Z',
        telemetry: {
          cpuPercent: 12,
          memoryPercent: 40,
          wifiSignalDbm: -61,
          doorStates: [{ doorId: door.id, state: 'locked' }],
        },
      },
    ]);
    h.clock.set('2026-11-20T10:00:46Z');
    expect((await h.graphql(apiKey, query)).body.data.devices[0].online).toBe(false);
  });

  it.each([
    [{ memory_percent: 1, wifi_signal_dbm: -50, door_states: {} }, 'cpu_percent'],
    [{ cpu_percent: 'high', memory_percent: 1, wifi_signal_dbm: -50, door_states: {} }, 'cpu_percent'],
    [{ cpu_percent: 101, memory_percent: 1, wifi_signal_dbm: -50, door_states: {} }, 'cpu_percent'],
    [{ cpu_percent: 1, memory_percent: 1.5, wifi_signal_dbm: -50, door_states: {} }, 'memory_percent'],
    [{ cpu_percent: 1, memory_percent: 1, wifi_signal_dbm: 20, door_states: {} }, 'wifi_signal_dbm'],
    [{ cpu_percent: 1, memory_percent: 1, wifi_signal_dbm: -50 }, 'door_states'],
    [{ cpu_percent: 1, memory_percent: 1, wifi_signal_dbm: -50, door_states: { d1: 'ajar' } }, 'door_states.d1'],
  ])('refuses the malformed telemetry %j with 400 naming %s', async (body, field) => {
    const { tenantId } = await buildVenue(h);
    const { deviceId, deviceKey } = await buildActiveDevice(h, tenantId, []);
    const res = await device(deviceKey, 'POST', `/${deviceId}/heartbeat`, body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('gives the device its doors, GPIO pins, behaviours and objects', async () => {
    const { tenantId, objects } = await buildVenue(h, { objects: 2 });
    const gate = await buildDoor(h, tenantId, [objects[0].id, objects[1].id], {
      gpioPin: 17,
      unlockDurationSeconds: 5,
    });
    const side = await buildDoor(h, tenantId, [objects[1].id], { gpioPin: 22, unlockDurationSeconds: 8 });
    await buildDoor(h, tenantId, [objects[0].id]); // not this device's
    const { deviceId, deviceKey } = await buildActiveDevice(h, tenantId, [gate.id, side.id]);
    const res = await device(deviceKey, 'GET', `/${deviceId}/config`);
    expect(res.status).toBe(200);
    expect(res.body.device_id).toBe(deviceId);
    expect(res.body.heartbeat_interval_seconds).toBe(15);
    const byId = Object.fromEntries(res.body.doors.map((d: { id: string }) => [d.id, d]));
    expect(Object.keys(byId).sort()).toEqual([gate.id, side.id].sort());
    expect(byId[gate.id]).toEqual({
      id: gate.id,
      name: 'Gate',
      gpio_pin: 17,
      behavior: 'unlock_per_scan',
      unlock_duration_seconds: 5,
      object_ids: [objects[0].id, objects[1].id].sort(),
    });
    expect(byId[side.id]).toEqual({
      id: side.id,
      name: 'Gate',
      gpio_pin: 22,
      behavior: 'unlock_per_scan',
      unlock_duration_seconds: 8,
      object_ids: [objects[1].id],
    });
  });

  it('setDeviceDoors replaces the doors a device drives', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const a = await buildDoor(h, tenantId, [object.id]);
    const b = await buildDoor(h, tenantId, [object.id], { gpioPin: 4 });
    const { deviceId, deviceKey } = await buildActiveDevice(h, tenantId, [a.id]);
    const res = await h.graphql(
      apiKey,
      `mutation($id: ID!, $d: [ID!]!) { setDeviceDoors(id: $id, doorIds: $d) { doors { id } } }`,
      { id: deviceId, d: [b.id] },
    );
    expect(res.body.data.setDeviceDoors.doors).toEqual([{ id: b.id }]);
    const config = await device(deviceKey, 'GET', `/${deviceId}/config`);
    expect(config.body.doors.map((d: { id: string }) => d.id)).toEqual([b.id]);
  });
});

describe('catalog import of devices', () => {
  it('registers each device for its doors and returns its id and activation code', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const result = await importCatalog(h.deps, tenantId, {
      accommodations: [
        {
          key: 'park',
          name: 'Sportpark Nord',
          address: 'Hauptstrasse 1',
          timeZone: 'Europe/Berlin',
          objects: [{ key: 'court1', name: 'Court 1', pricePerHour: 2000 }],
        },
      ],
      doors: [
        {
          key: 'gate',
          name: 'Main gate',
          gpioPin: 17,
          unlockDurationSeconds: 5,
          behavior: 'unlock_per_scan',
          objects: ['court1'],
        },
      ],
      devices: [{ key: 'ctrl', name: 'Gate controller', doors: ['gate'] }],
    });
    expect(result.devices).toEqual({
      ctrl: { deviceId: expect.any(String), activationCode: expect.stringMatching(/^[0-9A-Z-]{34}$/) },
    });
    const listed = await h.graphql(apiKey, `{ devices { id name doors { id } } }`);
    expect(listed.body.data.devices).toEqual([
      { id: result.devices.ctrl.deviceId, name: 'Gate controller', doors: [{ id: result.doors.gate }] },
    ]);
    const activated = await activate({
      activation_code: result.devices.ctrl.activationCode,
      serial: 'SN',
      firmware_version: '1',
    });
    expect(activated.body.device_id).toBe(result.devices.ctrl.deviceId);
  });

  it('refuses an unknown door key, naming its place in the file', async () => {
    const { tenantId } = await h.tenant();
    await expect(
      importCatalog(h.deps, tenantId, { devices: [{ key: 'ctrl', name: 'X', doors: ['nope'] }] }),
    ).rejects.toMatchObject({
      fieldErrors: [{ field: 'devices[ctrl].doors[0]' }],
    });
  });
});
