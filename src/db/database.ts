import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { DB } from './types.js';
import { acquireDirectoryLock, type DirectoryLock } from './lock.js';
import { preparedStatements } from './prepared.js';

// DATE columns stay 'YYYY-MM-DD' strings: pg would otherwise build a Date at local midnight,
// which shifts the day under any TZ west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type DatabaseKind = 'pglite' | 'postgres';

export interface QueryCounter {
  count: number;
}

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Incremented once per SQL statement sent; tests read it to prove batching. */
  queries: QueryCounter;
  /** The connection pool (its counters feed the metrics). */
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** A directory, or 'memory://' for a throw-away embedded database. */
  pgliteDir?: string;
  poolSize?: number;
  /**
   * Told when a pooled connection breaks, idle or checked out (PostgreSQL restarted, an
   * administrator or a proxy closed it). The pool drops that connection and opens a new one on
   * the next query; an unobserved connection error would otherwise end the process.
   */
  onConnectionError?: (error: Error) => void;
}

function counterLog(queries: QueryCounter) {
  return (event: LogEvent) => {
    if (event.level === 'query' || event.level === 'error') queries.count += 1;
  };
}

/** The default for tools and tests: the pool already replaced the connection; nothing to do. */
function ignoreBrokenConnection(): void {
  // deliberately empty: see DatabaseOptions.onConnectionError
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const queries: QueryCounter = { count: 0 };
  if (options.databaseUrl) {
    const pool = preparedStatements(new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 }));
    // A connection can break while idle in the pool or while checked out between two queries
    // (PostgreSQL's FATAL arrives with the query, the socket's ECONNRESET just after it). pg
    // emits 'error' on the client in both cases, and an unobserved one ends the process; every
    // client is observed from its first connect. The pool drops the broken client either way.
    const onBroken = options.onConnectionError ?? ignoreBrokenConnection;
    pool.on('connect', (client) => client.on('error', onBroken));
    pool.on('error', ignoreBrokenConnection); // the same error, already told through the client
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counterLog(queries) });
    return { db, kind: 'postgres', queries, pool, close: () => db.destroy() };
  }

  const dir = options.pgliteDir ?? './data';
  let lock: DirectoryLock | undefined;
  let dataDir = dir;
  if (!dir.startsWith('memory://')) {
    dataDir = resolve(dir);
    mkdirSync(dataDir, { recursive: true });
    lock = await acquireDirectoryLock(dataDir);
  }
  try {
    const pglite = await PGlite.create(dataDir.startsWith('memory://') ? undefined : `${dataDir}/pgdata`, {
      extensions: { btree_gist },
    });
    // One session, kept: named prepared statements live in PGlite's one backend, so the pool
    // never closes its client for idleness, and a client that replaces one (after an error)
    // first forgets the statements its predecessor prepared.
    const pool = preparedStatements(new pg.Pool(Object.assign(createPgConfig(pglite), { max: 1, idleTimeoutMillis: 0 })));
    pool.on('connect', (client) => void client.query('DEALLOCATE ALL').catch(ignoreBrokenConnection));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counterLog(queries) });
    return {
      db,
      kind: 'pglite',
      queries,
      pool,
      async close() {
        await db.destroy();
        await pglite.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}
