import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import type { Env } from './env.js';
import type { ServerSecret } from './crypto.js';
import type { GuessLimits } from './limits/index.js';

/** What the composition root hands to every entry point: no module reads globals. */
export interface AppDeps {
  database: Database;
  env: Env;
  secret: ServerSecret;
  log: Logger;
  /** Guessing limiters (SMS codes, activation codes), shared through Redis when REDIS_URL is set. */
  limits: GuessLimits;
  /** The current time; tests inject their own clock. */
  now: () => Date;
}
