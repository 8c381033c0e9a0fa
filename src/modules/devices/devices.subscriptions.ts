import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { DeviceRow } from '../../kernel/db/types.js';
import { liveStream, sharedRead } from '../../kernel/live/index.js';
import { getDevice } from './devices.service.js';
import { PRESENCE_EVENT_TYPES } from './presence.js';

// deviceStatusChanged (docs/subscriptions.md): the tenant's device.offline / device.online events
// from the outbox's live tail, each with the device as it is now.

export interface DeviceStatusChangeValue {
  eventId: string;
  type: string;
  occurredAt: string;
  online: boolean;
  device: DeviceRow;
}

const PRESENCE = new Set<string>(PRESENCE_EVENT_TYPES);

/** Presence events only: the hub skips the tenant's other events for these subscribers. */
const isPresenceEvent = (event: Record<string, unknown>): boolean =>
  typeof event.type === 'string' && PRESENCE.has(event.type);

/** The device id of a presence event's data ({device: {id}}), or undefined for any other event. */
export function presenceDeviceIdOf(event: Record<string, unknown>): string | undefined {
  if (!isPresenceEvent(event)) return undefined;
  const data = event.data as { device?: { id?: unknown } } | undefined;
  return typeof data?.device?.id === 'string' ? data.device.id : undefined;
}

async function statusChange(
  ctx: GraphQLContext,
  event: Record<string, unknown>,
  tenantId: string,
): Promise<DeviceStatusChangeValue | undefined> {
  const deviceId = presenceDeviceIdOf(event);
  if (!deviceId) return undefined;
  return {
    eventId: String(event.id),
    type: String(event.type),
    occurredAt: String(event.createdAt),
    online: event.type === 'device.online',
    // Read once for all of this process's subscribers of the tenant (the hub hands them one object).
    device: await sharedRead(event, 'device', () => getDevice(ctx.db, tenantId, deviceId)),
  };
}

export const deviceSubscriptionResolvers: Resolvers = {
  Subscription: {
    deviceStatusChanged: {
      subscribe: (_, _a, ctx) =>
        liveStream(ctx, 'event', (event, tenantId) => statusChange(ctx, event, tenantId), isPresenceEvent, [
          'devices:read',
        ]),
      resolve: (value: DeviceStatusChangeValue) => value,
    },
  },
};
