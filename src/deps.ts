import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import type { Env } from './env.js';
import type { ServerSecret } from './crypto.js';
import type { GuessLimits } from './limits/index.js';
import type { Metrics } from './metrics/metrics.js';
import { AccessLogWriter, DoorKeyCache } from './modules/access/index.js';
import { createSender, recordEvent, tenantsSubscribedTo, type DispatcherSweep, type Sender } from './modules/webhooks/index.js';
import { sweepDevicePresence, type ListeningTenants, type RecordDeviceEvent } from './modules/devices/index.js';
import { SlotScheduleCache } from './modules/availability/index.js';

/** What a process starts from: configuration, the database, the secret, the logger and the clock. */
export interface BaseDeps {
  database: Database;
  env: Env;
  secret: ServerSecret;
  log: Logger;
  /** Guessing limiters (SMS codes, activation codes), shared through Redis when REDIS_URL is set. */
  limits: GuessLimits;
  /** The current time; tests inject their own clock. */
  now: () => Date;
  /** The process's Prometheus registry (built once by the runtime); absent, nothing is measured. */
  metrics?: Metrics;
}

/** The long-lived collaborators, built once by composeDeps (never on first use by a module). */
export interface Collaborators {
  /** Buffers access-check log rows; the access check appends, log reads and shutdown flush. */
  accessLog: AccessLogWriter;
  /** Door signing keys by key id (public for verifying, unsealed private for signing), loaded once. */
  doorKeys: DoorKeyCache;
  /** Sends one webhook request (the synchronous test event); the dispatcher gets its own from its options. */
  webhookSender: Sender;
  /** Availability's slot grids, keyed by what they are computed from (so never stale; see schedule.ts). */
  slotSchedules: SlotScheduleCache;
  /**
   * The port through which devices write their presence events (device.offline/online) to the
   * outbox: webhooks' recordEvent, so devices need not depend on webhooks.
   */
  deviceEvents: RecordDeviceEvent;
  /** What every webhook dispatcher pass runs before fan-out: the device presence sweep. */
  dispatcherSweeps: DispatcherSweep[];
}

/** What the composition root hands to every entry point: no module reads globals or keeps singletons. */
export interface AppDeps extends BaseDeps, Collaborators {}

/**
 * The composition root's one builder: every collaborator of a process, made from its base. A test
 * that changes a base dependency (env, log, database) composes again, so nothing derived from the
 * old one (the sender's network policy, the writer's error log) is carried over.
 */
export function composeDeps(base: BaseDeps): AppDeps {
  const { database, env, secret, log, limits, now, metrics } = base;
  const deviceEvents: RecordDeviceEvent = (db, tenantId, type, data) => recordEvent(db, tenantId, type, data);
  const presenceListeners: ListeningTenants = (db) => tenantsSubscribedTo(db, ['device.offline', 'device.online']);
  return {
    database,
    env,
    secret,
    log,
    limits,
    now,
    metrics,
    accessLog: new AccessLogWriter(database.db, (error, lost) => {
      log.error({ err: error, lost }, 'access log entries could not be written');
    }),
    doorKeys: new DoorKeyCache(secret),
    webhookSender: createSender({ allowPrivateNetworks: env.webhookAllowPrivateNetworks }),
    slotSchedules: new SlotScheduleCache(),
    deviceEvents,
    dispatcherSweeps: [{ name: 'device presence', run: (at) => sweepDevicePresence(database.db, at, deviceEvents, presenceListeners) }],
  };
}
