import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';

/** A PostgreSQL run's databases (test/worker-services.ts makes each worker's). */
export interface PostgresRun {
  /** DATABASE_URL as given: used to create and drop the run's databases. */
  adminUrl: string;
  /** The run's migrated template database. */
  template: string;
  /** The run's name: every database of the run starts with it. */
  prefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set when DATABASE_URL names a PostgreSQL server; undefined on PGlite. */
    postgresRun: PostgresRun | undefined;
    /** Unique per run: the start of every Redis key prefix of the run. */
    runId: string;
  }
}

/**
 * Once per run (and project). On PostgreSQL: a template database, migrated here once, that each
 * worker copies into a database of its own (test/worker-services.ts); afterwards every database
 * of the run is dropped. On PGlite there is nothing to share: each worker opens its own.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid.toString(36)}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  project.provide('runId', runId);
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide('postgresRun', undefined);
    return;
  }
  const prefix = `portier_test_${runId}`;
  const template = `${prefix}_template`;
  const dropAll = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [`${prefix}_`],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${template}`);
  } finally {
    await admin.end();
  }
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    // No connection may stay open on a template while it is copied: closed before any worker starts.
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await dropAll();
    throw error;
  }
  project.provide('postgresRun', { adminUrl, template, prefix });
  return dropAll;
}
