import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp } from './own-app.js';
import { buildDevice, buildDoor, buildVenue } from './builders.js';
import { AccessLogWriter } from '../src/modules/access/access-log-writer.js';
import type { AccessLogEntry } from '../src/modules/access/access.repository.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

async function deviceOfNewTenant() {
  const venue = await buildVenue(h);
  const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
  const { device } = await buildDevice(h, venue.tenantId, [door.id]);
  return { tenantId: venue.tenantId, deviceId: device.id, doorId: door.id };
}

const entry = (d: { tenantId: string; deviceId: string; doorId: string }, reason: string): AccessLogEntry => ({
  tenant_id: d.tenantId,
  device_id: d.deviceId,
  door_id: d.doorId,
  booking_id: null,
  credential_type: null,
  allowed: false,
  reason,
  checked_at: new Date(),
});

const rowsOf = (tenantId: string) =>
  h.deps.database.db
    .selectFrom('access_log')
    .select('reason')
    .where('tenant_id', '=', tenantId)
    .orderBy('checked_at')
    .orderBy('id')
    .execute();

describe('the access-log writer', () => {
  it('writes appended entries in order once flushed, not before', async () => {
    const d = await deviceOfNewTenant();
    const writer = new AccessLogWriter(h.deps.database.db, () => undefined);
    for (const reason of ['a', 'b', 'c']) writer.append(entry(d, reason));
    expect(await rowsOf(d.tenantId)).toHaveLength(0);
    await writer.flush();
    expect((await rowsOf(d.tenantId)).map((r) => r.reason).sort()).toEqual(['a', 'b', 'c']);
  });

  it('writes by itself after a short delay', async () => {
    const d = await deviceOfNewTenant();
    const writer = new AccessLogWriter(h.deps.database.db, () => undefined);
    writer.append(entry(d, 'timer'));
    await expect.poll(async () => (await rowsOf(d.tenantId)).length, { timeout: 5000 }).toBe(1);
  });

  it('keeps the good entries of a batch with a bad one, and reports the bad one', async () => {
    const d = await deviceOfNewTenant();
    const failures: number[] = [];
    const writer = new AccessLogWriter(h.deps.database.db, (_error, lost) => failures.push(lost));
    writer.append(entry(d, 'good 1'));
    writer.append(entry({ ...d, deviceId: '00000000-0000-4000-8000-000000000000' }, 'unknown device'));
    writer.append(entry(d, 'good 2'));
    await writer.flush();
    expect((await rowsOf(d.tenantId)).map((r) => r.reason).sort()).toEqual(['good 1', 'good 2']);
    expect(failures).toEqual([1]);
  });

  // Regression: the writer used to be made per database handle by whoever asked first, with that
  // caller's error handler. When a GraphQL accessLog read came first it had none, and every later
  // write failure was dropped without a log line. Now the composition root builds it with the logger.
  it('logs a failed write even when a GraphQL accessLog read was the first to use the writer', async () => {
    const own = await ownApp(h, { logLevel: 'error' });
    try {
      const d = await deviceOfNewTenant();
      const apiKey = await h.key(d.tenantId, ['devices:read']);
      const read = await own.graphql(apiKey, '{ accessLog { allowed } }');
      expect(read.body).toEqual({ data: { accessLog: [] } });
      own.deps.accessLog.append(entry({ ...d, deviceId: '00000000-0000-4000-8000-000000000000' }, 'unknown device'));
      await own.deps.accessLog.flush();
      const errors = own.logs
        .map((line) => JSON.parse(line) as { msg: string; lost?: number })
        .filter((line) => line.msg === 'access log entries could not be written');
      expect(errors).toEqual([expect.objectContaining({ lost: 1 })]);
    } finally {
      await own.close();
    }
  });
});
