import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, buildDevice, buildDoor, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const TELEMETRY = { cpu_percent: 5, memory_percent: 30, wifi_signal_dbm: -55, door_states: {} };

function device(key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
  return h.request({ method, url: `/api/devices${url}`, apiKey: key, body });
}

/** A venue with one door driven by one activated device. */
async function setup() {
  const venue = await buildVenue(h);
  const door = await buildDoor(h, venue.tenantId, [venue.object.id], { gpioPin: 17, unlockDurationSeconds: 5 });
  const dev = await buildActiveDevice(h, venue.tenantId, [door.id]);
  const commandsUrl = `/api/v1/tenants/${venue.tenantId}/devices/${dev.deviceId}/commands`;
  return { ...venue, door, ...dev, commandsUrl };
}

describe('creating commands (tenant side, REST)', () => {
  it('queues an unlock: 201 {command} with gpio pin and duration, pending, expiring after 60 s', async () => {
    const s = await setup();
    h.clock.set('2026-11-20T10:00:00Z');
    const res = await h.request({
      method: 'POST',
      url: s.commandsUrl,
      apiKey: s.apiKey,
      body: { type: 'unlock', doorId: s.door.id, durationSeconds: 7 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      command: {
        id: expect.any(String),
        type: 'unlock',
        payload: { gpio_pin: 17, duration_seconds: 7 },
        status: 'pending',
        expires_at: '2026-11-20T10:01:00.000Z',
        created_at: '2026-11-20T10:00:00.000Z',
      },
    });
  });

  it("defaults the duration to the door's unlock duration", async () => {
    const s = await setup();
    const res = await h.request({
      method: 'POST',
      url: s.commandsUrl,
      apiKey: s.apiKey,
      body: { type: 'unlock', doorId: s.door.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.command.payload).toEqual({ gpio_pin: 17, duration_seconds: 5 });
  });

  it('refuses a door the device does not drive with 400 naming doorId', async () => {
    const s = await setup();
    const otherDoor = await buildDoor(h, s.tenantId, [s.object.id], { gpioPin: 4 });
    for (const doorId of [otherDoor.id, crypto.randomUUID(), 'gate', undefined]) {
      const res = await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId },
      });
      expect(res.status, String(doorId)).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'doorId', message: expect.any(String) }]);
    }
  });

  it.each([
    [{ type: 'reboot' }, 'type'],
    [{ type: 'unlock', durationSeconds: 0 }, 'durationSeconds'],
    [{ type: 'unlock', durationSeconds: 3601 }, 'durationSeconds'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const s = await setup();
    const res = await h.request({
      method: 'POST',
      url: s.commandsUrl,
      apiKey: s.apiKey,
      body: { doorId: s.door.id, ...body },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for an unknown device, 409 for a revoked one, 403 for another tenant and without devices:write', async () => {
    const s = await setup();
    const unknown = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${s.tenantId}/devices/${crypto.randomUUID()}/commands`,
      apiKey: s.apiKey,
      body: { type: 'unlock', doorId: s.door.id },
    });
    expect(unknown.status).toBe(404);

    const other = await buildVenue(h);
    const foreign = await h.request({
      method: 'POST',
      url: s.commandsUrl,
      apiKey: other.apiKey,
      body: { type: 'unlock', doorId: s.door.id },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('tenant_mismatch');

    const reader = await h.key(s.tenantId, ['devices:read']);
    expect(
      (
        await h.request({
          method: 'POST',
          url: s.commandsUrl,
          apiKey: reader,
          body: { type: 'unlock', doorId: s.door.id },
        })
      ).status,
    ).toBe(403);

    await h.graphql(s.apiKey, `mutation($id: ID!) { revokeDevice(id: $id) { id } }`, { id: s.deviceId });
    const revoked = await h.request({
      method: 'POST',
      url: s.commandsUrl,
      apiKey: s.apiKey,
      body: { type: 'unlock', doorId: s.door.id },
    });
    expect(revoked.status).toBe(409);
    expect(revoked.body.code).toBe('device_revoked');
  });
});

describe('command lifecycle', () => {
  it('created → delivered in a heartbeat (once) → executed via PATCH; a repeated PATCH is harmless, a different one 409', async () => {
    const s = await setup();
    h.clock.set('2026-11-20T10:00:00Z');
    const created = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;

    h.clock.set('2026-11-20T10:00:10Z');
    const beat = await device(s.deviceKey, 'POST', `/${s.deviceId}/heartbeat`, TELEMETRY);
    expect(beat.body).toEqual({
      status: 'ok',
      pending_commands: [{ ...created, status: 'delivered' }],
      revoked_token_ids: [],
    });
    const next = await device(s.deviceKey, 'POST', `/${s.deviceId}/heartbeat`, TELEMETRY);
    expect(next.body.pending_commands).toEqual([]);

    const report = { status: 'executed', result: { unlocked: true, at: 'gpio17' } };
    const executed = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${created.id}`, report);
    expect(executed.status).toBe(200);
    expect(executed.body).toEqual({ command: { ...created, status: 'executed' } });

    const repeated = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${created.id}`, {
      status: 'executed',
      result: { at: 'gpio17', unlocked: true },
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual(executed.body);

    const different = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${created.id}`, {
      status: 'failed',
      error: 'relay stuck',
    });
    expect(different.status).toBe(409);
    expect(different.body.code).toBe('command_already_reported');

    const list = await h.graphql(
      s.apiKey,
      `query($d: ID!) { deviceCommands(deviceId: $d) { command { id status } doorId deliveredAt completedAt result error } }`,
      {
        d: s.deviceId,
      },
    );
    expect(list.body.data.deviceCommands).toEqual([
      {
        command: { id: created.id, status: 'executed' },
        doorId: s.door.id,
        deliveredAt: '2026-11-20T10:00:10.000Z',
        completedAt: '2026-11-20T10:00:10.000Z',
        result: report.result,
        error: null,
      },
    ]);
  });

  it('a failed report keeps the error', async () => {
    const s = await setup();
    const created = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;
    await device(s.deviceKey, 'GET', `/${s.deviceId}/commands`);
    const failed = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${created.id}`, {
      status: 'failed',
      error: 'relay stuck',
    });
    expect(failed.body.command.status).toBe('failed');
    expect(
      (
        await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${created.id}`, {
          status: 'failed',
          error: 'relay stuck',
        })
      ).status,
    ).toBe(200);
    const list = await h.graphql(s.apiKey, `query($d: ID!) { deviceCommands(deviceId: $d) { error } }`, {
      d: s.deviceId,
    });
    expect(list.body.data.deviceCommands).toEqual([{ error: 'relay stuck' }]);
  });

  it('an expired command is never delivered, shows as expired, and cannot be reported', async () => {
    const s = await setup();
    h.clock.set('2026-11-20T10:00:00Z');
    const stale = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;
    h.clock.set('2026-11-20T10:00:59Z');
    const fresh = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;

    h.clock.set('2026-11-20T10:01:00Z');
    const query = `query($d: ID!) { deviceCommands(deviceId: $d) { command { id status } } }`;
    expect((await h.graphql(s.apiKey, query, { d: s.deviceId })).body.data.deviceCommands).toEqual([
      { command: { id: fresh.id, status: 'pending' } },
      { command: { id: stale.id, status: 'expired' } },
    ]);
    const beat = await device(s.deviceKey, 'POST', `/${s.deviceId}/heartbeat`, TELEMETRY);
    expect(beat.body.pending_commands.map((c: { id: string }) => c.id)).toEqual([fresh.id]);
    const row = await h.deps.database.db
      .selectFrom('device_commands')
      .select(['status', 'delivered_at'])
      .where('id', '=', stale.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', delivered_at: null });
    expect((await device(s.deviceKey, 'GET', `/${s.deviceId}/commands`)).body).toEqual({ commands: [] });

    const report = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${stale.id}`, { status: 'executed' });
    expect(report.status).toBe(409);
    expect(report.body.code).toBe('command_expired');
  });

  it('polling GET /commands hands out pending commands once, oldest first', async () => {
    const s = await setup();
    h.clock.set('2026-11-20T10:00:00Z');
    const first = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;
    h.clock.set('2026-11-20T10:00:01Z');
    const second = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id, durationSeconds: 2 },
      })
    ).body.command;
    const polled = await device(s.deviceKey, 'GET', `/${s.deviceId}/commands`);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({
      commands: [
        { ...first, status: 'delivered' },
        { ...second, status: 'delivered' },
      ],
    });
    expect((await device(s.deviceKey, 'GET', `/${s.deviceId}/commands`)).body).toEqual({ commands: [] });
  });

  it("does not hand out or accept reports for another device's commands", async () => {
    const s = await setup();
    const other = await buildActiveDevice(h, s.tenantId, [s.door.id]);
    const created = (
      await h.request({
        method: 'POST',
        url: s.commandsUrl,
        apiKey: s.apiKey,
        body: { type: 'unlock', doorId: s.door.id },
      })
    ).body.command;
    expect((await device(other.deviceKey, 'GET', `/${other.deviceId}/commands`)).body.commands).toEqual([]);
    const report = await device(other.deviceKey, 'PATCH', `/${other.deviceId}/commands/${created.id}`, {
      status: 'executed',
    });
    expect(report.status).toBe(404);
  });

  it.each([
    [{}, 'status'],
    [{ status: 'done' }, 'status'],
    [{ status: 'failed', error: { code: 42 } }, 'error'],
  ])('refuses the malformed report %j with 400 naming %s', async (body, field) => {
    const s = await setup();
    const res = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${crypto.randomUUID()}`, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers 404 for an unknown command id', async () => {
    const s = await setup();
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const res = await device(s.deviceKey, 'PATCH', `/${s.deviceId}/commands/${id}`, { status: 'executed' });
      expect(res.status).toBe(404);
    }
  });

  it('can queue commands for a device that has not activated yet', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const { device: registered } = await buildDevice(h, tenantId, [door.id]);
    const res = await h.graphql(
      apiKey,
      `mutation($d: ID!, $door: ID!) { createDeviceCommand(deviceId: $d, type: "unlock", doorId: $door) { command { status payload } } }`,
      {
        d: registered.id,
        door: door.id,
      },
    );
    expect(res.body.data.createDeviceCommand.command).toEqual({
      status: 'pending',
      payload: { gpio_pin: 17, duration_seconds: 5 },
    });
  });
});
