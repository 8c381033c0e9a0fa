/**
 * Counts failures per key (a client IP, a device) in a sliding window and tells how long a key
 * must wait once it reached the maximum. In memory, per process: with N processes an attacker gets
 * at most N times the budget, which still makes guessing hopeless; the limits are documented in
 * docs/devices.md. Time comes from the caller (deps.now()), so tests move it.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures: number,
    readonly windowMs: number,
    /** Bounds memory under a spray of keys; the least recently failed keys are dropped first. */
    readonly maxKeys = 10_000,
  ) {}

  /** Whole seconds until `key` may try again; 0 when it is not blocked. */
  retryAfterSeconds(key: string, now: Date): number {
    const recent = this.recent(key, now.getTime());
    if (recent.length < this.maxFailures) return 0;
    const unblockAt = recent[recent.length - this.maxFailures] + this.windowMs;
    return Math.max(1, Math.ceil((unblockAt - now.getTime()) / 1000));
  }

  recordFailure(key: string, now: Date): void {
    const at = now.getTime();
    const recent = this.recent(key, at);
    recent.push(at);
    // Re-insert so Map order is least recently failed first.
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.maxFailures));
    if (this.failures.size > this.maxKeys) this.sweep(at);
  }

  private recent(key: string, at: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > at - this.windowMs && t <= at);
  }

  private sweep(at: number): void {
    for (const [key, times] of this.failures) {
      if (times.every((t) => t <= at - this.windowMs)) this.failures.delete(key);
    }
    for (const key of this.failures.keys()) {
      if (this.failures.size <= this.maxKeys) break;
      this.failures.delete(key);
    }
  }
}
