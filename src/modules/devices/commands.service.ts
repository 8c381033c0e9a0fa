import type { Executor } from '../../db/index.js';
import type { DeviceCommandRow } from '../../db/types.js';
import type { AppDeps } from '../../deps.js';
import { Validator, conflict, invalidField, notFound } from '../../errors.js';
import { isUuid } from '../../validation.js';
import { COMMAND_TTL_SECONDS, COMMAND_TYPES } from './devices.rules.js';
import { getDevice } from './devices.service.js';
import * as devicesRepo from './devices.repository.js';
import * as repo from './commands.repository.js';

export interface CommandInput {
  deviceId: string;
  type?: unknown;
  doorId?: unknown;
  durationSeconds?: unknown;
}

/** Queues a command for a device (tenant side); `trx` must be the caller's transaction. */
export async function createCommand(trx: Executor, deps: AppDeps, tenantId: string, input: CommandInput): Promise<DeviceCommandRow> {
  const v = new Validator();
  v.check((COMMAND_TYPES as readonly unknown[]).includes(input.type), 'type', `must be one of ${COMMAND_TYPES.join(', ')}`);
  v.check(isUuid(input.doorId), 'doorId', 'must be the id of a door the device drives');
  if (input.durationSeconds != null) {
    v.check(
      Number.isInteger(input.durationSeconds) && (input.durationSeconds as number) >= 1 && (input.durationSeconds as number) <= 3600,
      'durationSeconds',
      'must be a whole number of seconds from 1 to 3600',
    );
  }
  v.throwIfAny();
  const device = await getDevice(trx, tenantId, input.deviceId);
  if (device.revoked_at) throw conflict('device_revoked', `Device ${device.id} is revoked and takes no commands`);
  const doorId = input.doorId as string;
  const door = await devicesRepo.findDeviceDoor(trx, tenantId, device.id, doorId);
  if (!door) throw invalidField('doorId', `door ${doorId} is not driven by device ${device.id}`, 'door_not_assigned');
  const now = deps.now();
  return repo.insertCommand(trx, {
    tenant_id: tenantId,
    device_id: device.id,
    door_id: door.id,
    type: 'unlock',
    payload: { gpio_pin: door.gpio_pin, duration_seconds: input.durationSeconds ?? door.unlock_duration_seconds },
    status: 'pending',
    expires_at: new Date(now.getTime() + COMMAND_TTL_SECONDS * 1000),
    created_at: now,
  });
}

export async function listCommands(db: Executor, tenantId: string, deviceId: string, first: number | null | undefined): Promise<DeviceCommandRow[]> {
  const limit = first ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalidField('first', 'must be a whole number from 1 to 200');
  await getDevice(db, tenantId, deviceId);
  return repo.listCommands(db, tenantId, deviceId, limit);
}

/** Hands out the device's pending commands (they become delivered); expired ones never are. */
export function claimCommands(db: Executor, deps: AppDeps, tenantId: string, deviceId: string): Promise<DeviceCommandRow[]> {
  return repo.claimPendingCommands(db, tenantId, deviceId, deps.now());
}

export interface CommandReport {
  status: 'executed' | 'failed';
  result?: unknown;
  error?: string;
}

/**
 * Records what the device did with a command. Repeating the same report is harmless (200 with the
 * command); a different report after the first is a conflict, as is a report for an expired one.
 */
export async function reportCommand(db: Executor, deps: AppDeps, tenantId: string, deviceId: string, commandId: string, report: CommandReport): Promise<DeviceCommandRow> {
  if (!isUuid(commandId)) throw notFound('Command', commandId);
  const normalized = { status: report.status, result: report.result, error: report.error ?? null };
  const where = { tenantId, deviceId, id: commandId };
  const updated = await repo.completeCommand(db, { ...where, now: deps.now() }, normalized);
  if (updated) return updated;
  const current = await repo.findCommandWithReport(db, where, normalized);
  if (!current) throw notFound('Command', commandId);
  const { same_report: same, ...command } = current;
  if (same) return command;
  if (command.status === 'executed' || command.status === 'failed') {
    throw conflict('command_already_reported', `Command ${commandId} was already reported as ${command.status} with a different result`);
  }
  throw conflict('command_expired', `Command ${commandId} expired before it was delivered`);
}
