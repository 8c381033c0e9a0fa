import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildActiveDevice, bookViaRest, buildDoor, buildVenue } from './builders.js';
import { accessCheckScenario, heartbeatScenario, type BenchRequest } from '../bench/scenarios/devices.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

async function send(r: BenchRequest) {
  const res = await h.app.fastify.inject({ method: r.method, url: r.path, headers: r.headers, payload: r.body });
  return { status: res.statusCode, body: res.body };
}

describe('device bench scenarios', () => {
  it('build heartbeat and access-check requests the service answers as the scenario expects', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const door = await buildDoor(h, tenantId, [object.id]);
    const device = await buildActiveDevice(h, tenantId, [door.id]);
    h.clock.set('2026-11-23T07:00:00Z');
    const bookingId = await bookViaRest(h, {
      tenantId,
      apiKey,
      objectId: object.id,
      startTime: '2026-11-23T10:00:00Z',
      endTime: '2026-11-23T11:00:00Z',
      status: 'CONFIRMED',
    });
    const credentials = (
      await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/bookings/${bookingId}/credentials`, apiKey })
    ).body;
    h.clock.set('2026-11-23T10:30:00Z');

    const beat = heartbeatScenario('http://127.0.0.1:3000/', [device]);
    expect(beat.url).toBe('http://127.0.0.1:3000');
    const beatRes = await send(beat.requests[0]);
    expect(beat.check(beatRes.status, beatRes.body)).toBe(true);

    const access = accessCheckScenario('http://127.0.0.1:3000', [
      { device, attempt: { token: credentials.qrCode.token, doorId: door.id } },
      { device, attempt: { token: credentials.sms.code, doorId: door.id } },
    ]);
    for (const request of access.requests) {
      const res = await send(request);
      expect(access.check(res.status, res.body), res.body).toBe(true);
    }
  });
});
