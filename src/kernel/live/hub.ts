import type { Logger } from 'pino';

// Live updates (docs/subscriptions.md): what GraphQL subscriptions listen to. One hub per process,
// built by composeDeps. Messages reach it two ways:
// - from the outbox (sources): each process tails the events table itself, woken by the NOTIFY its
//   commit sends, so a booking change is seen exactly when it commits and never on rollback;
// - through the transport (publish): a message one process publishes (an access decision) reaches
//   the hub of every process — Redis pub/sub with REDIS_URL, PostgreSQL NOTIFY otherwise.

/** What a subscription listens to: outbox events (bookings, device presence) or access decisions. */
export type LiveTopic = 'event' | 'access';

/**
 * A notice between processes, never handed to a subscriber: a credential of the tenant ended or
 * lost scopes (revoked, signed out, narrowed), so each process re-checks its open streams' at once
 * (StreamGuard.nudge) instead of at its next periodic check. Tenant `*`: any tenant's.
 */
export const CREDENTIAL_NOTICE = 'credential';

/**
 * A notice between processes about one device's command channel (docs/devices.md, "The command
 * channel"), never handed to a subscriber: commands were queued for it, it was revoked, or it opened
 * a channel on some process (so the others close theirs). Its data says which.
 */
export const DEVICE_NOTICE = 'device';

export type LiveNoticeTopic = typeof CREDENTIAL_NOTICE | typeof DEVICE_NOTICE;

export interface LiveMessage {
  topic: LiveTopic | LiveNoticeTopic;
  tenantId: string;
  data: Record<string, unknown>;
}

/** Carries messages between the processes of one deployment. */
export interface LiveTransport {
  readonly name: 'redis' | 'postgres-notify';
  publish(messages: readonly LiveMessage[]): Promise<void>;
  /** Calls onMessage for every message any process publishes (this one too); resolves to a stop. */
  listen(onMessage: (message: LiveMessage) => void): Promise<() => Promise<void>>;
}

/** Feeds the hub from somewhere else than the transport (the outbox tail). */
export interface LiveSource {
  /** Starts feeding; resolves to a stop. Called when the first subscription opens. */
  start(
    deliver: (message: LiveMessage) => void,
    watching: (topic: LiveTopic) => readonly string[],
  ): Promise<() => Promise<void>>;
  /** Called (and awaited) before a tenant's first subscription to `topic` is counted: a source sets its starting point. */
  watch?(tenantId: string, topic: LiveTopic): Promise<void>;
  /** The tenant's last subscription to `topic` ended. */
  unwatch?(tenantId: string, topic: LiveTopic): void;
}

/**
 * Which of a topic's messages a subscriber wants (e.g. booking events, not device events). Pass one
 * function shared by all subscribers of a kind: the hub asks it once per message for all of them,
 * and what it refuses is never queued, so a burst of other events (10,000 doors going offline) can
 * neither cost each subscriber a wake-up nor push it past MAX_QUEUED_MESSAGES.
 */
export type LiveFilter = (data: Record<string, unknown>) => boolean;

const EVERY: LiveFilter = () => true;

/** Messages a subscriber may have waiting; one that falls this far behind is ended (docs/subscriptions.md). */
export const MAX_QUEUED_MESSAGES = 1_000;

/** An open subscription: the tenant's messages of one topic, in order, until return() or the hub closes. */
export interface LiveStream extends AsyncIterableIterator<Record<string, unknown>> {
  return(): Promise<IteratorResult<Record<string, unknown>>>;
}

class Subscriber implements LiveStream {
  private readonly queue: Record<string, unknown>[] = [];
  private waiting: ((result: IteratorResult<Record<string, unknown>>) => void) | undefined;
  private failing: ((error: Error) => void) | undefined;
  private ended = false;
  private error: Error | undefined;

  constructor(private readonly onEnd: (s: Subscriber) => void) {}

  push(data: Record<string, unknown>): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failing = undefined;
      resolve({ value: data, done: false });
      return;
    }
    if (this.queue.length >= MAX_QUEUED_MESSAGES) {
      this.fail(new Error(`the subscriber fell ${MAX_QUEUED_MESSAGES} messages behind and was ended`));
      return;
    }
    this.queue.push(data);
  }

  /** Ends the stream after what is queued. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    if (this.waiting && this.queue.length === 0) {
      const resolve = this.waiting;
      this.waiting = this.failing = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  private fail(error: Error): void {
    this.queue.length = 0;
    this.error = error;
    if (this.failing) {
      const reject = this.failing;
      this.waiting = this.failing = undefined;
      reject(error);
    }
    this.end();
  }

  next(): Promise<IteratorResult<Record<string, unknown>>> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ value, done: false });
    if (this.error) {
      const error = this.error;
      this.error = undefined;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failing = reject;
    });
  }

  return(): Promise<IteratorResult<Record<string, unknown>>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

const keyOf = (tenantId: string, topic: LiveTopic) => `${topic}\u0000${tenantId}`;

export class LiveHub {
  /** By tenant and topic, then by filter. */
  private readonly subscribers = new Map<string, Map<LiveFilter, Set<Subscriber>>>();
  private started: Promise<(() => Promise<void>)[]> | undefined;
  /** The transport's listening, started by the first subscription or the first device channel. */
  private listening: Promise<() => Promise<void>> | undefined;
  private readonly deviceListeners = new Set<(tenantId: string, data: Record<string, unknown>) => void>();
  private outgoing: LiveMessage[] = [];
  private flushScheduled = false;
  /** The last publish: the next waits for it, so messages reach the transport in the order published. */
  private publishing: Promise<void> = Promise.resolve();
  private readonly noticeListeners = new Set<(tenantId: string) => void>();

  constructor(
    readonly transport: LiveTransport,
    private readonly log: Logger,
    private readonly sources: readonly LiveSource[] = [],
  ) {}

  /**
   * Opens a stream of the tenant's messages of `topic` that `filter` accepts (all by default); ends
   * with return() or when the hub closes.
   */
  async subscribe(tenantId: string, topic: LiveTopic, filter: LiveFilter = EVERY): Promise<LiveStream> {
    await this.start();
    const key = keyOf(tenantId, topic);
    if (!this.subscribers.has(key)) {
      for (const source of this.sources) await source.watch?.(tenantId, topic);
    }
    let groups = this.subscribers.get(key);
    if (!groups) this.subscribers.set(key, (groups = new Map<LiveFilter, Set<Subscriber>>()));
    let set = groups.get(filter);
    if (!set) groups.set(filter, (set = new Set<Subscriber>()));
    const subscriber = new Subscriber((s) => {
      const current = this.subscribers.get(key);
      const group = current?.get(filter);
      if (!current || !group?.delete(s)) return;
      if (group.size === 0) current.delete(filter);
      if (current.size > 0) return;
      this.subscribers.delete(key);
      for (const source of this.sources) source.unwatch?.(tenantId, topic);
    });
    set.add(subscriber);
    return subscriber;
  }

  /** Open subscriptions in this process (metrics, tests: a closed client frees its listener). */
  get size(): number {
    let n = 0;
    for (const groups of this.subscribers.values()) for (const set of groups.values()) n += set.size;
    return n;
  }

  /**
   * The tenants with an open subscription to `topic` in this process; given `probes`, only those
   * with a subscriber that would be handed one of these messages (its filter accepts it).
   */
  watching(topic: LiveTopic, probes?: readonly Record<string, unknown>[]): string[] {
    const prefix = `${topic}\u0000`;
    const tenants: string[] = [];
    for (const [key, groups] of this.subscribers) {
      if (!key.startsWith(prefix)) continue;
      if (probes && ![...groups.keys()].some((filter) => probes.some((probe) => filter(probe)))) continue;
      tenants.push(key.slice(prefix.length));
    }
    return tenants;
  }

  /**
   * Calls `listener` with the tenant of every credential notice any process publishes, from the
   * first subscription on (a process without subscribers does not listen: it has no stream to end).
   */
  onCredentialNotice(listener: (tenantId: string) => void): void {
    this.noticeListeners.add(listener);
  }

  /**
   * Calls `listener` with every device notice any process publishes once listen() resolved (the
   * device channels, src/modules/devices/command-channel.ts).
   */
  onDeviceNotice(listener: (tenantId: string, data: Record<string, unknown>) => void): () => void {
    this.deviceListeners.add(listener);
    return () => void this.deviceListeners.delete(listener);
  }

  /**
   * Listens on the transport (not the sources) from now on: a process that holds a device channel
   * must hear notices even with no subscription open. Resolves once listening.
   */
  async listen(): Promise<void> {
    await this.listenTransport();
  }

  /** Hands a message to this process's subscribers of its tenant and topic (a notice to its listeners). */
  deliver(message: LiveMessage): void {
    if (message.topic === CREDENTIAL_NOTICE) {
      for (const listener of this.noticeListeners) listener(message.tenantId);
      return;
    }
    if (message.topic === DEVICE_NOTICE) {
      for (const listener of this.deviceListeners) listener(message.tenantId, message.data);
      return;
    }
    const groups = this.subscribers.get(keyOf(message.tenantId, message.topic));
    if (!groups) return;
    for (const [filter, set] of groups) {
      if (filter(message.data)) for (const subscriber of set) subscriber.push(message.data);
    }
  }

  /**
   * Sends a message to every process's subscribers. Never waits and never throws: the messages of
   * one tick go out together, batches one after another in order, and a transport failure is
   * logged (a live update is lost, nothing else).
   */
  publish(message: LiveMessage): void {
    this.outgoing.push(message);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batch = this.outgoing;
      this.outgoing = [];
      // One publish at a time: two batches on two pooled connections (NOTIFY) could commit, and
      // so arrive, in the other order.
      this.publishing = this.publishing.then(() =>
        this.transport.publish(batch).catch((error: unknown) => {
          this.log.warn({ err: error, lost: batch.length }, 'live updates could not be published');
        }),
      );
    });
  }

  /** Ends every open subscription (the server is shutting down); new ones may still open. */
  endAll(): void {
    const all = [...this.subscribers.values()].flatMap((groups) => [...groups.values()].flatMap((set) => [...set]));
    for (const subscriber of all) subscriber.end();
  }

  /** Ends every subscription and stops listening (the transport and the sources). */
  async close(): Promise<void> {
    this.endAll();
    const started = this.started;
    const listening = this.listening;
    this.started = this.listening = undefined;
    const stops = started ? await started.catch(() => []) : [];
    const stopListening = listening ? await listening.catch(() => undefined) : undefined;
    if (stopListening) stops.push(stopListening);
    await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
  }

  private listenTransport(): Promise<() => Promise<void>> {
    this.listening ??= this.transport.listen((message) => this.deliver(message));
    return this.listening;
  }

  /** Listens (transport and sources) from the first subscription on, not before: an idle process holds no listening connection. */
  private start(): Promise<unknown> {
    this.started ??= (async () => {
      await this.listenTransport();
      const stops: (() => Promise<void>)[] = [];
      for (const source of this.sources)
        stops.push(
          await source.start(
            (message) => this.deliver(message),
            (topic) => this.watching(topic),
          ),
        );
      return stops;
    })();
    return this.started;
  }
}
