import { Type, type Static } from '@sinclair/typebox';
import type { DeviceCommandStatus } from '../../kernel/db/types.js';
import { DENIAL_REASONS, OFFLINE_REJECTIONS, type DenialReason, type OfflineRejection } from '../access/index.js';
import { named } from '../../kernel/openapi-names.js';
import { COMMAND_TYPES, type CommandType } from './devices.rules.js';

// JSON schemas of the device protocol's request bodies; fastify validates them before a handler
// runs, and a violation becomes a problem+json 400 naming the field.

export const DeviceParams = Type.Object({ deviceId: Type.String() });
export const CommandParams = Type.Object({ deviceId: Type.String(), commandId: Type.String() });

export const ActivateBody = named(
  'DeviceActivationRequest',
  Type.Object({
    activation_code: Type.String({ minLength: 1, maxLength: 100 }),
    serial: Type.String({ minLength: 1, maxLength: 200 }),
    firmware_version: Type.String({ minLength: 1, maxLength: 100 }),
  }),
);
export type ActivateBody = Static<typeof ActivateBody>;

const DoorStateValue = Type.Unsafe<'locked' | 'unlocked'>({ type: 'string', enum: ['locked', 'unlocked'] });

/** Heartbeat telemetry; further fields (newer firmware) are accepted and ignored. */
export const HeartbeatBody = named(
  'Heartbeat',
  Type.Object({
    cpu_percent: Type.Integer({ minimum: 0, maximum: 100 }),
    memory_percent: Type.Integer({ minimum: 0, maximum: 100 }),
    wifi_signal_dbm: Type.Integer({ minimum: -150, maximum: 0 }),
    door_states: Type.Record(Type.String({ maxLength: 100 }), DoorStateValue, { maxProperties: 64 }),
  }),
);
export type HeartbeatBody = Static<typeof HeartbeatBody>;

export const CommandReportBody = named(
  'DeviceCommandReport',
  Type.Object({
    status: Type.Unsafe<'executed' | 'failed'>({ type: 'string', enum: ['executed', 'failed'] }),
    result: Type.Optional(
      Type.Unknown({ description: 'Any JSON value: what the controller reports with status executed (stored as is).' }),
    ),
    error: Type.Optional(Type.String({ maxLength: 2000 })),
  }),
);
export type CommandReportBody = Static<typeof CommandReportBody>;

export const AccessCheckBody = named(
  'AccessCheckRequest',
  Type.Object({
    token: Type.String({ minLength: 1, maxLength: 512 }),
    doorId: Type.String({ minLength: 1, maxLength: 100 }),
  }),
);
export type AccessCheckBody = Static<typeof AccessCheckBody>;

// Response schemas. fastify serializes each answer with them (unknown properties are dropped), so
// they list every field the handlers return; free-form parts (a command's payload) stay open.

export const ActivationResult = named(
  'DeviceActivation',
  Type.Object(
    {
      device_id: Type.String({ format: 'uuid' }),
      device_key: Type.String({ description: 'svc_dk_…: shown only in this response; store it now.' }),
      message: Type.String(),
    },
    { description: 'The device is activated.' },
  ),
);

const COMMAND_STATUSES: readonly DeviceCommandStatus[] = ['pending', 'delivered', 'executed', 'failed', 'expired'];

export const DeviceCommand = named(
  'PendingDeviceCommand',
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      type: Type.Unsafe<CommandType>({
        type: 'string',
        enum: [...COMMAND_TYPES],
        description: 'What the command asks; payload has this type’s shape.',
      }),
      payload: Type.Object(
        {},
        { additionalProperties: true, description: 'For unlock: {gpio_pin, duration_seconds}.' },
      ),
      status: Type.Unsafe<DeviceCommandStatus>({ type: 'string', enum: [...COMMAND_STATUSES] }),
      expires_at: Type.String({ format: 'date-time' }),
      created_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A command for the device.' },
  ),
);

export const HeartbeatResult = named(
  'HeartbeatResult',
  Type.Object(
    {
      status: Type.Literal('ok'),
      pending_commands: Type.Array(DeviceCommand, {
        description: 'Commands handed out now, oldest first (each only once).',
      }),
      revoked_token_ids: Type.Array(Type.String(), {
        description:
          'Ids (jti) of QR tokens revoked (cancelled or rescheduled bookings) since the previous heartbeat, with a 60 s overlap; all unexpired ones on the first heartbeat. Refuse them offline.',
      }),
    },
    { description: 'Telemetry recorded.' },
  ),
);

export const CommandList = named(
  'PendingDeviceCommandList',
  Type.Object(
    {
      commands: Type.Array(DeviceCommand, {
        description: 'Pending commands handed out now, oldest first (each only once).',
      }),
    },
    { description: 'The pending commands.' },
  ),
);

export const CommandResult = named(
  'DeviceCommandReportResult',
  Type.Object({ command: DeviceCommand }, { description: 'The report is stored (or was already, identically).' }),
);

export const DeviceConfigResult = named(
  'DeviceConfig',
  Type.Object(
    {
      device_id: Type.String({ format: 'uuid' }),
      doors: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          name: Type.String(),
          gpio_pin: Type.Integer(),
          behavior: Type.String({ description: 'e.g. unlock_per_scan' }),
          unlock_duration_seconds: Type.Integer(),
          object_ids: Type.Array(Type.String({ format: 'uuid' }), {
            description: 'The bookable objects the door serves.',
          }),
        }),
      ),
      heartbeat_interval_seconds: Type.Integer(),
      jwks: Type.Object(
        {
          keys: Type.Array(
            Type.Object(
              {},
              { additionalProperties: true, description: 'An Ed25519 public key (OKP JWK with kid, alg EdDSA).' },
            ),
          ),
        },
        {
          description:
            'The tenant’s keys that verify signed QR tokens (the active key and retired keys with unexpired tokens).',
        },
      ),
      offline: Type.Object(
        {
          max_offline_seconds: Type.Integer({
            description:
              'How long after its last successful heartbeat the door may verify QR tokens itself (0: never).',
          }),
          clock_skew_seconds: Type.Integer({
            description: 'How far the door’s clock may be off: it widens a token’s window by this much, offline only.',
          }),
        },
        { description: 'The offline policy of the tenant.' },
      ),
    },
    { description: 'The device’s doors and settings.' },
  ),
);

/** The reasons a door may report for an offline refusal: the four denials and two of its own. */
export const OFFLINE_REASONS = [...DENIAL_REASONS, 'offline_limit_exceeded', 'online_only_credential'] as const;

export const OfflineDecisionEntry = named(
  'OfflineAccessDecision',
  Type.Object({
    token_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: 'The jti of the scanned token; null when it was no valid signed token.',
      }),
    ),
    door_id: Type.String({ format: 'uuid' }),
    decided_at: Type.String({ format: 'date-time' }),
    allowed: Type.Boolean(),
    reason: Type.Optional(
      Type.Union([
        Type.Unsafe<(typeof OFFLINE_REASONS)[number]>({ type: 'string', enum: [...OFFLINE_REASONS] }),
        Type.Null(),
      ]),
    ),
  }),
);

export const AccessLogReportBody = named(
  'AccessLogReport',
  Type.Object({
    entries: Type.Array(OfflineDecisionEntry, { maxItems: 500 }),
  }),
);
export type AccessLogReportBody = Static<typeof AccessLogReportBody>;

export const AccessLogReportResult = named(
  'AccessLogReportResult',
  Type.Object(
    {
      accepted: Type.Integer({ description: 'How many entries are recorded (new, or already by an earlier upload).' }),
      rejected: Type.Array(
        Type.Object({
          index: Type.Integer({ description: 'The entry’s position in `entries` (from 0).' }),
          reason: Type.Unsafe<OfflineRejection>({
            type: 'string',
            enum: [...OFFLINE_REJECTIONS],
            description:
              'door_not_assigned: the device does not drive this door (another device’s, another tenant’s, unknown); decided_in_future: later than now plus the clock skew; token_required: an admission without a token id; unknown_token: an admission naming a token id no token of this tenant has (a denial of one is stored, as invalid_token); outside_token_validity: an admission outside the token’s window ± the clock skew; token_not_for_door: an admission at a door that does not serve the token’s object.',
          }),
        }),
        { description: 'Entries refused, never stored; sending them again is refused again.' },
      ),
    },
    { description: 'Recorded, except the entries in `rejected`.' },
  ),
);

export const AccessCheckResult = named(
  'AccessDecision',
  Type.Object(
    {
      allowed: Type.Boolean(),
      behavior: Type.Optional(Type.String({ description: 'When allowed, e.g. unlock_per_scan.' })),
      unlockDurationSeconds: Type.Optional(Type.Integer({ description: 'When allowed.' })),
      reason: Type.Optional(
        Type.Unsafe<DenialReason>({ type: 'string', enum: [...DENIAL_REASONS], description: 'When denied.' }),
      ),
    },
    { description: 'The decision; a denial is a 200 too, with allowed false and a reason.' },
  ),
);
