import type { FailureTier } from '../../kernel/limits/index.js';

/** Unknown activation codes per client address: 5 in 15 minutes, then 429 until the window ends. */
export const ACTIVATION_GUESS_TIERS: readonly FailureTier[] = [{ maxFailures: 5, windowSeconds: 15 * 60 }];
