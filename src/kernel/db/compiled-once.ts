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
    entry ??= compileWithSlots(db, names, build);
    return run(db, entry, values);
  };
}

/**
 * compiledOnce for a statement whose text depends on its input (which filters are given): one
 * compilation per `shape`, a string the caller derives from what changes the text. `values` are
 * the parameters of that shape; `build` must pass each straight through, as for compiledOnce (a
 * value it transforms — lower-cases, wraps in a pattern — is reported at the first compilation).
 * At most `limit` shapes are kept; past it, the statement is compiled each time.
 */
export function compiledPerShape<O>(limit = 64) {
  const entries = new Map<string, Entry<O>>();
  return async <K extends string>(
    db: Executor,
    shape: string,
    values: Record<K, unknown>,
    build: (db: Executor, p: Record<K, never>) => Compilable<O>,
  ): Promise<O[]> => {
    let entry = entries.get(shape);
    if (!entry) {
      entry = compileWithSlots(db, Object.keys(values) as K[], build);
      if (entries.size < limit) entries.set(shape, entry);
    }
    return run(db, entry, values);
  };
}

function compileWithSlots<K extends string, O>(
  db: Executor,
  names: readonly K[],
  build: (db: Executor, p: Record<K, never>) => Compilable<O>,
): Entry<O> {
  const placeholders = Object.fromEntries(names.map((n) => [n, `${SENTINEL}${n}`])) as Record<K, never>;
  const query = build(db, placeholders).compile();
  const slots = query.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(SENTINEL) ? p.slice(SENTINEL.length) : null,
  );
  const missing = names.filter((n) => !slots.includes(n));
  if (missing.length) throw new Error(`compiledOnce: ${missing.join(', ')} did not become parameters`);
  return { query, slots };
}

async function run<O>(db: Executor, { query, slots }: Entry<O>, values: Record<string, unknown>): Promise<O[]> {
  const parameters = query.parameters.map((p, i) => {
    const slot = slots[i];
    return slot === null || slot === undefined ? p : values[slot];
  });
  return (await db.executeQuery<O>({ ...query, parameters })).rows;
}
