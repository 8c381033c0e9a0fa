import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { migrateToEmpty, migrateToLatest, pendingMigrations } from '../src/kernel/db/migrate.js';

// Every migration applies to an empty database, reverts, and applies again: down() undoes all
// that up() did. On the suite's database kind: a fresh in-memory PGlite, or a scratch PostgreSQL
// database beside the workers' (not from their template: it starts empty).
const run = inject('postgresRun');
const baseUrl = run?.adminUrl;
// Named as the run's databases, so the global teardown drops it even after a crash.
const scratchName = `${run?.prefix ?? 'portier_test'}_migrations_${process.pid}`;
let database: Database;
let admin: pg.Client | undefined;

beforeAll(async () => {
  if (baseUrl) {
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratchName}`);
    const url = new URL(baseUrl);
    url.pathname = `/${scratchName}`;
    database = await openDatabase({ databaseUrl: url.toString() });
  } else {
    database = await openDatabase({ pgliteDir: 'memory://' });
  }
});

afterAll(async () => {
  await database.close();
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${scratchName} WITH (FORCE)`);
    await admin.end();
  }
});

async function tables(): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%' order by 1`.execute(
    database.db,
  );
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  it('go up on an empty database, down to nothing, and up again to the same schema', async () => {
    expect(await tables()).toEqual([]);
    const applied = await migrateToLatest(database.db);
    expect(applied.length).toBeGreaterThan(0);
    const schema = await tables();
    expect(schema).toContain('bookings');
    expect(await pendingMigrations(database.db)).toEqual([]);

    const reverted = await migrateToEmpty(database.db);
    expect(reverted).toEqual([...applied].reverse());
    expect(await tables()).toEqual([]);

    expect(await migrateToLatest(database.db)).toEqual(applied);
    expect(await tables()).toEqual(schema);
  });
});
