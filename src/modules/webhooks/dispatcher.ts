import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../kernel/db/types.js';
import type { ServerSecret } from '../../kernel/crypto.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { Metrics } from '../../kernel/metrics.js';
import { detached, type Tracing } from '../../kernel/tracing.js';
import * as deliveries from './deliveries.repository.js';
import { attemptDelivery, type AttemptOutcome, type DeliveryContext } from './delivery.js';
import type { Resolver } from './address-guard.js';
import { createSender, DELIVERY_TIMEOUT_MS, type Sender } from './sender.js';
import { WAKE_CHANNEL } from './outbox.js';
import { SuccessWriter } from './success-writer.js';

// The webhook dispatcher: fans outbox events out into deliveries and sends the due ones. It runs
// in the API process and as a separate worker (`npm run worker`); several may run at once, on one
// database, because every read that takes work uses FOR UPDATE SKIP LOCKED. It is woken when an
// event commits (LISTEN/NOTIFY, from any process) and polls only as a fallback.

export interface DispatcherOptions {
  db: Kysely<DB>;
  secret: ServerSecret;
  log: Logger;
  /** The clock the schedule runs on (tests inject one); timeouts and polling use real time. */
  now: () => Date;
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
  /** Replaces the HTTP sender (tests). */
  send?: Sender;
  timeoutMs?: number;
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /** Deliveries of one subscription in flight at once, so one slow receiver cannot take every slot. */
  perWebhook?: number;
  /**
   * The fallback poll (ms, default 5000): a pass at least this often, for a notification lost while
   * the listening connection was down. Commits wake the dispatcher at once through `listen`.
   */
  pollIntervalMs?: number;
  /** Database.listen: calls back on each committed NOTIFY of the channel. Absent, the dispatcher only polls. */
  listen?: (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;
  fanOutBatch?: number;
  /**
   * Jobs that write outbox events from the passage of time (the device presence sweep), run before
   * fan-out: on every runOnce(), and in the background loop at most every sweepIntervalMs.
   */
  sweeps?: DispatcherSweep[];
  sweepIntervalMs?: number;
  /** Counts attempts by outcome (docs/operations.md). */
  metrics?: Metrics;
  /** Traces each attempt (docs/operations.md#traces). */
  tracing?: Tracing;
}

/** A periodic job of the dispatcher's pass; it may run in several processes at once. */
export interface DispatcherSweep {
  name: string;
  /** Returns how many events it wrote. */
  run(now: Date): Promise<number>;
}

export interface RunSummary {
  /** Events the sweeps wrote. */
  swept: number;
  fannedOut: number;
  attempted: number;
  succeeded: number;
  failed: number;
}

export function dispatcherOptionsOf(deps: AppDeps, overrides: Partial<DispatcherOptions> = {}): DispatcherOptions {
  return {
    db: deps.database.db,
    secret: deps.secret,
    log: deps.log,
    now: deps.now,
    allowPrivateNetworks: deps.env.webhookAllowPrivateNetworks,
    sweeps: deps.dispatcherSweeps,
    metrics: deps.metrics,
    tracing: deps.tracing,
    listen: (channel, onNotify) => deps.database.listen(channel, onNotify),
    pollIntervalMs: deps.env.webhookPollIntervalMs,
    ...overrides,
  };
}

/** Retries of this process timed to the ms at most; beyond that the poll finds them. */
const MAX_RETRY_TIMERS = 1000;

export class WebhookDispatcher {
  private readonly ctx: DeliveryContext;
  private readonly concurrency: number;
  private readonly perWebhook: number;
  private readonly pollIntervalMs: number;
  private readonly fanOutBatch: number;
  private readonly leaseMs: number;
  private readonly sweepIntervalMs: number;
  /** performance.now() of the background loop's last sweep. */
  private lastSweep = -Infinity;
  /** Attempts in flight, by the subscription they go to. */
  private readonly inFlight = new Map<Promise<unknown>, string>();
  /** The fallback poll's timer (re-armed after every pass). */
  private pollTimer: NodeJS.Timeout | undefined;
  /** A wake-up for the earliest retry this process scheduled, when it comes before the poll. */
  private retryTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the retry timer, and of every retry noted for it. */
  private retryAt = Infinity;
  private retryTimes: number[] = [];
  /** The background passes, one at a time; wake() during one asks for another. */
  private passing: Promise<void> | undefined;
  private passRequested = false;
  /** Events may be waiting (a notification, the poll, a sweep): the next pass fans out. */
  private fanOutRequested = false;
  private listening: Promise<(() => Promise<void>) | undefined> | undefined;
  private running = false;

  constructor(private readonly options: DispatcherOptions) {
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.ctx = {
      db: options.db,
      secret: options.secret,
      log: options.log,
      now: options.now,
      metrics: options.metrics,
      tracing: options.tracing,
      successes: new SuccessWriter((attempts) => deliveries.recordSuccesses(options.db, attempts)),
      send:
        options.send ??
        createSender({ allowPrivateNetworks: options.allowPrivateNetworks, timeoutMs, resolver: options.resolver }),
    };
    this.concurrency = options.concurrency ?? 64;
    this.perWebhook = options.perWebhook ?? 16;
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.fanOutBatch = options.fanOutBatch ?? 200;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 5000;
    // An attempt ends within the timeout; the lease adds a margin for recording it.
    this.leaseMs = timeoutMs + 60_000;
  }

  /** Runs the sweeps; a failing one is logged and does not stop delivery. Returns the events written. */
  async sweep(): Promise<number> {
    let total = 0;
    for (const sweep of this.options.sweeps ?? []) {
      try {
        total += await sweep.run(this.ctx.now());
      } catch (error) {
        this.ctx.log.error({ err: error, sweep: sweep.name }, 'dispatcher sweep failed');
      }
    }
    return total;
  }

  /** Fans out every waiting event; returns how many were taken. */
  async fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.options.db
        .transaction()
        .execute((trx) => deliveries.fanOut(trx, this.ctx.now(), this.fanOutBatch));
      total += n;
      if (n < this.fanOutBatch) return total;
    }
  }

  /** Claims due deliveries up to the free capacity and starts them; returns their outcomes' promises. */
  private async startDue(): Promise<Promise<AttemptOutcome | null>[]> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    const perWebhook = new Map<string, number>();
    for (const webhookId of this.inFlight.values()) perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1);
    const busy = [...perWebhook].filter(([, n]) => n >= this.perWebhook).map(([id]) => id);
    const now = this.ctx.now();
    const jobs = await deliveries.claimJobs(
      this.options.db,
      now,
      new Date(now.getTime() + this.leaseMs),
      free,
      this.perWebhook,
      busy,
    );
    return jobs.map((job) => {
      const attempt = attemptDelivery(this.ctx, job, { retry: job.eventType !== 'webhook.test' }).catch(
        (error: unknown) => {
          // The delivery stays claimed until its lease ends, then it is tried again.
          this.ctx.log.error({ err: error, deliveryId: job.delivery.id }, 'recording a webhook attempt failed');
          return null;
        },
      );
      const tracked = attempt.finally(() => {
        this.inFlight.delete(tracked);
        // A free slot, and maybe the next event of the same booking: claim again.
        this.wake({ fanOut: false });
      });
      void attempt.then((outcome) => {
        if (outcome?.nextAttemptAt) this.wakeAt(outcome.nextAttemptAt);
      });
      this.inFlight.set(tracked, job.delivery.webhook_id);
      return attempt;
    });
  }

  /**
   * One pass: fan out, then send what is due (up to the concurrency) and wait for those attempts.
   * Tests drive the dispatcher with it; the background loop does the same without waiting.
   */
  async runOnce(): Promise<RunSummary> {
    const swept = await this.sweep();
    const fannedOut = await this.fanOut();
    const outcomes = await Promise.all(await this.startDue());
    const done = outcomes.filter((o): o is AttemptOutcome => o !== null);
    const succeeded = done.filter((o) => o.success).length;
    return { swept, fannedOut, attempted: done.length, succeeded, failed: done.length - succeeded };
  }

  /**
   * Runs in the background until stop(): a pass whenever an event commits (a NOTIFY on
   * WAKE_CHANNEL, from any process), an attempt ends (its slot is free, and the next event of its
   * booking may go), a retry this process scheduled comes due, and at the latest every
   * pollIntervalMs (a notification lost while the listening connection was down).
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.options.listen) {
      this.listening = this.options
        .listen(WAKE_CHANNEL, () => this.wake())
        .then(async (unlisten) => {
          if (this.running) return unlisten;
          await unlisten();
          return undefined;
        })
        .catch((error: unknown) => {
          this.ctx.log.error({ err: error }, 'webhook dispatcher cannot listen; it polls');
          return undefined;
        });
    }
    this.wake();
  }

  /** Resolves once start() listens (or gave up trying to and polls): tests wait for it before committing. */
  async listeningReady(): Promise<void> {
    await this.listening;
  }

  /**
   * Asks for a pass (at once, or right after the one running). `fanOut: false` when no event can
   * be waiting (an attempt ended): the pass only claims.
   */
  wake({ fanOut = true }: { fanOut?: boolean } = {}): void {
    if (!this.running) return;
    this.passRequested = true;
    if (fanOut) this.fanOutRequested = true;
    // A wake comes from whatever woke it (a request's commit through PGlite's in-process NOTIFY, a
    // timer): the passes, and the deliveries and timers they start, belong to no request's trace.
    this.passing ??= detached(() => this.passes());
  }

  private async passes(): Promise<void> {
    while (this.running && this.passRequested) {
      this.passRequested = false;
      clearTimeout(this.pollTimer);
      try {
        if (performance.now() - this.lastSweep >= this.sweepIntervalMs) {
          this.lastSweep = performance.now();
          if ((await this.sweep()) > 0) this.fanOutRequested = true;
        }
        if (this.fanOutRequested) {
          this.fanOutRequested = false;
          await this.fanOut();
        }
        // The attempts started run on in the background; inFlight tracks them, and each wakes a pass when it ends.
        void Promise.allSettled(await this.startDue());
      } catch (error) {
        this.ctx.log.error({ err: error }, 'webhook dispatcher pass failed');
      }
    }
    this.passing = undefined;
    if (!this.running) return;
    // The sweeps keep their own interval whatever the poll's.
    const untilSweep = this.options.sweeps?.length
      ? Math.max(0, this.lastSweep + this.sweepIntervalMs - performance.now())
      : Infinity;
    this.pollTimer = setTimeout(() => this.wake(), Math.min(this.pollIntervalMs, untilSweep));
  }

  /** Wakes a pass at `at` (the schedule's clock) when that comes before the next poll. */
  private wakeAt(at: Date): void {
    if (!this.running) return;
    const delay = Math.max(0, at.getTime() - this.ctx.now().getTime());
    if (delay >= this.pollIntervalMs || this.retryTimes.length >= MAX_RETRY_TIMERS) return;
    this.retryTimes.push(performance.now() + delay);
    this.armRetryTimer();
  }

  /** One timer, for the earliest retry time noted; when it fires, the pass takes every one due by then. */
  private armRetryTimer(): void {
    const next = Math.min(...this.retryTimes);
    if (!Number.isFinite(next) || next >= this.retryAt) return;
    clearTimeout(this.retryTimer);
    this.retryAt = next;
    this.retryTimer = setTimeout(
      () => {
        const now = performance.now();
        this.retryAt = Infinity;
        this.retryTimes = this.retryTimes.filter((t) => t > now);
        this.wake({ fanOut: false });
        this.armRetryTimer();
      },
      // A few ms late, so the delivery is due by the database's comparison too.
      Math.max(0, next - performance.now()) + 5,
    );
  }

  /**
   * Stops (no more passes, no more listening) and waits for the attempts in flight (each ends
   * within the timeout), so their outcomes are recorded before the database closes. An attempt
   * whose outcome cannot be recorded is sent again after its lease, with the same webhook-id.
   */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.retryTimer);
    this.retryAt = Infinity;
    this.retryTimes = [];
    // A listen still connecting is not waited for long: it stops itself once it resolves (start()).
    const listening = this.listening;
    this.listening = undefined;
    let waited: NodeJS.Timeout | undefined;
    const unlisten = await Promise.race([
      listening,
      new Promise<undefined>((resolve) => (waited = setTimeout(() => resolve(undefined), 2000))),
    ]);
    clearTimeout(waited);
    await unlisten?.();
    await this.passing;
    await Promise.allSettled([...this.inFlight.keys()]);
  }
}
