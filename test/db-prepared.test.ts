import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { PLANNED_EACH_TIME } from '../src/kernel/db/prepared.js';
import { claimDue } from '../src/modules/notifications/notifications.repository.js';

// Statements run as named prepared statements (their plans cached per connection), except those
// ending with PLANNED_EACH_TIME, which are planned each time (the webhook queue's).

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe('prepared statements', () => {
  it('prepares a parameterised statement once per connection, and never one marked as planned each time', async () => {
    const marker = `prepared_${Date.now()}`;
    const prepared = await h.deps.database.db.transaction().execute(async (trx) => {
      await sql`SELECT ${1}::int AS ${sql.ref(marker)}`.execute(trx);
      await sql`SELECT ${2}::int AS ${sql.ref(`${marker}_each`)} ${sql.raw(PLANNED_EACH_TIME)}`.execute(trx);
      const rows = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(trx);
      return rows.rows.map((r) => r.statement).filter((s) => s.includes(marker));
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]).toContain(`"${marker}"`);
    expect(prepared[0]).not.toContain(PLANNED_EACH_TIME);
  });
});

describe('queue claims', () => {
  it('plans the notification claim each time: a generic plan made on an empty queue would scan it per row under a burst', async () => {
    const now = new Date();
    const prepared = await h.deps.database.db.transaction().execute(async (trx) => {
      await claimDue(trx, now, new Date(now.getTime() + 60_000), 5);
      const rows = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(trx);
      return rows.rows.map((r) => r.statement).filter((s) => s.includes('UPDATE notifications n SET next_attempt_at'));
    });
    expect(prepared).toEqual([]);
  });
});
