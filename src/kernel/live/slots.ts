import { DomainError } from '../errors.js';

/**
 * The cap on open subscriptions per credential (MAX_SUBSCRIPTIONS_PER_KEY), counted in this
 * process: a client that opens one subscription too many gets an error naming the limit.
 */
export class SubscriptionSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes one of `holder`'s slots; the returned function gives it back (once, however often called). */
  take(holder: string): () => void {
    const n = this.held.get(holder) ?? 0;
    if (n >= this.limit)
      throw new DomainError(
        'RATE_LIMITED',
        'too_many_subscriptions',
        `This credential already holds ${this.limit} open subscriptions, the most MAX_SUBSCRIPTIONS_PER_KEY (${this.limit}) allows; close one first`,
      );
    this.held.set(holder, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(holder) ?? 1) - 1;
      if (left > 0) this.held.set(holder, left);
      else this.held.delete(holder);
    };
  }

  /** Slots `holder` holds now. */
  heldBy(holder: string): number {
    return this.held.get(holder) ?? 0;
  }
}
