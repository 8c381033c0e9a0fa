import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/kernel/db/database.js';
import { migrateToEmpty, migrateToLatest, pendingMigrations } from '../src/kernel/db/migrate.js';
import { openScratchDatabase, type ScratchDatabase } from './scratch-database.js';

// Every migration applies to an empty database, reverts, and applies again: down() undoes all
// that up() did. On the suite's database kind: a fresh in-memory PGlite, or a scratch PostgreSQL
// database beside the workers' (not from their template: it starts empty).
let scratch: ScratchDatabase;
let database: Database;

beforeAll(async () => {
  scratch = await openScratchDatabase('migrations');
  database = scratch.database;
});

afterAll(() => scratch.close());

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
