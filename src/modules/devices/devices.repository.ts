import { compiledOnce } from '../../kernel/db/compiled-once.js';
import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { microsecondKey, olderThenIdAfter } from '../../kernel/db/keyset.js';
import type { DeviceRow, DoorRow } from '../../kernel/db/types.js';

export async function insertDevice(
  db: Executor,
  values: {
    tenant_id: string;
    name: string;
    activation_code_hash: string;
    activation_expires_at: Date;
    created_at: Date;
  },
): Promise<DeviceRow> {
  return db.insertInto('devices').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findDevice(db: Executor, tenantId: string, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listDevices(db: Executor, tenantId: string): Promise<DeviceRow[]> {
  return db
    .selectFrom('devices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** A keyset page of the devices (newest first, then id) after `after`, at most `limit`. */
export async function devicesPage(
  db: Executor,
  tenantId: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<Array<DeviceRow & { sort_at: string }>> {
  return db
    .selectFrom('devices')
    .selectAll()
    .select(microsecondKey('created_at').as('sort_at'))
    .where('tenant_id', '=', tenantId)
    .$if(after !== null, (q) => q.where(olderThenIdAfter('created_at', 'id', after ?? { at: '', id: '' })))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function revokeDevice(
  db: Executor,
  tenantId: string,
  id: string,
  now: Date,
): Promise<DeviceRow | undefined> {
  return db
    .updateTable('devices')
    .set({ revoked_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function replaceDeviceDoors(
  db: Executor,
  tenantId: string,
  deviceId: string,
  doorIds: string[],
): Promise<void> {
  await db.deleteFrom('device_doors').where('tenant_id', '=', tenantId).where('device_id', '=', deviceId).execute();
  if (doorIds.length) {
    await db
      .insertInto('device_doors')
      .values(doorIds.map((door_id) => ({ tenant_id: tenantId, device_id: deviceId, door_id })))
      .execute();
  }
}

export async function existingDoorIds(db: Executor, tenantId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('doors')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Consumes an activation code in one statement: of concurrent activations with one code exactly
 * one matches the row while activated_at is still null.
 */
export async function activateDevice(
  db: Executor,
  values: { codeHash: string; keyHash: string; keyPrefix: string; serial: string; firmwareVersion: string; now: Date },
): Promise<Pick<DeviceRow, 'id' | 'tenant_id'> | undefined> {
  return db
    .updateTable('devices')
    .set({
      activated_at: values.now,
      key_hash: values.keyHash,
      key_prefix: values.keyPrefix,
      serial: values.serial,
      firmware_version: values.firmwareVersion,
    })
    .where('activation_code_hash', '=', values.codeHash)
    .where('activated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('activation_expires_at', '>', values.now)
    .returning(['id', 'tenant_id'])
    .executeTakeFirst();
}

export async function findDeviceByActivationCodeHash(db: Executor, codeHash: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('activation_code_hash', '=', codeHash).executeTakeFirst();
}

const deviceByKeyHash = compiledOnce(['keyHash'], (db, p) =>
  db
    .selectFrom('devices')
    .select(['id', 'tenant_id', 'last_heartbeat_at'])
    .where('key_hash', '=', p.keyHash)
    .where('revoked_at', 'is', null),
);

/** The device behind a key: one lookup on the unique key_hash index (every device request). */
export async function findActiveDeviceByKeyHash(
  db: Executor,
  keyHash: string,
): Promise<Pick<DeviceRow, 'id' | 'tenant_id' | 'last_heartbeat_at'> | undefined> {
  return (await deviceByKeyHash(db, { keyHash }))[0];
}

export type DeviceDoorRow = DoorRow & { device_id: string };

/** The doors of several devices (for the per-request loader). */
export async function doorsOfDevices(db: Executor, deviceIds: readonly string[]): Promise<DeviceDoorRow[]> {
  return db
    .selectFrom('device_doors as dd')
    .innerJoin('doors as d', (j) => j.onRef('d.tenant_id', '=', 'dd.tenant_id').onRef('d.id', '=', 'dd.door_id'))
    .selectAll('d')
    .select('dd.device_id')
    .where('dd.device_id', 'in', [...deviceIds])
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
}

export async function findDeviceDoor(
  db: Executor,
  tenantId: string,
  deviceId: string,
  doorId: string,
): Promise<DoorRow | undefined> {
  return db
    .selectFrom('device_doors as dd')
    .innerJoin('doors as d', (j) => j.onRef('d.tenant_id', '=', 'dd.tenant_id').onRef('d.id', '=', 'dd.door_id'))
    .selectAll('d')
    .where('dd.tenant_id', '=', tenantId)
    .where('dd.device_id', '=', deviceId)
    .where('dd.door_id', '=', doorId)
    .executeTakeFirst();
}

/** A device's doors with the objects each serves, for the device config. */
export async function configDoors(
  db: Executor,
  tenantId: string,
  deviceId: string,
): Promise<(DoorRow & { object_ids: string[] })[]> {
  return db
    .selectFrom('device_doors as dd')
    .innerJoin('doors as d', (j) => j.onRef('d.tenant_id', '=', 'dd.tenant_id').onRef('d.id', '=', 'dd.door_id'))
    .selectAll('d')
    .select(
      sql<
        string[]
      >`coalesce((SELECT array_agg(o.object_id::text ORDER BY o.object_id) FROM door_objects o WHERE o.tenant_id = d.tenant_id AND o.door_id = d.id), '{}')`.as(
        'object_ids',
      ),
    )
    .where('dd.tenant_id', '=', tenantId)
    .where('dd.device_id', '=', deviceId)
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
}

export async function lastHeartbeatAt(db: Executor, tenantId: string, deviceId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('devices')
    .select('last_heartbeat_at')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deviceId)
    .executeTakeFirst();
  return row?.last_heartbeat_at ?? null;
}
