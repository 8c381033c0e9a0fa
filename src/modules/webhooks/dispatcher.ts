import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/types.js';
import type { ServerSecret } from '../../crypto.js';
import type { AppDeps } from '../../deps.js';
import * as deliveries from './deliveries.repository.js';
import { attemptDelivery, type AttemptOutcome, type DeliveryContext } from './delivery.js';
import type { Resolver } from './address-guard.js';
import { createSender, DELIVERY_TIMEOUT_MS, type Sender } from './sender.js';

// The webhook dispatcher: fans outbox events out into deliveries and sends the due ones. It runs
// in the API process and as a separate worker (`npm run worker`); several may run at once, on one
// database, because every read that takes work uses FOR UPDATE SKIP LOCKED.

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
  pollIntervalMs?: number;
  fanOutBatch?: number;
  /**
   * Jobs that write outbox events from the passage of time (the device presence sweep), run before
   * fan-out: on every runOnce(), and in the background loop at most every sweepIntervalMs.
   */
  sweeps?: DispatcherSweep[];
  sweepIntervalMs?: number;
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
    ...overrides,
  };
}

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
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | undefined;
  private running = false;

  constructor(private readonly options: DispatcherOptions) {
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.ctx = {
      db: options.db,
      secret: options.secret,
      log: options.log,
      now: options.now,
      send: options.send ?? createSender({ allowPrivateNetworks: options.allowPrivateNetworks, timeoutMs, resolver: options.resolver }),
    };
    this.concurrency = options.concurrency ?? 16;
    this.perWebhook = options.perWebhook ?? 4;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
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
      const n = await this.options.db.transaction().execute((trx) => deliveries.fanOut(trx, this.ctx.now(), this.fanOutBatch));
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
    const ids = await this.options.db.transaction().execute((trx) => deliveries.claimDue(trx, now, new Date(now.getTime() + this.leaseMs), free, this.perWebhook, busy));
    const jobs = await deliveries.loadJobs(this.options.db, ids);
    return jobs.map((job) => {
      const attempt = attemptDelivery(this.ctx, job, { retry: job.eventType !== 'webhook.test' }).catch((error: unknown) => {
        // The delivery stays claimed until its lease ends, then it is tried again.
        this.ctx.log.error({ err: error, deliveryId: job.delivery.id }, 'recording a webhook attempt failed');
        return null;
      });
      const tracked = attempt.finally(() => this.inFlight.delete(tracked));
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

  /** Polls in the background until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async () => {
      if (!this.running) return;
      this.ticking = (async (): Promise<void> => {
        if (performance.now() - this.lastSweep >= this.sweepIntervalMs) {
          this.lastSweep = performance.now();
          await this.sweep();
        }
        await this.fanOut();
        // The attempts started run on in the background; inFlight tracks them.
        const started = await this.startDue();
        void Promise.allSettled(started);
      })().catch((error: unknown) => {
        this.ctx.log.error({ err: error }, 'webhook dispatcher pass failed');
      });
      await this.ticking;
      if (this.running) this.timer = setTimeout(loop, this.pollIntervalMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  /**
   * Stops polling and waits for the attempts in flight (each ends within the timeout), so their
   * outcomes are recorded before the database closes. An attempt whose outcome cannot be recorded
   * is sent again after its lease, with the same webhook-id.
   */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight.keys()]);
  }
}
