import { compiledOnce } from '../../db/compiled-once.js';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.js';
import type { DeviceCommandRow, DeviceCommandStatus, DeviceTelemetryData } from '../../db/types.js';

export async function insertCommand(
  db: Executor,
  values: {
    tenant_id: string;
    device_id: string;
    door_id: string | null;
    type: string;
    payload: Record<string, unknown>;
    status: DeviceCommandStatus;
    expires_at: Date;
    created_at: Date;
  },
): Promise<DeviceCommandRow> {
  return db
    .insertInto('device_commands')
    .values({ ...values, payload: JSON.stringify(values.payload) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Hands out a device's pending commands in one statement: those still valid become delivered,
 * those past expires_at become expired (and are not returned as deliverable). Row locks make
 * concurrent polls hand out each command once.
 */
export async function claimPendingCommands(db: Executor, tenantId: string, deviceId: string, now: Date): Promise<DeviceCommandRow[]> {
  const rows = await db
    .updateTable('device_commands')
    .set({
      status: sql<DeviceCommandStatus>`CASE WHEN expires_at > ${now} THEN 'delivered' ELSE 'expired' END`,
      delivered_at: sql<Date | null>`CASE WHEN expires_at > ${now} THEN ${now}::timestamptz ELSE NULL END`,
    })
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  return rows.filter((r) => r.status === 'delivered').sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
}

const heartbeatStatement = compiledOnce(['tenantId', 'deviceId', 'telemetry', 'now'], (db, p) =>
  db
    .with('heartbeat', (q) =>
      q.updateTable('devices').set({ last_heartbeat_at: p.now, telemetry: p.telemetry }).where('tenant_id', '=', p.tenantId).where('id', '=', p.deviceId).returning('id'),
    )
    .updateTable('device_commands')
    .set({
      status: sql<DeviceCommandStatus>`CASE WHEN expires_at > ${p.now}::timestamptz THEN 'delivered' ELSE 'expired' END`,
      delivered_at: sql<Date | null>`CASE WHEN expires_at > ${p.now}::timestamptz THEN ${p.now}::timestamptz ELSE NULL END`,
    })
    .where('tenant_id', '=', p.tenantId)
    .where('device_id', '=', p.deviceId)
    .where('status', '=', 'pending')
    .returningAll(),
);

/**
 * A heartbeat in one statement: records the telemetry and hands out the pending commands as
 * claimPendingCommands does. One statement is atomic on its own, so no transaction (and no extra
 * round trips) is needed on the fleet's hottest path.
 */
export async function heartbeatAndClaim(db: Executor, tenantId: string, deviceId: string, telemetry: DeviceTelemetryData, now: Date): Promise<DeviceCommandRow[]> {
  const rows = (await heartbeatStatement(db, { tenantId, deviceId, telemetry: JSON.stringify(telemetry), now })) as DeviceCommandRow[];
  return rows.filter((r) => r.status === 'delivered').sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
}

/** Records the result of a command not yet reported; undefined when it was reported, expired or is unknown. */
export async function completeCommand(
  db: Executor,
  where: { tenantId: string; deviceId: string; id: string; now: Date },
  report: { status: 'executed' | 'failed'; result: unknown; error: string | null },
): Promise<DeviceCommandRow | undefined> {
  return db
    .updateTable('device_commands')
    .set({ status: report.status, result: report.result === undefined ? null : JSON.stringify(report.result), error: report.error, completed_at: where.now })
    .where('tenant_id', '=', where.tenantId)
    .where('device_id', '=', where.deviceId)
    .where('id', '=', where.id)
    .where((eb) => eb.or([eb('status', '=', 'delivered'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', where.now)])]))
    .returningAll()
    .executeTakeFirst();
}

/** A command and whether its stored report equals the given one (jsonb equality, key order aside). */
export async function findCommandWithReport(
  db: Executor,
  where: { tenantId: string; deviceId: string; id: string },
  report: { status: string; result: unknown; error: string | null },
): Promise<(DeviceCommandRow & { same_report: boolean }) | undefined> {
  const result = report.result === undefined ? null : JSON.stringify(report.result);
  return db
    .selectFrom('device_commands')
    .selectAll()
    .select(sql<boolean>`(status = ${report.status} AND result IS NOT DISTINCT FROM ${result}::jsonb AND error IS NOT DISTINCT FROM ${report.error}::text)`.as('same_report'))
    .where('tenant_id', '=', where.tenantId)
    .where('device_id', '=', where.deviceId)
    .where('id', '=', where.id)
    .executeTakeFirst();
}

export async function listCommands(db: Executor, tenantId: string, deviceId: string, limit: number): Promise<DeviceCommandRow[]> {
  return db
    .selectFrom('device_commands')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
