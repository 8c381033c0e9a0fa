import type { Logger } from 'pino';
import { createFailureLimiter, type FailureLimiter, type LimiterStore } from '../../kernel/limits/index.js';

// The long-lived parts of staff accounts (issue #43), built once per process by composeDeps:
// the password-reset throttle and the queue that sends reset mails off the request path.

/** A reset link's life. */
export const PASSWORD_RESET_TTL_MS = 30 * 60_000;
/** An invitation link's life. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/** Reset requests: per email (known or not, counted alike) and per client address. */
export const PASSWORD_RESET_LIMITS = {
  perEmail: [{ maxFailures: 3, windowSeconds: 15 * 60 }],
  perAddress: [{ maxFailures: 20, windowSeconds: 60 * 60 }],
} as const;

export interface StaffAccounts {
  resetsPerEmail: FailureLimiter;
  resetsPerAddress: FailureLimiter;
  /** Runs a task after the answer has gone; errors are logged, never thrown. */
  later(name: string, task: () => Promise<void>): void;
  /** Resolves when every task queued so far has finished (tests, shutdown). */
  idle(): Promise<void>;
}

export function createStaffAccounts(store: LimiterStore, log: Logger): StaffAccounts {
  const pending = new Set<Promise<void>>();
  return {
    resetsPerEmail: createFailureLimiter(store, 'password-reset-email', PASSWORD_RESET_LIMITS.perEmail),
    resetsPerAddress: createFailureLimiter(store, 'password-reset-address', PASSWORD_RESET_LIMITS.perAddress),
    later(name, task) {
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) => {
          log.error({ err: error, task: name }, 'a staff-account mail could not be sent');
        })
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
