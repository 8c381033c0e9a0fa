import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseSettings, runCli } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { onPostgres, workerRedisUrl } from '../worker-services.js';
import { graphqlAt } from './dashboard-env.js';
import { eventually } from '../subscription-clients.js';
import { DoorClient, memoryStore } from '../../examples/door-client/door-client.js';

// Issue #44, "Instant commands": two real OS processes (`npm start`'s node command, dist/) on one
// PostgreSQL database, with and without Redis. The reference door client holds its command channel
// on B; an unlock is queued on A with the dashboard's own mutation (DashboardQueueUnlock); the door
// unlocks within a second, carried from A to B by the live transport alone (NOTIFY, or Redis
// pub/sub). A second door without the channel gets its unlock by heartbeat. Revoking a door on A
// closes its channel on B.
//
// PostgreSQL only: PGlite is one process per data directory; on PGlite test/device-channel.test.ts
// covers two app instances on one database.

const redisUrl = workerRedisUrl();
const transports = [
  { name: 'LISTEN/NOTIFY (no REDIS_URL)', env: {} as Record<string, string>, runnable: onPostgres },
  {
    name: 'Redis pub/sub (REDIS_URL)',
    env: redisUrl ? { REDIS_URL: redisUrl } : {},
    runnable: onPostgres && !!redisUrl,
  },
];

const QUEUE_UNLOCK = `mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {
  createDeviceCommand(deviceId: $deviceId, type: "unlock", doorId: $doorId) { command { id status expires_at } }
}`;

for (const transport of transports) {
  describe.skipIf(!transport.runnable)(`instant commands across two processes, ${transport.name}`, () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let adminKey = '';
    let doorId = '';
    const clients: DoorClient[] = [];

    beforeAll(async () => {
      const settings = await databaseSettings();
      const created = await runCli(['tenant', 'create', '--name', 'Instant doors'], settings.env);
      if (created.code !== 0) throw new Error(created.stderr);
      ({ apiKey: adminKey } = JSON.parse(created.stdout) as { apiKey: string });
      const env = {
        ...settings.env,
        ...transport.env,
        PORTIER_SECRET: 'two-processes-share-this-secret',
        RATE_LIMIT_PER_MINUTE: '100000',
      };
      [a, b] = await Promise.all([
        startServerProcess(env, { startTimeoutMs: 300_000 }),
        startServerProcess(env, { startTimeoutMs: 300_000 }),
      ]);
      const { createDoor } = await onA<{ createDoor: { id: string } }>(
        'mutation { createDoor(name: "Gate", gpioPin: 17, unlockDurationSeconds: 3) { id } }',
      );
      doorId = createDoor.id;
    }, 320_000);

    afterAll(async () => {
      for (const c of clients) c.stop();
      await Promise.all([a?.stop(), b?.stop()]);
    });

    const onA = <T>(query: string, variables: Record<string, unknown> = {}) =>
      graphqlAt<T>(a.url, adminKey, query, variables);

    /** A reference door on B: registered on A, activated, with or without its channel. */
    const door = async (channel: boolean) => {
      const { registerDevice } = await onA<{ registerDevice: { device: { id: string }; activationCode: string } }>(
        'mutation($doors: [ID!]!) { registerDevice(name: "Door", doorIds: $doors) { device { id } activationCode } }',
        { doors: [doorId] },
      );
      const unlocks: { pin: number; at: number }[] = [];
      const client = new DoorClient({
        baseUrl: b.url,
        store: memoryStore(),
        channel: channel ? { initialDelayMs: 100, maxDelayMs: 1_000 } : false,
        actuator: { unlock: async (pin) => void unlocks.push({ pin, at: Date.now() }), doorStates: () => ({}) },
      });
      clients.push(client);
      await client.activate(registerDevice.activationCode);
      return { client, unlocks, deviceId: registerDevice.device.id };
    };

    it('a command queued on A with the dashboard’s mutation reaches the door’s channel on B in under a second; a door without the channel gets it by heartbeat', async () => {
      const instant = await door(true);
      const polling = await door(false);
      instant.client.openChannel();
      await eventually(
        () => (instant.client.channelStatus === 'open' ? true : undefined),
        20_000,
        'the channel to open on B',
      );
      // The channel is listening on B once `ready` came; one command at a time, a few times.
      for (let i = 0; i < 3; i += 1) {
        const queuedAt = Date.now();
        await onA(QUEUE_UNLOCK, { deviceId: instant.deviceId, doorId });
        const unlock = await eventually(() => instant.unlocks[i], 5_000, `unlock ${i + 1} on the channel`);
        expect(unlock.at - queuedAt).toBeLessThan(1_000);
      }
      expect(instant.unlocks).toHaveLength(3);

      const queued = await onA<{ createDeviceCommand: { command: { id: string } } }>(QUEUE_UNLOCK, {
        deviceId: polling.deviceId,
        doorId,
      });
      expect(queued.createDeviceCommand.command.id).toBeTruthy();
      expect(polling.unlocks).toHaveLength(0);
      expect(await polling.client.heartbeat()).toBe(true);
      expect(polling.unlocks.map((u) => u.pin)).toEqual([17]);
      // The channel's door never got the other door's command, nor its own twice by heartbeat.
      expect(await instant.client.heartbeat()).toBe(true);
      expect(instant.unlocks).toHaveLength(3);
    }, 120_000);

    it('revoking the door on A closes its channel on B at once', async () => {
      const revoked = await door(true);
      revoked.client.openChannel();
      await eventually(() => (revoked.client.channelStatus === 'open' ? true : undefined), 20_000, 'the channel');
      const at = Date.now();
      await onA('mutation($id: ID!) { revokeDevice(id: $id) { status } }', { id: revoked.deviceId });
      await eventually(
        () => (revoked.client.channelStatus === 'stopped' ? true : undefined),
        5_000,
        'the channel to close',
      );
      expect(Date.now() - at).toBeLessThan(2_000);
    }, 120_000);
  });
}
