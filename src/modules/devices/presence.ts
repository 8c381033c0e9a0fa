import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import type { Executor } from '../../kernel/db/index.js';
import { OFFLINE_AFTER_SECONDS } from './devices.rules.js';
import * as repo from './presence.repository.js';
import type { PresenceChange } from './presence.repository.js';

// Device presence events (docs/webhooks.md#device-presence). A device that misses three heartbeats
// becomes offline (one device.offline), and its next heartbeat brings it back (one device.online).
// The devices module does not depend on webhooks: it writes its events through a port, the outbox's
// recordEvent, handed over by the composition root (src/kernel/deps.ts).

/** The presence events, as webhooks and subscriptions name them. */
export const PRESENCE_EVENT_TYPES = ['device.offline', 'device.online'] as const;

export type DevicePresenceEventType = (typeof PRESENCE_EVENT_TYPES)[number];

/** A command's result as the device reported it (docs/webhooks.md#device-commands). */
export const COMMAND_EVENT_TYPES = ['device.command.executed', 'device.command.failed'] as const;

export type DeviceCommandEventType = (typeof COMMAND_EVENT_TYPES)[number];

/** Writes an event to the outbox in `db`'s transaction (webhooks' recordEvent, wired in src/kernel/deps.ts). */
export type RecordDeviceEvent = (
  db: Executor,
  tenantId: string,
  type: DevicePresenceEventType | DeviceCommandEventType,
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * The tenants whose devices' presence is tracked: those with an active subscription to a presence
 * event (wired in src/kernel/deps.ts). A fleet nobody listens to is not swept, and its heartbeats stay one
 * statement; a new subscription hears of devices already silent at the next sweep.
 */
export type ListeningTenants = (db: Executor) => Promise<string[]>;

/** Devices marked offline per transaction of a sweep. */
const SWEEP_BATCH = 500;

/** When a device whose last heartbeat was at `lastSeenAt` counts as offline: more than 3 intervals later. */
export function offlineThreshold(now: Date): Date {
  return new Date(now.getTime() - OFFLINE_AFTER_SECONDS * 1000);
}

function presenceData(
  change: PresenceChange,
  doorIds: string[],
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    device: { id: change.id, name: change.name, doorIds },
    lastSeenAt: change.last_seen_at.toISOString(),
    ...extra,
    sequence: change.sequence,
  };
}

/**
 * Marks every device silent for more than 3 heartbeat intervals offline and writes one
 * device.offline per device, in the transaction that marks it; returns how many. Any number of
 * processes may sweep at once (the webhook dispatchers do, each pass): each transition is taken once.
 */
export async function sweepDevicePresence(
  db: Kysely<DB>,
  now: Date,
  record: RecordDeviceEvent,
  listening?: ListeningTenants,
): Promise<number> {
  const threshold = offlineThreshold(now);
  const tenantIds = listening ? await listening(db) : undefined;
  if (tenantIds?.length === 0) return 0;
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const changes = await repo.markSilentOffline(trx, threshold, SWEEP_BATCH, tenantIds);
      const doors = await repo.doorIdsOf(
        trx,
        changes.map((c) => c.id),
      );
      for (const change of changes) {
        await record(
          trx,
          change.tenant_id,
          'device.offline',
          presenceData(change, doors.get(change.id) ?? [], { offlineAfterSeconds: OFFLINE_AFTER_SECONDS }),
        );
      }
      return changes.length;
    });
    total += n;
    if (n < SWEEP_BATCH) return total;
  }
}

/**
 * After a heartbeat of a device marked offline (`offlineSince`, at presence `seenSequence`): marks
 * it online and writes one device.online, in one transaction. Concurrent heartbeats write it once.
 */
export async function markDeviceBackOnline(
  db: Executor,
  record: RecordDeviceEvent,
  device: { tenantId: string; deviceId: string; offlineSince: Date; seenSequence: number },
): Promise<boolean> {
  const write = async (trx: Executor): Promise<boolean> => {
    const change = await repo.markBackOnline(trx, device);
    if (!change) return false;
    const doors = await repo.doorIdsOf(trx, [change.id]);
    await record(
      trx,
      change.tenant_id,
      'device.online',
      presenceData(change, doors.get(change.id) ?? [], { offlineSince: device.offlineSince.toISOString() }),
    );
    return true;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
