import { SMS_CODE_GUESS_TIERS } from '../modules/access/index.js';
import { ACTIVATION_GUESS_TIERS } from '../modules/devices/index.js';
import { createFailureLimiter, type GuessLimits } from '../kernel/limits/index.js';
import type { LimiterStore } from '../kernel/limits/index.js';

export type { GuessLimits } from '../kernel/limits/index.js';

export function buildGuessLimits(store: LimiterStore): GuessLimits {
  return {
    store,
    smsCodes: createFailureLimiter(store, 'sms-code', SMS_CODE_GUESS_TIERS),
    activationCodes: createFailureLimiter(store, 'activation-code', ACTIVATION_GUESS_TIERS),
  };
}
