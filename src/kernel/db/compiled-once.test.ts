import { describe, expect, it } from 'vitest';
import { Kysely, DummyDriver, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import type { DB } from './types.js';
import { compiledOnce } from './compiled-once.js';

// A database handle that records what it is asked to run instead of running it.
function recordingDb() {
  const executed: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') executed.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  return { db, executed };
}

describe('compiledOnce', () => {
  it('fills each named value into its parameter and keeps constants', async () => {
    const { db, executed } = recordingDb();
    const find = compiledOnce(['keyHash', 'since'], (d, p) =>
      d
        .selectFrom('devices')
        .select('id')
        .where('key_hash', '=', p.keyHash)
        .where('status' as never, '=', 'active' as never)
        .where(sql`created_at`, '>', p.since),
    );
    await find(db, { keyHash: 'h1', since: new Date('2026-01-01T00:00:00Z') });
    await find(db, { keyHash: 'h2', since: new Date('2027-01-01T00:00:00Z') });
    expect(executed).toHaveLength(2);
    const [first, second] = executed;
    expect(first?.sql).toBe(second?.sql);
    expect(first?.parameters).toEqual(['h1', 'active', new Date('2026-01-01T00:00:00Z')]);
    expect(second?.parameters).toEqual(['h2', 'active', new Date('2027-01-01T00:00:00Z')]);
  });

  it('refuses a build that does not pass a value through as a parameter', async () => {
    const { db } = recordingDb();
    const broken = compiledOnce(['keyHash'], (d) => d.selectFrom('devices').select('id'));
    await expect(broken(db, { keyHash: 'h' })).rejects.toThrow(/keyHash did not become parameters/);
  });
});
