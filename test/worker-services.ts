import pg from 'pg';
import { inject } from 'vitest';
import type { PostgresRun } from './global-setup.js';

// Each test worker (a Vitest fork; several run at once, docs/architecture.md "Tests") has its own
// database and its own Redis key space, so files running side by side never see each other's rows
// or counters:
// - PGlite: the harness opens an in-memory database per worker (nothing shared to begin with).
// - PostgreSQL: the global setup migrated a template database once; the first caller in a worker
//   copies it into the worker's database (`<run>_w<VITEST_POOL_ID>_<pid>`); the global teardown
//   drops every database of the run.
// - Redis: the worker's REDIS_URL carries ioredis's `keyPrefix` option, so every key the worker
//   (and any process it starts with that URL) writes starts with the run's and worker's name.

/** True on the PostgreSQL run (DATABASE_URL set), known without waiting for the database. */
export const onPostgres: boolean = inject('postgresRun') !== undefined;

/** 1..maxWorkers: which of the run's concurrent workers this is. */
function workerId(): string {
  return process.env.VITEST_POOL_ID ?? '1';
}

let runDatabase: Promise<string> | undefined;

/**
 * The URL of this worker's PostgreSQL database, created from the run's template on first use;
 * undefined on PGlite.
 */
export function runDatabaseUrl(): Promise<string | undefined> {
  const run = inject('postgresRun');
  if (!run) return Promise.resolve(undefined);
  runDatabase ??= createWorkerDatabase(run);
  return runDatabase;
}

async function createWorkerDatabase(run: PostgresRun): Promise<string> {
  // The pid as well: with `isolate: true` (the e2e project) each file is a new process that may
  // get the same pool id as the one before, which may still be closing its connections.
  const name = `${run.prefix}_w${workerId()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: run.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${run.template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(run.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * REDIS_URL for this worker (undefined when REDIS_URL is not set): the same server, with a key
 * prefix of its own (ioredis reads client options from the URL's query).
 */
export function workerRedisUrl(): string | undefined {
  const base = process.env.REDIS_URL;
  if (!base) return undefined;
  const url = new URL(base);
  url.searchParams.set('keyPrefix', `portier-test:${inject('runId')}:w${workerId()}:${process.pid}:`);
  return url.toString();
}
