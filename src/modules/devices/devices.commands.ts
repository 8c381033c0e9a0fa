import { Type, type StaticDecode } from '@sinclair/typebox';
import { Id, Nullable, OneOf, Text, parseCommand } from '../../kernel/commands.js';
import { isUuid } from '../../kernel/validation.js';
import { COMMAND_TYPES } from './devices.rules.js';

// The devices module's tenant-side commands (docs/architecture.md, "Typed commands"); the device
// protocol's bodies are in devices.schemas.ts, which fastify checks on its routes.

/** Door ids (uuids); the message names the malformed ones. */
const DoorIds = () =>
  Type.Transform(
    Type.Array(Id({ message: 'must be a door id' }), {
      message: (value: unknown) =>
        Array.isArray(value)
          ? `not door ids: ${value.filter((id) => !isUuid(id)).join(', ')}`
          : 'must be a list of door ids',
    }),
  )
    .Decode((ids) => [...new Set(ids)])
    .Encode((ids) => ids);

export const RegisterDevice = Type.Object({
  name: Text({ message: 'must be a non-empty string of at most 200 characters' }),
  doorIds: Type.Optional(DoorIds()),
});
export type RegisterDevice = StaticDecode<typeof RegisterDevice>;
/** The name and door ids (none when absent); that the doors are the tenant's is checked by the service. */
export const parseRegisterDevice = (input: unknown): RegisterDevice => parseCommand(RegisterDevice, input);

export const SetDeviceDoors = Type.Object({ doorIds: DoorIds() });
export type SetDeviceDoors = StaticDecode<typeof SetDeviceDoors>;
export const parseSetDeviceDoors = (input: unknown): SetDeviceDoors => parseCommand(SetDeviceDoors, input);

/** Text a device sends, trimmed; blank is refused. */
const DeviceText = () =>
  Type.Transform(Type.String({ format: 'portier-text', message: 'must not be blank' }))
    .Decode((value) => value.trim())
    .Encode((value) => value);

/**
 * An activation's body after fastify's schema check (ActivateBody: types and lengths): the serial
 * and firmware version must say something.
 */
export const ActivateDevice = Type.Object({
  activation_code: Type.String(),
  serial: DeviceText(),
  firmware_version: DeviceText(),
});
export type ActivateDevice = StaticDecode<typeof ActivateDevice>;
export const parseActivateDevice = (input: unknown): ActivateDevice => parseCommand(ActivateDevice, input);

export const CreateDeviceCommand = Type.Object({
  type: OneOf(COMMAND_TYPES, { message: `must be one of ${COMMAND_TYPES.join(', ')}` }),
  doorId: Id({ message: 'must be the id of a door the device drives' }),
  durationSeconds: Nullable(
    Type.Integer({ minimum: 1, maximum: 3600, message: 'must be a whole number of seconds from 1 to 3600' }),
  ),
});
export type CreateDeviceCommand = StaticDecode<typeof CreateDeviceCommand>;
export const parseCreateDeviceCommand = (input: unknown): CreateDeviceCommand =>
  parseCommand(CreateDeviceCommand, input);
