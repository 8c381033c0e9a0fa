import { describe, expect, it } from 'vitest';
import { Kysely, DummyDriver, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import type { DB } from './types.js';
import { compiledOnce, compiledPerShape } from './compiled-once.js';

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

describe('compiledPerShape', () => {
  type Parameter = 'tenantId' | 'name' | 'limit';
  const statement = (d: ReturnType<typeof recordingDb>['db'], p: Record<Parameter, never>) => {
    let q = d.selectFrom('devices').select('id').where('tenant_id', '=', p.tenantId);
    if ('name' in p) q = q.where('name', '=', p.name);
    return q.limit(p.limit);
  };

  it('compiles once per shape and fills each shape’s own parameters', async () => {
    const { db, executed } = recordingDb();
    const read = compiledPerShape<{ id: string }>();
    const builds: string[] = [];
    const run = (shape: string, values: Record<string, unknown>) =>
      read(db, shape, values, (d, p) => {
        builds.push(shape);
        return statement(d, p);
      });
    await run('plain', { tenantId: 't1', limit: 10 });
    await run('status', { tenantId: 't1', name: 'ACTIVE', limit: 5 });
    await run('plain', { tenantId: 't2', limit: 20 });
    await run('status', { tenantId: 't3', name: 'REVOKED', limit: 1 });
    expect(builds).toEqual(['plain', 'status']);
    expect(executed.map((e) => e.parameters)).toEqual([
      ['t1', 10],
      ['t1', 'ACTIVE', 5],
      ['t2', 20],
      ['t3', 'REVOKED', 1],
    ]);
    expect(executed[0]?.sql).toBe(executed[2]?.sql);
    expect(executed[1]?.sql).toBe(executed[3]?.sql);
    expect(executed[0]?.sql).not.toBe(executed[1]?.sql);
  });

  it('past its limit of shapes it compiles each time, and still answers', async () => {
    const { db, executed } = recordingDb();
    const read = compiledPerShape<{ id: string }>(1);
    let builds = 0;
    const run = (shape: string, values: Record<string, unknown>) =>
      read(db, shape, values, (d, p) => {
        builds += 1;
        return statement(d, p);
      });
    await run('plain', { tenantId: 't1', limit: 1 });
    await run('status', { tenantId: 't1', name: 'ACTIVE', limit: 1 });
    await run('status', { tenantId: 't2', name: 'ACTIVE', limit: 2 });
    await run('plain', { tenantId: 't3', limit: 3 });
    expect(builds).toBe(3);
    expect(executed.map((e) => e.parameters[0])).toEqual(['t1', 't1', 't2', 't3']);
  });

  it('refuses a build that transforms a value instead of passing it through', async () => {
    const { db } = recordingDb();
    const read = compiledPerShape<{ id: string }>();
    await expect(
      read(db, 'pattern', { name: 'Court' }, (d, p) =>
        d
          .selectFrom('devices')
          .select('id')
          .where('name', 'like', `%${String(p.name)}%`),
      ),
    ).rejects.toThrow(/name did not become parameters/);
  });
});
