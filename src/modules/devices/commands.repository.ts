import { compiledOnce } from '../../kernel/db/compiled-once.js';
import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { DeviceCommandRow, DeviceCommandStatus, DeviceTelemetryData } from '../../kernel/db/types.js';
import { revokedTokenIdsQuery, type RevocationWindow } from '../access/index.js';

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
export async function claimPendingCommands(
  db: Executor,
  tenantId: string,
  deviceId: string,
  now: Date,
): Promise<DeviceCommandRow[]> {
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
  return rows
    .filter((r) => r.status === 'delivered')
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
}

const heartbeatStatement = compiledOnce(
  ['tenantId', 'deviceId', 'telemetry', 'now', 'revokedSince', 'revokedNotExpiredAt'],
  (db, p) =>
    db
      .with('heartbeat', (q) =>
        q
          .updateTable('devices')
          .set({ last_heartbeat_at: p.now, telemetry: p.telemetry })
          .where('tenant_id', '=', p.tenantId)
          .where('id', '=', p.deviceId)
          .returning(['offline_since', 'event_sequence']),
      )
      .with('claimed', (q) =>
        q
          .updateTable('device_commands')
          .set({
            status: sql<DeviceCommandStatus>`CASE WHEN expires_at > ${p.now}::timestamptz THEN 'delivered' ELSE 'expired' END`,
            delivered_at: sql<Date | null>`CASE WHEN expires_at > ${p.now}::timestamptz THEN ${p.now}::timestamptz ELSE NULL END`,
          })
          .where('tenant_id', '=', p.tenantId)
          .where('device_id', '=', p.deviceId)
          .where('status', '=', 'pending')
          .returningAll(),
      )
      // One row per claimed command, or one without a command: the device's presence comes back either way.
      .selectFrom('heartbeat')
      .fullJoin('claimed', (j) => j.on(sql<boolean>`true`))
      .selectAll('claimed')
      .select(['heartbeat.offline_since as device_offline_since', 'heartbeat.event_sequence as device_event_sequence'])
      // An uncorrelated subquery: PostgreSQL runs it once, whatever the number of rows.
      .select(revokedTokenIdsQuery(db, p.tenantId, p.revokedSince, p.revokedNotExpiredAt).as('revoked_token_ids')),
);

export interface HeartbeatResult {
  /** The pending commands handed out, oldest first. */
  commands: DeviceCommandRow[];
  /** The device's presence as the heartbeat found it: offline_since (null when not marked offline) and its sequence. */
  presence: { offlineSince: Date | null; sequence: number } | null;
  /** Ids of the tenant's tokens revoked in the window given, oldest revocation first. */
  revokedTokenIds: string[];
}

type HeartbeatRow = { [K in keyof DeviceCommandRow]: DeviceCommandRow[K] | null } & {
  device_offline_since: Date | null;
  device_event_sequence: number | null;
  revoked_token_ids: string[];
};

/**
 * A heartbeat in one statement: records the telemetry, hands out the pending commands as
 * claimPendingCommands does, reads the tenant's token revocations in `revoked` (the access
 * module's window), and returns the device's presence (offline_since is not changed
 * here, so what comes back is its value under the row lock the update takes: a sweep that marked
 * the device offline a moment before is seen). One statement is atomic on its own, so no
 * transaction (and no extra round trips) is needed on the fleet's hottest path.
 */
export async function heartbeatAndClaim(
  db: Executor,
  tenantId: string,
  deviceId: string,
  telemetry: DeviceTelemetryData,
  now: Date,
  revoked: RevocationWindow,
): Promise<HeartbeatResult> {
  const rows = (await heartbeatStatement(db, {
    tenantId,
    deviceId,
    telemetry: JSON.stringify(telemetry),
    now,
    revokedSince: revoked.since,
    revokedNotExpiredAt: revoked.notExpiredAt,
  })) as HeartbeatRow[];
  const device = rows.find((r) => r.device_event_sequence !== null);
  const commands = rows
    .filter((r) => r.id !== null && r.status === 'delivered')
    .map(
      ({ device_offline_since: _o, device_event_sequence: _s, revoked_token_ids: _r, ...command }) =>
        command as DeviceCommandRow,
    )
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
  return {
    commands,
    presence: device
      ? { offlineSince: device.device_offline_since, sequence: device.device_event_sequence as number }
      : null,
    revokedTokenIds: rows[0]?.revoked_token_ids ?? [],
  };
}

/** Records the result of a command not yet reported; undefined when it was reported, expired or is unknown. */
export async function completeCommand(
  db: Executor,
  where: { tenantId: string; deviceId: string; id: string; now: Date },
  report: { status: 'executed' | 'failed'; result: unknown; error: string | null },
): Promise<DeviceCommandRow | undefined> {
  return db
    .updateTable('device_commands')
    .set({
      status: report.status,
      result: report.result === undefined ? null : JSON.stringify(report.result),
      error: report.error,
      completed_at: where.now,
    })
    .where('tenant_id', '=', where.tenantId)
    .where('device_id', '=', where.deviceId)
    .where('id', '=', where.id)
    .where((eb) =>
      eb.or([eb('status', '=', 'delivered'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', where.now)])]),
    )
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
    .select(
      sql<boolean>`(status = ${report.status} AND result IS NOT DISTINCT FROM ${result}::jsonb AND error IS NOT DISTINCT FROM ${report.error}::text)`.as(
        'same_report',
      ),
    )
    .where('tenant_id', '=', where.tenantId)
    .where('device_id', '=', where.deviceId)
    .where('id', '=', where.id)
    .executeTakeFirst();
}

export async function listCommands(
  db: Executor,
  tenantId: string,
  deviceId: string,
  limit: number,
): Promise<DeviceCommandRow[]> {
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

/**
 * Puts commands a channel claimed but could not write (the connection had gone) back to pending,
 * so the next heartbeat or poll hands them out; those reported or expired meanwhile stay as they are.
 */
export async function releaseCommands(
  db: Executor,
  tenantId: string,
  deviceId: string,
  ids: readonly string[],
  now: Date,
): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('device_commands')
    .set({ status: 'pending', delivered_at: null })
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('id', 'in', [...ids])
    .where('status', '=', 'delivered')
    .where('expires_at', '>', now)
    .execute();
}

/** One command of the tenant's device, or undefined. */
export function findCommand(
  db: Executor,
  where: { tenantId: string; deviceId: string; id: string },
): Promise<DeviceCommandRow | undefined> {
  return db
    .selectFrom('device_commands')
    .selectAll()
    .where('tenant_id', '=', where.tenantId)
    .where('device_id', '=', where.deviceId)
    .where('id', '=', where.id)
    .executeTakeFirst();
}
