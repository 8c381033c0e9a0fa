// Guessing limits (wrong SMS codes, activation codes, passwords): the public face of src/limits.
// Build the store and the limiters once at the composition root and pass them in.
export { openLimiterStore, memoryLimiterStore, type LimiterStore } from './store.js';
export { createFailureLimiter, type FailureLimiter, type FailureTier } from './failure-limiter.js';
export { buildGuessLimits, type GuessLimits } from './guess-limits.js';
