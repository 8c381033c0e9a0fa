import { defineModule } from '../../kernel/module.js';
import { deviceResolvers } from './devices.resolvers.js';
import { deviceSubscriptionResolvers } from './devices.subscriptions.js';
import { createDeviceLoaders } from './devices.loaders.js';
import { importDevices } from './devices.import.js';
import { registerDeviceRoutes } from './devices.routes.js';
import type { RecordDeviceEvent } from './presence.js';
// The devices module's public face: what other modules and the HTTP/GraphQL layers may use.
export { DEVICES_BASE, registerDeviceRoutes } from './devices.routes.js';
export { createDeviceLoaders } from './devices.loaders.js';
export { deviceResolvers } from './devices.resolvers.js';
export { importDevices } from './devices.import.js';
export * from './devices.service.js';
export { ACTIVATION_GUESS_TIERS } from './activation-guessing.js';
export { ONLINE_WINDOW_SECONDS, OFFLINE_AFTER_SECONDS } from './devices.rules.js';
export {
  sweepDevicePresence,
  PRESENCE_EVENT_TYPES,
  type ListeningTenants,
  type RecordDeviceEvent,
  type DevicePresenceEventType,
} from './presence.js';
export * from './devices.commands.js';
export {
  announceDeviceCommands,
  announceDeviceRevoked,
  deviceChannelsOf,
  CHANNEL_RECHECK_SECONDS,
  type ChannelCloseReason,
} from './command-channel.js';
export { COMMAND_PAYLOADS, COMMAND_TYPES, type CommandType } from './devices.rules.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createDeviceLoaders> {}
  interface Collaborators {
    /**
     * The port through which devices write their presence events (device.offline/online) to the
     * outbox: webhooks' recordEvent (wired in src/app/deps.ts), so devices need not depend on webhooks.
     */
    deviceEvents: RecordDeviceEvent;
  }
}

/** The devices module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const devicesModule = defineModule({
  name: 'devices',
  dependsOn: ['access', 'audit'],
  typeDefs: ['devices.graphql'],
  resolvers: { ...deviceResolvers, ...deviceSubscriptionResolvers },
  loaders: createDeviceLoaders,
  importSections: { devices: importDevices },
  routes: registerDeviceRoutes,
});
