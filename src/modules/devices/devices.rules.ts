import type { DeviceCommandRow, DeviceRow } from '../../kernel/db/types.js';

export const HEARTBEAT_INTERVAL_SECONDS = 15;
/** A device is online while heartbeats arrive within 3 intervals. */
export const ONLINE_WINDOW_SECONDS = 3 * HEARTBEAT_INTERVAL_SECONDS;
/** A device silent for longer than this (three missed heartbeats) gets a device.offline event. */
export const OFFLINE_AFTER_SECONDS = ONLINE_WINDOW_SECONDS;
export const ACTIVATION_CODE_TTL_DAYS = 7;
/** An unlock must not happen long after it was asked for: unclaimed commands expire. */
export const COMMAND_TTL_SECONDS = 60;
export const DEVICE_KEY_PREFIX = 'svc_dk_';
export const COMMAND_TYPES = ['unlock'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** Each command type's payload (commands.service.ts writes them), as JSON Schema: the OpenAPI document types DeviceCommand.payload by type with these. */
export const COMMAND_PAYLOADS: Record<CommandType, Record<string, unknown>> = {
  unlock: {
    type: 'object',
    description: 'Open the door on gpio_pin for duration_seconds.',
    properties: {
      gpio_pin: { type: 'integer', minimum: 0, description: 'The controller pin of the door’s lock.' },
      duration_seconds: { type: 'integer', minimum: 1, description: 'How long the lock stays open.' },
    },
    required: ['gpio_pin', 'duration_seconds'],
  },
};

export type DeviceStatus = 'PENDING_ACTIVATION' | 'ACTIVATION_EXPIRED' | 'ACTIVE' | 'REVOKED';

export function deviceStatus(
  device: Pick<DeviceRow, 'revoked_at' | 'activated_at' | 'activation_expires_at'>,
  now: Date,
): DeviceStatus {
  if (device.revoked_at) return 'REVOKED';
  if (device.activated_at) return 'ACTIVE';
  return device.activation_expires_at > now ? 'PENDING_ACTIVATION' : 'ACTIVATION_EXPIRED';
}

export function isOnline(device: Pick<DeviceRow, 'revoked_at' | 'last_heartbeat_at'>, now: Date): boolean {
  if (device.revoked_at || !device.last_heartbeat_at) return false;
  return now.getTime() - device.last_heartbeat_at.getTime() <= ONLINE_WINDOW_SECONDS * 1000;
}

/** A command as the device protocol shows it (DESIGN section 5). */
export interface CommandView {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  status: string;
  expires_at: string;
  created_at: string;
}

export function commandView(row: DeviceCommandRow): CommandView {
  return {
    id: row.id,
    type: row.type,
    payload: row.payload,
    status: row.status,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}
