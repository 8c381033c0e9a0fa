// The devices module's public face: what other modules and the HTTP/GraphQL layers may use.
export { DEVICES_BASE, registerDeviceRoutes } from './devices.routes.js';
export { createDeviceLoaders } from './devices.loaders.js';
export { deviceResolvers } from './devices.resolvers.js';
export { importDevices } from './devices.import.js';
export * from './devices.service.js';
export { ACTIVATION_GUESS_TIERS } from './activation-guessing.js';
export { ONLINE_WINDOW_SECONDS, OFFLINE_AFTER_SECONDS } from './devices.rules.js';
export { sweepDevicePresence, type ListeningTenants, type RecordDeviceEvent, type DevicePresenceEventType } from './presence.js';
export * from './devices.commands.js';
export { COMMAND_TYPES } from './devices.rules.js';
