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
pg.types.setTypeParser(1082, (value: string) => value);

export type DatabaseKind = 'pglite' | 'postgres';

export interface QueryCounter {
  count: number;
}

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Incremented once per SQL statement sent; tests read it to prove batching. */
  queries: QueryCounter;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** A directory, or 'memory://' for a throw-away embedded database. */
  pgliteDir?: string;
  poolSize?: number;
}

function counterLog(queries: QueryCounter) {
  return (event: LogEvent) => {
    if (event.level === 'query' || event.level === 'error') queries.count += 1;
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const queries: QueryCounter = { count: 0 };
  if (options.databaseUrl) {
    const pool = preparedStatements(new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 }));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counterLog(queries) });
    return { db, kind: 'postgres', queries, close: () => db.destroy() };
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
    const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counterLog(queries) });
    return {
      db,
      kind: 'pglite',
      queries,
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
