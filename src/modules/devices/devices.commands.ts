import { Type, type StaticDecode } from '@sinclair/typebox';
import { Id, Nullable, OneOf, Text, parseCommand } from '../../commands.js';
import { COMMAND_TYPES } from './devices.rules.js';

// The devices module's tenant-side commands (docs/architecture.md, "Typed commands"); the device
// protocol's bodies are in devices.schemas.ts, which fastify checks on its routes.

export const RegisterDevice = Type.Object({
  name: Text({ message: 'must be a non-empty string of at most 200 characters' }),
});
export type RegisterDevice = StaticDecode<typeof RegisterDevice>;
/** The name; the door ids are checked against the tenant's doors by the service. */
export const parseRegisterDevice = (input: unknown): RegisterDevice => parseCommand(RegisterDevice, input);

export const CreateDeviceCommand = Type.Object({
  type: OneOf(COMMAND_TYPES, { message: `must be one of ${COMMAND_TYPES.join(', ')}` }),
  doorId: Id({ message: 'must be the id of a door the device drives' }),
  durationSeconds: Nullable(Type.Integer({ minimum: 1, maximum: 3600, message: 'must be a whole number of seconds from 1 to 3600' })),
});
export type CreateDeviceCommand = StaticDecode<typeof CreateDeviceCommand>;
export const parseCreateDeviceCommand = (input: unknown): CreateDeviceCommand => parseCommand(CreateDeviceCommand, input);
