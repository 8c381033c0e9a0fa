import { Type, type Static } from '@sinclair/typebox';

// JSON schemas of the device protocol's request bodies; fastify validates them before a handler
// runs, and a violation becomes a problem+json 400 naming the field.

export const DeviceParams = Type.Object({ deviceId: Type.String() });
export const CommandParams = Type.Object({ deviceId: Type.String(), commandId: Type.String() });

export const ActivateBody = Type.Object({
  activation_code: Type.String({ minLength: 1, maxLength: 100 }),
  serial: Type.String({ minLength: 1, maxLength: 200 }),
  firmware_version: Type.String({ minLength: 1, maxLength: 100 }),
});
export type ActivateBody = Static<typeof ActivateBody>;

const DoorStateValue = Type.Unsafe<'locked' | 'unlocked'>({ type: 'string', enum: ['locked', 'unlocked'] });

/** Heartbeat telemetry; further fields (newer firmware) are accepted and ignored. */
export const HeartbeatBody = Type.Object({
  cpu_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  memory_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  wifi_signal_dbm: Type.Integer({ minimum: -150, maximum: 0 }),
  door_states: Type.Record(Type.String({ maxLength: 100 }), DoorStateValue, { maxProperties: 64 }),
});
export type HeartbeatBody = Static<typeof HeartbeatBody>;

export const CommandReportBody = Type.Object({
  status: Type.Unsafe<'executed' | 'failed'>({ type: 'string', enum: ['executed', 'failed'] }),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type CommandReportBody = Static<typeof CommandReportBody>;

export const AccessCheckBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512 }),
  doorId: Type.String({ minLength: 1, maxLength: 100 }),
});
export type AccessCheckBody = Static<typeof AccessCheckBody>;
