import type { Kysely } from 'kysely';
import type { DB } from '../kernel/db/types.js';
import type { AppDeps, BaseDeps, Loaders } from '../kernel/deps.js';
import type { PortierModule } from '../kernel/module.js';
import { accessDecisionMessage, AccessLogWriter, DoorKeyCache } from '../modules/access/index.js';
import { createSender, outboxTail, recordEvent, tenantsSubscribedTo } from '../modules/webhooks/index.js';
import { LiveHub, notifyTransport, redisTransport, StreamGuard, SubscriptionSlots } from '../kernel/live/index.js';
import { credentialCheck } from './credentials.js';
import {
  PRESENCE_EVENT_TYPES,
  sweepDevicePresence,
  type ListeningTenants,
  type RecordDeviceEvent,
} from '../modules/devices/index.js';
import { SlotScheduleCache } from '../modules/availability/index.js';
import { createStripeProvider, refundCancelledBooking, sweepExpiredHolds } from '../modules/payments/index.js';
import { customerOfGuest } from '../modules/customers/index.js';
import { createMailer, createSmsClient } from '../modules/notifications/index.js';
import { ApiKeyCache } from '../modules/tenants/index.js';
import { foldBookingCounts, guestFactsReader } from '../modules/bookings/index.js';
import { BookingGuard, createPublicBookingLimits, publicProofGuard } from '../modules/booking-page/index.js';
import { createStaffAccounts } from '../modules/users/index.js';
import { SEAL_INFO as CREDENTIALS_SEAL_INFO, TenantProviders } from '../modules/credentials/index.js';
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
/** The messages a live subscriber must accept to count as listening for presence (LiveHub.watching). */
const PRESENCE_PROBES = PRESENCE_EVENT_TYPES.map((type) => ({ type }));

export function composeDeps(base: BaseDeps, modules: readonly PortierModule[] = MODULES): AppDeps {
  const { database, env, secret, log, limits, now, metrics, tracing } = base;
  const deviceEvents: RecordDeviceEvent = (db, tenantId, type, data) => recordEvent(db, tenantId, type, data);
  // Live updates (docs/subscriptions.md): Redis pub/sub when the runtime has Redis, else NOTIFY.
  const live = {
    hub: new LiveHub(
      limits.store.kind === 'redis' ? redisTransport(limits.store.redis, log) : notifyTransport(database, log),
      log,
      [outboxTail(database, log)],
    ),
    slots: new SubscriptionSlots(env.maxSubscriptionsPerKey),
    guard: new StreamGuard(credentialCheck(database), log, env.liveRevalidateMs),
  };
  // A credential changed on any process: the open streams of its tenant are re-checked at once.
  live.hub.onCredentialNotice((tenantId) => void live.guard.nudge(tenantId));
  // Presence is tracked for tenants a webhook listens for, and for those with a live subscriber here
  // that would be handed presence events (deviceStatusChanged; not bookingChanged).
  const presenceListeners: ListeningTenants = async (db) => [
    ...new Set([
      ...(await tenantsSubscribedTo(db, PRESENCE_EVENT_TYPES)),
      ...live.hub.watching('event', PRESENCE_PROBES),
    ]),
  ];
  const bookingGuard = new BookingGuard(limits.store, secret, env.bookingPage);
  const paymentProvider = env.stripe ? createStripeProvider(env.stripe) : null;
  const mailer = env.mail ? createMailer(env.mail) : null;
  const smsClient = env.sms ? createSmsClient(env.sms) : null;
  const deps: AppDeps = {
    database,
    env,
    secret,
    log,
    limits,
    now,
    metrics,
    tracing,
    accessLog: new AccessLogWriter(
      database.db,
      (error, lost) => {
        log.error({ err: error, lost }, 'access log entries could not be written');
      },
      // accessDecided: each committed decision to every process (one publish per batch).
      (entries) => {
        for (const entry of entries) live.hub.publish(accessDecisionMessage(entry));
      },
    ),
    doorKeys: new DoorKeyCache(secret),
    apiKeys: new ApiKeyCache(env.apiKeyCacheMs),
    webhookSender: createSender({ allowPrivateNetworks: env.webhookAllowPrivateNetworks }),
    slotSchedules: new SlotScheduleCache(),
    deviceEvents,
    live,
    modules,
    createLoaders: loadersOf(modules),
    dispatcherSweeps: [
      { name: 'device presence', run: (at) => sweepDevicePresence(database.db, at, deviceEvents, presenceListeners) },
      // Writes no event: it folds the bookings' count deltas (totals stay exact either way).
      { name: 'booking counts', run: async () => (await foldBookingCounts(database.db), 0) },
    ],
    paymentProvider,
    cancellationRefund: refundCancelledBooking,
    mailer,
    smsClient,
    // Per tenant at send time: the environment's providers win, else the tenant's stored credentials.
    providers: new TenantProviders(
      database.db,
      secret.sealerFor(CREDENTIALS_SEAL_INFO),
      // Read at each use: a test (or tool) that swaps deps.paymentProvider is followed.
      () => ({ stripe: deps.paymentProvider, smtp: deps.mailer, sms: deps.smsClient }),
      { stripe: createStripeProvider, mailer: (mail) => createMailer(mail), sms: (sms) => createSmsClient(sms) },
    ),
    bookingCustomer: customerOfGuest,
    publicBookingLimits: createPublicBookingLimits(limits.store),
    staffAccounts: createStaffAccounts(limits.store, log),
    // The public API's bot check: the booking page's honeypot and proof of work (one spent set).
    publicBookingGuard: publicProofGuard(bookingGuard),
    guestFacts: guestFactsReader(env.publicUrl, secret),
    bookingGuard,
  };
  // The payment-hold sweep runs with every dispatcher pass (API process and npm run worker).
  deps.dispatcherSweeps.push({ name: 'payment holds', run: (at) => sweepExpiredHolds(deps, at) });
  return deps;
}
