import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseSettings, runCli } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { onPostgres, workerRedisUrl } from '../worker-services.js';
import { graphqlAt } from './dashboard-env.js';
import { SseSubscription, WsSubscription, type Received } from '../subscription-clients.js';

// Issue #27, "Done means": a subscriber on process B sees a booking created on process A within
// 1 s, over Server-Sent Events and over graphql-ws; and an access decision made on A reaches B's
// accessDecided, through the live transport: PostgreSQL LISTEN/NOTIFY without REDIS_URL, Redis
// pub/sub with it. Two real OS processes (`npm start`'s node command, dist/) on one database.
//
// PostgreSQL only: PGlite is one process per directory, so two server processes cannot share an
// embedded database; on PGlite test/subscriptions.test.ts covers the in-process path.

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '00:00', close: '24:00' },
  ]),
);
/** The bound: created on A, seen on B within 1 s. */
const WITHIN_MS = 1_000;

const redisUrl = workerRedisUrl();
const transports = [
  { name: 'LISTEN/NOTIFY (no REDIS_URL)', env: {} as Record<string, string>, runnable: onPostgres },
  {
    name: 'Redis pub/sub (REDIS_URL)',
    env: redisUrl ? { REDIS_URL: redisUrl } : {},
    runnable: onPostgres && !!redisUrl,
  },
];

const BOOKING_CHANGED = `subscription { bookingChanged { type booking { id guestName } } }`;
const ACCESS_DECIDED = `subscription($doorId: ID) { accessDecided(doorId: $doorId) { allowed doorId entry { deviceId reason } } }`;

for (const transport of transports) {
  describe.skipIf(!transport.runnable)(`two processes, ${transport.name}`, () => {
    const servers: ServerProcess[] = [];
    let apiKey = '';
    let tenantId = '';
    let objectId = '';
    let doorId = '';
    let device = { id: '', key: '' };
    let day = 0;

    beforeAll(async () => {
      const settings = await databaseSettings();
      const created = await runCli(['tenant', 'create', '--name', 'Live'], settings.env);
      if (created.code !== 0) throw new Error(created.stderr);
      ({ apiKey, tenantId } = JSON.parse(created.stdout) as { apiKey: string; tenantId: string });
      const env = { ...settings.env, ...transport.env, RATE_LIMIT_PER_MINUTE: '100000' };
      servers.push(
        ...(await Promise.all([
          startServerProcess(env, { startTimeoutMs: 300_000 }),
          startServerProcess(env, { startTimeoutMs: 300_000 }),
        ])),
      );
      const gql = <T>(query: string, variables: Record<string, unknown> = {}) =>
        graphqlAt<T>(servers[0].url, apiKey, query, variables);
      const { createAccommodation } = await gql<{ createAccommodation: { id: string } }>(
        'mutation { createAccommodation(name: "Live Courts", address: "Uferweg 5, 10557 Berlin", timeZone: "Europe/Berlin") { id } }',
      );
      const { createObject } = await gql<{ createObject: { id: string } }>(
        'mutation($a: ID!, $h: WeeklyScheduleInput) { createObject(accommodationId: $a, name: "Court 1", pricePerHour: 2000, openingHours: $h) { id } }',
        { a: createAccommodation.id, h: EVERY_DAY },
      );
      objectId = createObject.id;
      const { createDoor } = await gql<{ createDoor: { id: string } }>(
        'mutation($o: [ID!]) { createDoor(name: "Gate", gpioPin: 17, objectIds: $o) { id } }',
        { o: [objectId] },
      );
      doorId = createDoor.id;
      const { registerDevice } = await gql<{ registerDevice: { activationCode: string } }>(
        'mutation($d: [ID!]!) { registerDevice(name: "Gate controller", doorIds: $d) { activationCode } }',
        { d: [doorId] },
      );
      const activated = await fetch(`${servers[0].url}/api/devices/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          activation_code: registerDevice.activationCode,
          serial: 'SN-1',
          firmware_version: '1.0.0',
        }),
      });
      const body = (await activated.json()) as { device_id: string; device_key: string };
      device = { id: body.device_id, key: body.device_key };
    });

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
    });

    /** Creates a booking on A; resolves to its id and when A answered (the booking committed by then). */
    const createOnA = async () => {
      const start = new Date(Date.now() + (2 + day++) * 86_400_000);
      start.setUTCHours(10, 0, 0, 0);
      const res = await fetch(`${servers[0].url}/api/v1/tenants/${tenantId}/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          objectId,
          guestName: 'Live guest',
          guestEmail: 'live@example.com',
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        }),
      });
      const answeredAt = Date.now();
      const created = (await res.json()) as { booking?: { id: string } };
      if (res.status !== 201 || !created.booking)
        throw new Error(`booking failed: ${res.status} ${JSON.stringify(created)}`);
      return { id: created.booking.id, answeredAt };
    };

    const seen = (received: Received[], id: string) =>
      received.find((r) => r.payload.data?.bookingChanged?.booking?.id === id);

    it('SSE on B sees a booking created on A within 1 s', async () => {
      const sub = await SseSubscription.open(servers[1].url, apiKey, BOOKING_CHANGED);
      expect(sub.status).toBe(200);
      const booking = await createOnA();
      const got = await sub.next((p) => p.data?.bookingChanged?.booking?.id === booking.id);
      expect(got.payload.data.bookingChanged).toEqual({
        type: 'booking.created',
        booking: { id: booking.id, guestName: 'Live guest' },
      });
      expect(got.at - booking.answeredAt).toBeLessThan(WITHIN_MS);
      sub.close();
    });

    it('graphql-ws on B sees a booking created on A within 1 s', async () => {
      const sub = WsSubscription.open(servers[1].url, { authorization: `Bearer ${apiKey}` }, BOOKING_CHANGED);
      // graphql-ws does not acknowledge a subscription: bookings are made until one created after
      // it opened arrives (one made before is never delivered late, so its timing is the claim).
      let got: { received: Received; answeredAt: number } | undefined;
      for (let attempt = 0; attempt < 20 && !got; attempt += 1) {
        const booking = await createOnA();
        try {
          const received = await sub.next((p) => p.data?.bookingChanged?.booking?.id === booking.id, 3_000);
          got = { received, answeredAt: booking.answeredAt };
        } catch {
          expect(sub.closed).toBeUndefined();
        }
      }
      expect(got).toBeDefined();
      expect(got!.received.at - got!.answeredAt).toBeLessThan(WITHIN_MS);
      expect(seen(sub.received, got!.received.payload.data.bookingChanged.booking.id)).toBeDefined();
      await sub.close();
    });

    it('an access decision on A reaches accessDecided on B (the live transport)', async () => {
      const sub = await SseSubscription.open(servers[1].url, apiKey, ACCESS_DECIDED, { doorId });
      const res = await fetch(`${servers[0].url}/api/devices/${device.id}/access-check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${device.key}` },
        body: JSON.stringify({ doorId, token: 'not-a-token' }),
      });
      expect(res.status).toBe(200);
      const answeredAt = Date.now();
      const got = await sub.next();
      expect(got.payload.data.accessDecided).toEqual({
        allowed: false,
        doorId,
        entry: { deviceId: device.id, reason: 'invalid_token' },
      });
      expect(got.at - answeredAt).toBeLessThan(WITHIN_MS);
      sub.close();
    });
  });
}

if (!onPostgres)
  describe('two processes', () => {
    it.skip('SKIPPED on PGlite: one process per directory; test/subscriptions.test.ts covers one process', () =>
      undefined);
  });
