import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';

// Device presence (docs/webhooks.md#device-presence): the conditional updates of devices.offline_since
// that make each offline/online transition happen exactly once, whichever process sees it.

export interface PresenceChange {
  id: string;
  tenant_id: string;
  name: string;
  /** device.offline: the last heartbeat before the silence; device.online: the heartbeat that ended it. */
  last_seen_at: Date;
  /** The device's event_sequence after this transition (the event's data.sequence). */
  sequence: number;
}

/**
 * Marks up to `limit` devices offline whose last heartbeat is before `threshold`, in one statement:
 * offline_since becomes that heartbeat. Never-seen and revoked devices are left alone. Rows another
 * sweep (or a heartbeat) holds are skipped, and a row taken is checked again once locked, so of
 * concurrent sweeps exactly one marks each device. `tenantIds`: only their devices (every tenant's when absent).
 */
export async function markSilentOffline(
  db: Executor,
  threshold: Date,
  limit: number,
  tenantIds?: readonly string[],
): Promise<PresenceChange[]> {
  const due = db
    .selectFrom('devices')
    .select('id')
    .$if(tenantIds !== undefined, (q) => q.where('tenant_id', 'in', [...(tenantIds ?? [])]))
    .where('offline_since', 'is', null)
    .where('revoked_at', 'is', null)
    .where('last_heartbeat_at', '<', threshold)
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const rows = await db
    .updateTable('devices')
    .set((eb) => ({ offline_since: sql<Date>`last_heartbeat_at`, event_sequence: eb('event_sequence', '+', 1) }))
    .where('id', 'in', due)
    .where('offline_since', 'is', null)
    .where('revoked_at', 'is', null)
    .where('last_heartbeat_at', '<', threshold)
    .returning(['id', 'tenant_id', 'name', 'offline_since', 'event_sequence'])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    last_seen_at: r.offline_since as Date,
    sequence: r.event_sequence,
  }));
}

/**
 * Marks a device that was offline online again, if its presence is still the one the heartbeat saw:
 * the sequence changes with every transition, so of concurrent heartbeats exactly one matches (the
 * others wait for its row lock, then find the sequence moved on). Undefined when another did it.
 */
export async function markBackOnline(
  db: Executor,
  where: { tenantId: string; deviceId: string; seenSequence: number },
): Promise<PresenceChange | undefined> {
  const row = await db
    .updateTable('devices')
    .set((eb) => ({ offline_since: null, event_sequence: eb('event_sequence', '+', 1) }))
    .where('tenant_id', '=', where.tenantId)
    .where('id', '=', where.deviceId)
    .where('offline_since', 'is not', null)
    .where('event_sequence', '=', where.seenSequence)
    .returning(['id', 'tenant_id', 'name', 'last_heartbeat_at', 'event_sequence'])
    .executeTakeFirst();
  if (!row?.last_heartbeat_at) return undefined;
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    last_seen_at: row.last_heartbeat_at,
    sequence: row.event_sequence,
  };
}

/** The door ids of each device, for the events' payloads. */
export async function doorIdsOf(db: Executor, deviceIds: string[]): Promise<Map<string, string[]>> {
  const byDevice = new Map<string, string[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return byDevice;
  const rows = await db
    .selectFrom('device_doors')
    .select(['device_id', 'door_id'])
    .where('device_id', 'in', deviceIds)
    .orderBy('door_id')
    .execute();
  for (const r of rows) byDevice.get(r.device_id)?.push(r.door_id);
  return byDevice;
}
