import type { Compilable, CompiledQuery } from 'kysely';
import type { Executor } from './index.js';

interface Entry<O> {
  query: CompiledQuery<O>;
  /** For each parameter of the compiled query: the name of the value that fills it, or null (a constant). */
  slots: (string | null)[];
}

const SENTINEL = '\u0000portier-param:';

/**
 * A query of a hot path, built and compiled once and then executed with new parameter values on
 * any handle — the root or a transaction: no builder objects and no SQL compilation per request.
 * Every Portier handle — PGlite's or PostgreSQL's, root or transaction — is a PostgresDialect
 * without plugins (src/kernel/db/database.ts), so a query compiles to the same SQL on each and one
 * compilation serves them all; a handle with plugins or another dialect must not use this. `build`
 * receives placeholders for `names` and must pass each straight through as a value (a
 * parameter), which the query builders do for comparisons, inserts and `sql` template values.
 */
export function compiledOnce<K extends string, O>(
  names: readonly K[],
  build: (db: Executor, p: Record<K, never>) => Compilable<O>,
) {
  let entry: Entry<O> | undefined;
  return async (db: Executor, values: Record<K, unknown>): Promise<O[]> => {
    if (!entry) {
      const placeholders = Object.fromEntries(names.map((n) => [n, `${SENTINEL}${n}`])) as Record<K, never>;
      const query = build(db, placeholders).compile();
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SENTINEL) ? p.slice(SENTINEL.length) : null,
      );
      const missing = names.filter((n) => !slots.includes(n));
      if (missing.length) throw new Error(`compiledOnce: ${missing.join(', ')} did not become parameters`);
      entry = { query, slots };
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => (slots[i] === null ? p : values[slots[i] as K]));
    return (await db.executeQuery<O>({ ...query, parameters })).rows;
  };
}
