import * as commandsRepo from './commands.repository.js';
import type { DeviceCommandRow } from '../../kernel/db/types.js';
import type { Executor } from '../../kernel/db/index.js';
import type { DeviceRow, DeviceTelemetryData } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { DevicePrincipal } from '../../kernel/auth/principal.js';
import { displayPrefix, randomToken, sha256 } from '../../kernel/crypto.js';
import { DomainError, conflict, invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { cursorPageRows, instantCursor, type CursorPage } from '../../kernel/paging.js';
import { newActivationCode, normalizeActivationCode } from './activation-code.js';
import type { ActivateDevice, RegisterDevice, SetDeviceDoors } from './devices.commands.js';
import { ACTIVATION_CODE_TTL_DAYS, DEVICE_KEY_PREFIX, HEARTBEAT_INTERVAL_SECONDS } from './devices.rules.js';
import * as repo from './devices.repository.js';
import { markDeviceBackOnline } from './presence.js';
import { doorVerificationConfig, revocationWindow, type DoorVerificationConfig } from '../access/index.js';
import { recordAudit } from '../audit/index.js';

// Tenant side: register, list, re-assign doors, revoke. Device side: activate, authenticate,
// heartbeat telemetry, config. Every tenant-side function takes the tenant from the principal.

/** The door ids, once every one is a door of the tenant. */
async function checkDoorIds(db: Executor, tenantId: string, doorIds: string[]): Promise<string[]> {
  const known = await repo.existingDoorIds(db, tenantId, doorIds);
  const unknown = doorIds.filter((id) => !known.has(id));
  if (unknown.length) throw invalidField('doorIds', `unknown doors: ${unknown.join(', ')}`);
  return doorIds;
}

export interface RegisteredDevice {
  device: DeviceRow;
  /** The plain code: returned once, stored only as a hash. */
  activationCode: string;
}

/**
 * Registers a controller for doors; `trx` must be the caller's transaction. `command`: the caller's
 * parsed input (parseRegisterDevice); that the doors are the tenant's is checked here.
 */
export async function registerDevice(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: RegisterDevice,
): Promise<RegisteredDevice> {
  const doorIds = await checkDoorIds(trx, tenantId, command.doorIds ?? []);
  const now = deps.now();
  const { shown: activationCode, canonical } = newActivationCode();
  const device = await repo.insertDevice(trx, {
    tenant_id: tenantId,
    name: command.name,
    activation_code_hash: sha256(canonical),
    activation_expires_at: new Date(now.getTime() + ACTIVATION_CODE_TTL_DAYS * 86_400_000),
    created_at: now,
  });
  await repo.replaceDeviceDoors(trx, tenantId, device.id, doorIds);
  return { device, activationCode };
}

export async function getDevice(db: Executor, tenantId: string, id: string): Promise<DeviceRow> {
  const device = isUuid(id) ? await repo.findDevice(db, tenantId, id) : undefined;
  if (!device) throw notFound('Device', id);
  return device;
}

export const listDevices = repo.listDevices;

export const DEVICE_CURSOR = instantCursor('device');

/** A cursor page of the devices (REST cursor paging), newest first. */
export async function devicePage(db: Executor, tenantId: string, cursor: CursorPage<{ at: string; id: string }>) {
  const rows = await repo.devicesPage(db, tenantId, cursor.after, cursor.limit + 1);
  return cursorPageRows(rows, cursor.limit, DEVICE_CURSOR.of);
}

export async function setDeviceDoors(
  trx: Executor,
  tenantId: string,
  id: string,
  { doorIds }: SetDeviceDoors,
): Promise<DeviceRow> {
  const device = await getDevice(trx, tenantId, id);
  await repo.replaceDeviceDoors(trx, tenantId, id, await checkDoorIds(trx, tenantId, doorIds));
  return device;
}

/** Revokes a device: its key stops working with the next request. Revoking again changes nothing. */
export async function revokeDevice(db: Executor, deps: AppDeps, tenantId: string, id: string): Promise<DeviceRow> {
  const device = await getDevice(db, tenantId, id);
  if (device.revoked_at) return device;
  return (await repo.revokeDevice(db, tenantId, id, deps.now())) ?? getDevice(db, tenantId, id);
}

export interface Activation {
  device_id: string;
  device_key: string;
  message: string;
}

/** The refusal of a code that is not one Portier issued (the one the activation limiter counts). */
export const UNKNOWN_ACTIVATION_CODE = 'activation_code_invalid';

/**
 * Consumes a one-time activation code and returns the device key (shown once, stored hashed).
 * Unknown code → 400, used / expired / revoked → 409.
 */
/**
 * Exchanges an activation code for the device key (shown once), and records `device.activated` in
 * the audit log: from then on the key opens the device API. Call it in a transaction, so the
 * activation and its audit entry exist together. `ip` is the activating client's address.
 */
export async function activateDevice(
  db: Executor,
  deps: AppDeps,
  input: ActivateDevice,
  ip: string | null = null,
): Promise<Activation> {
  const code = normalizeActivationCode(input.activation_code);
  const unknown = () => invalidField('activation_code', 'is not a valid activation code', UNKNOWN_ACTIVATION_CODE);
  if (!code) throw unknown();
  const codeHash = sha256(code);
  const now = deps.now();
  const deviceKey = DEVICE_KEY_PREFIX + randomToken(32);
  const activated = await repo.activateDevice(db, {
    codeHash,
    keyHash: sha256(deviceKey),
    keyPrefix: displayPrefix(deviceKey),
    serial: input.serial,
    firmwareVersion: input.firmware_version,
    now,
  });
  if (activated) {
    deps.log.info({ deviceId: activated.id, tenantId: activated.tenant_id }, 'device activated');
    await recordAudit(db, {
      tenantId: activated.tenant_id,
      // Whoever holds the code: nobody signed in, so the actor is anonymous and the entry says how it acted.
      actor: { type: 'anonymous', id: null, label: 'activation code' },
      action: 'device.activated',
      target: { type: 'device', id: activated.id },
      details: { serial: input.serial, firmwareVersion: input.firmware_version, keyPrefix: displayPrefix(deviceKey) },
      ip,
      at: now,
    });
    return {
      device_id: activated.id,
      device_key: deviceKey,
      message: 'Device activated. Store the device key now: it is shown only once.',
    };
  }
  const device = await repo.findDeviceByActivationCodeHash(db, codeHash);
  if (!device) throw unknown();
  if (device.revoked_at) throw conflict('device_revoked', 'This device was revoked; register a new device');
  if (device.activated_at)
    throw conflict(
      'activation_code_used',
      'This activation code was already used; register a new device to get a new code',
    );
  throw conflict(
    'activation_code_expired',
    `This activation code expired (codes are valid for ${ACTIVATION_CODE_TTL_DAYS} days); register the device again`,
  );
}

export function isUnknownActivationCode(error: unknown): boolean {
  return error instanceof DomainError && error.code === UNKNOWN_ACTIVATION_CODE;
}

/** The principal behind a device key, or null when the key is unknown or the device revoked. */
export async function authenticateDevice(db: Executor, plain: string): Promise<DevicePrincipal | null> {
  if (!plain.startsWith(DEVICE_KEY_PREFIX)) return null;
  const device = await repo.findActiveDeviceByKeyHash(db, sha256(plain));
  return device
    ? { kind: 'device', deviceId: device.id, tenantId: device.tenant_id, lastHeartbeatAt: device.last_heartbeat_at }
    : null;
}

export interface HeartbeatAnswer {
  commands: DeviceCommandRow[];
  /** Ids of signed tokens revoked since the device's previous heartbeat (all unexpired ones on its first). */
  revokedTokenIds: string[];
}

/**
 * Records a heartbeat's telemetry and hands out the device's pending commands (one statement),
 * with the token ids revoked since the previous heartbeat (read before this one is recorded). A
 * device marked offline is marked online again, with its device.online event.
 */
export async function heartbeat(
  db: Executor,
  deps: AppDeps,
  device: DevicePrincipal,
  telemetry: DeviceTelemetryData,
): Promise<HeartbeatAnswer> {
  const { cpu_percent, memory_percent, wifi_signal_dbm, door_states } = telemetry;
  // The previous heartbeat as the key's lookup read it (before this one is recorded) bounds the
  // revocations listed; the heartbeat's one statement reads them beside recording it.
  const previous =
    device.lastHeartbeatAt !== undefined
      ? device.lastHeartbeatAt
      : await repo.lastHeartbeatAt(db, device.tenantId, device.deviceId);
  const now = deps.now();
  const { commands, presence, revokedTokenIds } = await commandsRepo.heartbeatAndClaim(
    db,
    device.tenantId,
    device.deviceId,
    { cpu_percent, memory_percent, wifi_signal_dbm, door_states },
    now,
    revocationWindow(previous, now),
  );
  // Back after missing three heartbeats: one device.online (the common online case costs nothing more).
  if (presence?.offlineSince) {
    await markDeviceBackOnline(db, deps.deviceEvents, {
      tenantId: device.tenantId,
      deviceId: device.deviceId,
      offlineSince: presence.offlineSince,
      seenSequence: presence.sequence,
    });
  }
  return { commands, revokedTokenIds };
}

export interface DeviceConfig extends DoorVerificationConfig {
  device_id: string;
  doors: {
    id: string;
    name: string;
    gpio_pin: number;
    behavior: string;
    unlock_duration_seconds: number;
    object_ids: string[];
  }[];
  heartbeat_interval_seconds: number;
}

/** The device's doors and settings, with what it needs to verify QR tokens offline (keys, policy). */
export async function deviceConfig(db: Executor, deps: AppDeps, device: DevicePrincipal): Promise<DeviceConfig> {
  const doors = await repo.configDoors(db, device.tenantId, device.deviceId);
  return {
    device_id: device.deviceId,
    doors: doors.map((d) => ({
      id: d.id,
      name: d.name,
      gpio_pin: d.gpio_pin,
      behavior: d.behavior,
      unlock_duration_seconds: d.unlock_duration_seconds,
      object_ids: d.object_ids,
    })),
    heartbeat_interval_seconds: HEARTBEAT_INTERVAL_SECONDS,
    ...(await doorVerificationConfig(db, deps, device.tenantId)),
  };
}
