import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { runDatabaseUrl } from './worker-services.js';

// The statement counter the tests read (Database.queries) is Kysely's log hook; the server opens its
// database with countQueries: false and runs without the hook (docs/performance.md, round thirteen).

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function open(countQueries?: boolean): Promise<Database> {
  const databaseUrl = await runDatabaseUrl();
  const database = await openDatabase(
    databaseUrl ? { databaseUrl, poolSize: 1, countQueries } : { pgliteDir: 'memory://', countQueries },
  );
  opened.push(database);
  return database;
}

describe('Database.queries', () => {
  it.each([
    [undefined, 2],
    [true, 2],
    [false, 0],
  ])('countQueries %s: two statements count %i', async (countQueries, expected) => {
    const database = await open(countQueries);
    await sql`SELECT 1`.execute(database.db);
    await sql`SELECT 2`.execute(database.db);
    expect(database.queries.count).toBe(expected);
  });
});
