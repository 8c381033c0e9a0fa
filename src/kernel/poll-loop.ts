// A background poll: run a pass, wait `intervalMs` after it ends, run the next, until stop(). The
// refund worker (src/modules/payments/refund-outbox.ts) and the notification sender
// (src/modules/notifications/sender.ts) poll so. A pass that throws is reported to onError and the
// loop goes on; passes never overlap. stop() ends the polling and waits for the pass in progress —
// work a pass started and left running (sends, refunds in flight) is the caller's to wait for.

export interface PollLoopOptions {
  /** One pass. The next is scheduled when its promise settles. */
  pass: () => Promise<unknown>;
  intervalMs: number;
  /** A pass that failed (the loop goes on). */
  onError: (error: unknown) => void;
  /**
   * Makes the first timer (the loop's later timers inherit its async context), e.g. tracing's
   * detached(), so passes are not traced under whichever request started the loop. Default: as is.
   */
  schedule?: (makeTimer: () => NodeJS.Timeout) => NodeJS.Timeout;
}

export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private active = false;

  constructor(private readonly options: PollLoopOptions) {}

  get running(): boolean {
    return this.active;
  }

  /** Starts polling (the first pass on the next turn of the event loop); a second start() does nothing. */
  start(): void {
    if (this.active) return;
    this.active = true;
    const loop = async () => {
      if (!this.active) return;
      this.ticking = this.options.pass().then(
        () => undefined,
        (error: unknown) => this.options.onError(error),
      );
      await this.ticking;
      if (this.active) this.timer = setTimeout(loop, this.options.intervalMs);
    };
    const first = () => setTimeout(loop, 0);
    this.timer = this.options.schedule ? this.options.schedule(first) : first();
  }

  /** Stops polling and waits for the pass in progress, if any. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await this.ticking;
  }
}
