import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest, pendingMigrations } from '../src/kernel/db/migrate.js';

// A rolling deploy: an older process restarting after a newer one migrated runs on that schema;
// a database with an unknown migration among the known ones is still refused.

describe('migrateToLatest', () => {
  it(
    'starts an older version on a schema a newer one migrated, and refuses an unknown migration in between',
    { timeout: 120_000 },
    async () => {
      const database = await openDatabase({ pgliteDir: 'memory://' });
      try {
        expect((await migrateToLatest(database.db)).length).toBeGreaterThan(0);
        await sql`insert into kysely_migration (name, timestamp) values ('999912310000_from_a_newer_version', now())`.execute(
          database.db,
        );
        const warnings: object[] = [];
        expect(await migrateToLatest(database.db, { warn: (details) => void warnings.push(details) })).toEqual([]);
        expect(warnings).toEqual([{ newer: ['999912310000_from_a_newer_version'] }]);
        expect(await pendingMigrations(database.db)).toEqual([]);

        await sql`insert into kysely_migration (name, timestamp) values ('000001010000_unknown_old', now())`.execute(
          database.db,
        );
        await expect(migrateToLatest(database.db)).rejects.toThrow(/corrupted migrations/);
      } finally {
        await database.close();
      }
    },
  );
});
