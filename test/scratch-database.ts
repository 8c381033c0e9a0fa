import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/kernel/db/database.js';

export interface ScratchDatabase {
  database: Database;
  /** Closes it, and on PostgreSQL drops it. */
  close(): Promise<void>;
}

/**
 * An empty database of the suite's kind, not from the workers' migrated template: a fresh
 * in-memory PGlite, or a scratch PostgreSQL database beside the workers' — named as the run's
 * databases (`label` tells the test), so the global teardown drops it even after a crash.
 */
export async function openScratchDatabase(label: string): Promise<ScratchDatabase> {
  const run = inject('postgresRun');
  if (!run?.adminUrl) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    return { database, close: () => database.close() };
  }
  const name = `${run.prefix}_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: run.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(run.adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    database,
    async close() {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
