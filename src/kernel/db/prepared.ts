import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statements with more parameters than this (batch IN-lists, bulk inserts) are not prepared. */
const MAX_PREPARED_PARAMETERS = 16;

const preparable = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Ends a statement that is planned each time it runs, never prepared: one over a table that goes
 * from empty to busy in seconds (the webhook queue). A prepared statement's generic plan, made once
 * the statement has run five times, keeps the row counts of that moment: made while the queue was
 * empty, it scanned the whole queue once per candidate delivery when 500 came at once (the claim
 * took 90–240 ms instead of ~8; docs/performance.md, round seven).
 */
export const PLANNED_EACH_TIME = '/* planned each time */';

function statementName(text: string): string {
  return `k_${createHash('sha1').update(text).digest('base64url')}`;
}

/**
 * Runs Kysely's parameterised statements as named prepared statements: each connection parses a
 * statement once, and PostgreSQL reuses its plan instead of planning every request (for the
 * access check and the listings, planning cost more than executing). The set of names is bounded:
 * statements come from the code's query builders, and ones with many parameters (whose text varies
 * with a list's length) are sent unnamed, as are those ending with PLANNED_EACH_TIME.
 *
 * A schema change under a running process can make a prepared SELECT * fail once with "cached plan
 * must not change result type": deploy migrations before the processes that use them.
 */
export function preparedStatements(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  pool.on('connect', (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
      text: unknown,
      values?: unknown,
      ...rest: unknown[]
    ) => {
      if (
        typeof text === 'string' &&
        Array.isArray(values) &&
        values.length > 0 &&
        values.length <= MAX_PREPARED_PARAMETERS &&
        preparable.test(text) &&
        !text.endsWith(PLANNED_EACH_TIME)
      ) {
        let name = names.get(text);
        if (!name) {
          name = statementName(text);
          if (names.size < 10_000) names.set(text, name);
        }
        return query({ name, text, values }, ...rest);
      }
      return query(text, values, ...rest);
    };
  });
  return pool;
}
