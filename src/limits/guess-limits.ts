import { SMS_CODE_GUESS_TIERS } from '../modules/access/sms-guessing.js';
import { ACTIVATION_GUESS_TIERS } from '../modules/devices/activation-guessing.js';
import { createFailureLimiter, type FailureLimiter } from './failure-limiter.js';
import type { LimiterStore } from './store.js';

/** The service's guessing limiters, built once per process on one store (AppDeps.limits). */
export interface GuessLimits {
  store: LimiterStore;
  /** Wrong SMS codes per door (docs/devices.md, "Guessing SMS codes"). */
  smsCodes: FailureLimiter;
  /** Unknown activation codes per client address. */
  activationCodes: FailureLimiter;
}

export function buildGuessLimits(store: LimiterStore): GuessLimits {
  return {
    store,
    smsCodes: createFailureLimiter(store, 'sms-code', SMS_CODE_GUESS_TIERS),
    activationCodes: createFailureLimiter(store, 'activation-code', ACTIVATION_GUESS_TIERS),
  };
}
