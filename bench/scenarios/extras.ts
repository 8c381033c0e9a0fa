import type { Kysely } from 'kysely';
import type { DB } from '../../src/kernel/db/types.js';
import { ServerSecret, randomToken, sha256 } from '../../src/kernel/crypto.js';
import { qrToken, qrTokenHash, smsCode, smsCodeHash } from '../../src/modules/access/credentials.js';
import type { Dataset } from '../dataset.js';
import type { Scenario } from '../run.js';
import { accessCheckRequest, heartbeatRequest, type DeviceCredentials } from './devices.js';

// The door side of the dataset: a door per object, 10,000 activated devices with keys, a
// CONFIRMED booking running now on every object, and credentials for every booking.

export const DEVICES = 10_000;
const FLEET_RATE = 667; // 10,000 controllers × one heartbeat per 15 s

export interface Extras {
  summary: string;
  devices: (DeviceCredentials & { doorId: string; objectIndex: number })[];
  /** One QR token per object, of the booking running now on it. */
  nowTokens: string[];
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function seedExtras(db: Kysely<DB>, d: Dataset, secretValue: string): Promise<Extras> {
  const secret = new ServerSecret(secretValue);
  const doors = await db
    .insertInto('doors')
    .values(d.objectIds.map((_, i) => ({ tenant_id: d.tenantId, name: `Door ${i + 1}`, gpio_pin: 17 })))
    .returning('id')
    .execute();
  const doorIds = doors.map((door) => door.id);
  await db
    .insertInto('door_objects')
    .values(doorIds.map((door_id, i) => ({ tenant_id: d.tenantId, door_id, object_id: d.objectIds[i] })))
    .execute();

  const now = new Date();
  const devices: Extras['devices'] = [];
  const deviceRows = Array.from({ length: DEVICES }, (_, i) => {
    const key = `svc_dk_${randomToken(32)}`;
    devices.push({
      deviceId: '',
      deviceKey: key,
      doorId: doorIds[i % doorIds.length],
      objectIndex: i % doorIds.length,
    });
    return {
      tenant_id: d.tenantId,
      name: `Controller ${i + 1}`,
      activation_code_hash: sha256(randomToken(16)),
      activation_expires_at: now,
      activated_at: now,
      serial: `SN-${i}`,
      firmware_version: '1.0.0',
      key_hash: sha256(key),
      key_prefix: key.slice(0, 12),
    };
  });
  let index = 0;
  for (const chunk of chunks(deviceRows, 1000)) {
    const ids = await db.insertInto('devices').values(chunk).returning('id').execute();
    for (const { id } of ids) devices[index++].deviceId = id;
  }
  for (const chunk of chunks(devices, 2000)) {
    await db
      .insertInto('device_doors')
      .values(chunk.map((dev) => ({ tenant_id: d.tenantId, device_id: dev.deviceId, door_id: dev.doorId })))
      .execute();
  }

  // A CONFIRMED booking on every object from an hour ago to three hours ahead (seeded bookings start tomorrow).
  const start = new Date(now.getTime() - 3_600_000);
  const end = new Date(now.getTime() + 3 * 3_600_000);
  const running = await db
    .insertInto('bookings')
    .values(
      d.objectIds.map((object_id) => ({
        tenant_id: d.tenantId,
        object_id,
        guest_name: 'Door Guest',
        guest_email: 'door@example.com',
        guest_phone: null,
        start_time: start,
        end_time: end,
        blocked_until: end,
        status: 'CONFIRMED' as const,
        total_price: 8000,
      })),
    )
    .returning(['id', 'object_id'])
    .execute();
  const byObject = new Map(running.map((b) => [b.object_id, b.id]));
  const nowTokens = d.objectIds.map((objectId) => {
    const bookingId = byObject.get(objectId);
    if (!bookingId) throw new Error(`bench: no running booking on object ${objectId}`);
    return qrToken(secret, d.tenantId, bookingId);
  });

  // Credentials for every booking, computed as issueCredentials would (a taken SMS code moves on).
  const all = await db.selectFrom('bookings').select('id').where('tenant_id', '=', d.tenantId).execute();
  const taken = new Set<string>();
  const credentialRows = all.map(({ id }) => {
    let nonce = 0;
    let hash = smsCodeHash(secret, d.tenantId, smsCode(secret, d.tenantId, id, nonce));
    while (taken.has(hash)) hash = smsCodeHash(secret, d.tenantId, smsCode(secret, d.tenantId, id, ++nonce));
    taken.add(hash);
    return {
      tenant_id: d.tenantId,
      booking_id: id,
      qr_token_hash: qrTokenHash(qrToken(secret, d.tenantId, id)),
      sms_code_hash: hash,
      sms_nonce: nonce,
    };
  });
  for (const chunk of chunks(credentialRows, 1000)) await db.insertInto('booking_credentials').values(chunk).execute();

  return {
    summary: `${devices.length} devices, ${doorIds.length} doors, ${credentialRows.length} credentials`,
    devices,
    nowTokens,
  };
}

/** The fleet an embedded (PGlite) installation is sized for: ~1,500 controllers × one heartbeat per 15 s. */
const EMBEDDED_FLEET_RATE = 100;

export function extraScenarios(_d: Dataset, x: Extras, when: 'before' | 'after'): Scenario[] {
  if (when === 'after' || x.devices.length === 0) return [];
  const heartbeat = (i: number) => heartbeatRequest(x.devices[i % x.devices.length]);
  const accessCheck = (i: number) => {
    const device = x.devices[(i * 7919) % x.devices.length];
    return accessCheckRequest(device, { token: x.nowTokens[device.objectIndex], doorId: device.doorId });
  };
  return [
    { name: 'access-check', mode: 'saturation', source: accessCheck },
    {
      name: 'access-check @667/s + heartbeat @667/s',
      mode: 'fixed',
      rate: FLEET_RATE,
      source: accessCheck,
      background: { source: (i) => heartbeat(i + 5000), rate: FLEET_RATE },
    },
    // Issue #28: the door's tail on the embedded database, at the fleet size it is meant for; on
    // PostgreSQL too, for a machine too slow for 667/s (the tail below overload).
    {
      name: 'access-check @100/s + heartbeat @100/s',
      mode: 'fixed',
      rate: EMBEDDED_FLEET_RATE,
      source: accessCheck,
      background: { source: (i: number) => heartbeat(i + 5000), rate: EMBEDDED_FLEET_RATE },
    },
    // Issue #42, item 6: the outside round's door load on a busy host (300 checks/s, p99 7.2 s).
    { name: 'access-check @300/s', mode: 'fixed', rate: 300, source: accessCheck },
    // The same load from a connected fleet: 1,024 keep-alive connections open before the run (a door
    // holds one), so a stalled server meets no burst of new connections (round seventeen).
    { name: 'access-check @300/s doors connected', mode: 'fixed', rate: 300, source: accessCheck, preconnect: 1024 },
    { name: 'heartbeat @667/s', mode: 'fixed', rate: FLEET_RATE, source: heartbeat },
    { name: 'heartbeat', mode: 'saturation', source: heartbeat },
  ];
}
