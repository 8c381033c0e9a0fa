import type { Executor } from '../../kernel/db/index.js';
import type { DeviceCommandRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { conflict, invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { COMMAND_TTL_SECONDS } from './devices.rules.js';
import type { CreateDeviceCommand } from './devices.commands.js';
import { getDevice } from './devices.service.js';
import * as devicesRepo from './devices.repository.js';
import * as repo from './commands.repository.js';

/**
 * Queues a command for a device (tenant side); `trx` must be the caller's transaction and
 * `command` the caller's parsed input (parseCreateDeviceCommand).
 */
export async function createCommand(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  deviceId: string,
  command: CreateDeviceCommand,
): Promise<DeviceCommandRow> {
  const device = await getDevice(trx, tenantId, deviceId);
  if (device.revoked_at) throw conflict('device_revoked', `Device ${device.id} is revoked and takes no commands`);
  const { doorId } = command;
  const door = await devicesRepo.findDeviceDoor(trx, tenantId, device.id, doorId);
  if (!door) throw invalidField('doorId', `door ${doorId} is not driven by device ${device.id}`, 'door_not_assigned');
  const now = deps.now();
  return repo.insertCommand(trx, {
    tenant_id: tenantId,
    device_id: device.id,
    door_id: door.id,
    type: 'unlock',
    payload: { gpio_pin: door.gpio_pin, duration_seconds: command.durationSeconds ?? door.unlock_duration_seconds },
    status: 'pending',
    expires_at: new Date(now.getTime() + COMMAND_TTL_SECONDS * 1000),
    created_at: now,
  });
}

/** `limit`: the caller's page size (pageSizeOf, PAGE_SIZES.deviceCommands). */
export async function listCommands(
  db: Executor,
  tenantId: string,
  deviceId: string,
  limit: number,
): Promise<DeviceCommandRow[]> {
  await getDevice(db, tenantId, deviceId);
  return repo.listCommands(db, tenantId, deviceId, limit);
}

/**
 * One command of the tenant's device; an unknown device or command, another tenant's, or a command
 * of another device is NOT_FOUND.
 */
export async function getCommand(
  db: Executor,
  tenantId: string,
  deviceId: string,
  commandId: string,
): Promise<DeviceCommandRow> {
  const command =
    isUuid(deviceId) && isUuid(commandId)
      ? await repo.findCommand(db, { tenantId, deviceId, id: commandId })
      : undefined;
  if (!command) throw notFound('DeviceCommand', commandId);
  return command;
}

/** Hands out the device's pending commands (they become delivered); expired ones never are. */
export function claimCommands(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  deviceId: string,
): Promise<DeviceCommandRow[]> {
  return repo.claimPendingCommands(db, tenantId, deviceId, deps.now());
}

export interface CommandReport {
  status: 'executed' | 'failed';
  result?: unknown;
  error?: string;
}

/** The data of device.command.executed / device.command.failed (docs/webhooks.md#device-commands). */
export function commandEventData(command: DeviceCommandRow): Record<string, unknown> {
  return {
    device: { id: command.device_id },
    command: {
      id: command.id,
      type: command.type,
      doorId: command.door_id,
      payload: command.payload,
      status: command.status,
      result: command.result ?? null,
      error: command.error ?? null,
      createdAt: command.created_at.toISOString(),
      deliveredAt: command.delivered_at?.toISOString() ?? null,
      completedAt: command.completed_at?.toISOString() ?? null,
    },
  };
}

/**
 * Records what the device did with a command, with its device.command.executed or
 * device.command.failed event: call it in a transaction, so the report and its event exist together. Repeating the same report is harmless (200 with the
 * command); a different report after the first is a conflict, as is a report for an expired one.
 */
export async function reportCommand(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  deviceId: string,
  commandId: string,
  report: CommandReport,
): Promise<DeviceCommandRow> {
  if (!isUuid(commandId)) throw notFound('Command', commandId);
  const normalized = { status: report.status, result: report.result, error: report.error ?? null };
  const where = { tenantId, deviceId, id: commandId };
  const updated = await repo.completeCommand(db, { ...where, now: deps.now() }, normalized);
  if (updated) {
    // The first report only: a repeated one changes nothing and tells nobody again.
    await deps.deviceEvents(
      db,
      tenantId,
      updated.status === 'executed' ? 'device.command.executed' : 'device.command.failed',
      commandEventData(updated),
    );
    return updated;
  }
  const current = await repo.findCommandWithReport(db, where, normalized);
  if (!current) throw notFound('Command', commandId);
  const { same_report: same, ...command } = current;
  if (same) return command;
  if (command.status === 'executed' || command.status === 'failed') {
    throw conflict(
      'command_already_reported',
      `Command ${commandId} was already reported as ${command.status} with a different result`,
    );
  }
  throw conflict('command_expired', `Command ${commandId} expired before it was delivered`);
}
