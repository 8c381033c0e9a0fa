// Guessing limits (wrong SMS codes, activation codes, passwords): the public face of src/limits.
// Build the store and the limiters once at the composition root and pass them in.
export { openLimiterStore, memoryLimiterStore, type LimiterStore } from './store.js';
export { createFailureLimiter, type FailureLimiter, type FailureTier } from './failure-limiter.js';
import type { FailureLimiter } from './failure-limiter.js';
import type { LimiterStore } from './store.js';

/** The service's guessing limiters, built once per process on one store (AppDeps.limits). */
export interface GuessLimits {
  store: LimiterStore;
  /** Wrong SMS codes per door (docs/devices.md, "Guessing SMS codes"). */
  smsCodes: FailureLimiter;
  /** Unknown activation codes per client address. */
  activationCodes: FailureLimiter;
}
