import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import type { Env } from './env.js';
import type { ServerSecret } from './crypto.js';
import type { Metrics } from './metrics/metrics.js';

/** What the composition root hands to every entry point: no module reads globals. */
export interface AppDeps {
  database: Database;
  env: Env;
  secret: ServerSecret;
  log: Logger;
  /** The current time; tests inject their own clock. */
  now: () => Date;
  /** The process's Prometheus registry (built once by the runtime); absent, nothing is measured. */
  metrics?: Metrics;
}
