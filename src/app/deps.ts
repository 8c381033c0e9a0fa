import type { Kysely } from 'kysely';
import type { DB } from '../kernel/db/types.js';
import type { AppDeps, BaseDeps, Loaders } from '../kernel/deps.js';
import type { PortierModule } from '../kernel/module.js';
import { AccessLogWriter, DoorKeyCache } from '../modules/access/index.js';
import { createSender, recordEvent, tenantsSubscribedTo } from '../modules/webhooks/index.js';
import { sweepDevicePresence, type ListeningTenants, type RecordDeviceEvent } from '../modules/devices/index.js';
import { SlotScheduleCache } from '../modules/availability/index.js';
import { createStripeProvider, refundCancelledBooking, sweepExpiredHolds } from '../modules/payments/index.js';
import { createMailer, createSmsClient } from '../modules/notifications/index.js';
import { MODULES } from './modules.js';

export type { AppDeps, BaseDeps, Collaborators } from '../kernel/deps.js';

/** One request's loaders: every module's, merged (each module declares its part of Loaders). */
function loadersOf(modules: readonly PortierModule[]): (db: Kysely<DB>) => Loaders {
  const factories = modules.flatMap((m) => (m.loaders ? [m.loaders] : []));
  return (db) => Object.assign({}, ...factories.map((create) => create(db))) as Loaders;
}

/**
 * The composition root's one builder: every collaborator of a process, made from its base. A test
 * that changes a base dependency (env, log, database) composes again, so nothing derived from the
 * old one (the sender's network policy, the writer's error log) is carried over.
 */
export function composeDeps(base: BaseDeps, modules: readonly PortierModule[] = MODULES): AppDeps {
  const { database, env, secret, log, limits, now, metrics, tracing } = base;
  const deviceEvents: RecordDeviceEvent = (db, tenantId, type, data) => recordEvent(db, tenantId, type, data);
  const presenceListeners: ListeningTenants = (db) => tenantsSubscribedTo(db, ['device.offline', 'device.online']);
  const deps: AppDeps = {
    database,
    env,
    secret,
    log,
    limits,
    now,
    metrics,
    tracing,
    accessLog: new AccessLogWriter(database.db, (error, lost) => {
      log.error({ err: error, lost }, 'access log entries could not be written');
    }),
    doorKeys: new DoorKeyCache(secret),
    webhookSender: createSender({ allowPrivateNetworks: env.webhookAllowPrivateNetworks }),
    slotSchedules: new SlotScheduleCache(),
    deviceEvents,
    modules,
    createLoaders: loadersOf(modules),
    dispatcherSweeps: [
      { name: 'device presence', run: (at) => sweepDevicePresence(database.db, at, deviceEvents, presenceListeners) },
    ],
    paymentProvider: env.stripe ? createStripeProvider(env.stripe) : null,
    cancellationRefund: refundCancelledBooking,
    mailer: env.mail ? createMailer(env.mail) : null,
    smsClient: env.sms ? createSmsClient(env.sms) : null,
  };
  // The payment-hold sweep runs with every dispatcher pass (API process and npm run worker).
  deps.dispatcherSweeps.push({ name: 'payment holds', run: (at) => sweepExpiredHolds(deps, at) });
  return deps;
}
