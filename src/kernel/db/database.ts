import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { DB } from './types.js';
import { acquireDirectoryLock, type DirectoryLock } from './lock.js';
import { preparedStatements } from './prepared.js';
import { descriptorLimit, pgliteMaxFiles } from '../descriptors.js';
import type { Tracer } from '../tracing.js';
import { traceQuery } from './query-spans.js';

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
  /** Incremented once per SQL statement sent (unless opened with countQueries: false); tests read it to prove batching. */
  queries: QueryCounter;
  /** The connection pool (its counters feed the metrics). */
  pool: pg.Pool;
  /**
   * The door's bulkhead (docs/operations.md#the-doors-bulkhead): the handle device routes use, so no
   * slow dependency or long transaction of another route can take the connections a door needs.
   * PostgreSQL: a pool of its own (DATABASE_DEVICE_POOL_SIZE, each connection with
   * statement_timeout DATABASE_DEVICE_STATEMENT_TIMEOUT_MS). PGlite has one connection: the device
   * handle's checkouts go ahead of every other waiter, but a transaction that holds the connection
   * is still waited for, and no statement timeout applies.
   */
  device: {
    db: Kysely<DB>;
    /** Its pool (on PGlite the shared one); its counters feed the metrics on PostgreSQL. */
    pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount' | 'options'>;
    statementTimeoutMs: number;
  };
  /**
   * Calls `onNotify` for each NOTIFY on `channel` that commits, from any connection — on PostgreSQL
   * from any process, through a connection of its own (not the pool's); and once more whenever a
   * lost listening connection is back, since notifications sent meanwhile were missed. It never
   * throws: while it cannot listen it retries (the caller keeps a slower poll). Resolves to a
   * function that stops listening. `payload` is the NOTIFY's payload (absent on the call after a
   * reconnection).
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** DATABASE_POOL_IDLE_SECONDS' default, 300 s (docs/deployment.md#connections). */
export const DEFAULT_POOL_IDLE_MS = 300_000;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** A directory, or 'memory://' for a throw-away embedded database. */
  pgliteDir?: string;
  poolSize?: number;
  /**
   * How long a PostgreSQL connection may sit unused in the pool before it is closed (ms; 0: never).
   * Short timeouts cost the door's tail: a burst after a quiet spell then waits on new backends,
   * which start with cold caches and re-prepare every statement.
   */
  poolIdleMs?: number;
  /**
   * Told when a pooled connection breaks, idle or checked out (PostgreSQL restarted, an
   * administrator or a proxy closed it). The pool drops that connection and opens a new one on
   * the next query; an unobserved connection error would otherwise end the process.
   */
  onConnectionError?: (error: Error) => void;
  /** DATABASE_DEVICE_POOL_SIZE: the device pool's connections on PostgreSQL (default 4). */
  devicePoolSize?: number;
  /** DATABASE_DEVICE_STATEMENT_TIMEOUT_MS: statement_timeout of the device pool's connections (default 2000; 0: none). */
  deviceStatementTimeoutMs?: number;
  /** Traces each statement Kysely runs inside a span (docs/operations.md#traces); absent, nothing is traced. */
  tracer?: Tracer;
  /**
   * Whether `queries` counts the statements (default true: the tests read it). The server passes
   * false: Kysely then runs without its log hook, which wraps every statement in one more async
   * function and two clock reads (docs/performance.md, round thirteen). A tracer needs the hook,
   * and counts as well.
   */
  countQueries?: boolean;
}

function counterLog(queries: QueryCounter, kind: DatabaseKind, tracer: Tracer | undefined, count = true) {
  // Kysely calls its log in the async context of the query, after it ran: the span is made then,
  // back-dated to the query's start, as a child of whatever span was active when it was sent.
  if (tracer)
    return (event: LogEvent) => {
      queries.count += 1;
      traceQuery(tracer, kind, event);
    };
  if (!count) return undefined;
  return (event: LogEvent) => {
    if (event.level === 'query' || event.level === 'error') queries.count += 1;
  };
}

/** The default for tools and tests: the pool already replaced the connection; nothing to do. */
function ignoreBrokenConnection(): void {
  // deliberately empty: see DatabaseOptions.onConnectionError
}

function listenStatement(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  return `LISTEN ${channel}`;
}

const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * LISTEN on a dedicated PostgreSQL connection (a pooled one would be handed to queries and could
 * be closed while idle). A broken connection is replaced, with a growing pause between tries, and
 * `onNotify` is called once it listens again.
 */
async function listenPostgres(
  connectionString: string,
  channel: string,
  onNotify: (payload?: string) => void,
  onBroken: (error: Error) => void,
): Promise<() => Promise<void>> {
  const statement = listenStatement(channel);
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = LISTEN_RETRY_MS.first;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    c.end().catch(ignoreBrokenConnection);
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      void connect().then((ok) => {
        if (ok) onNotify();
      });
    }, pause);
    retry.unref();
    pause = Math.min(pause * 2, LISTEN_RETRY_MS.max);
  };
  const connect = async (): Promise<boolean> => {
    // A connect that hangs (a network partition) gives up and is retried like a refused one.
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
    c.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    c.on('error', (error) => {
      onBroken(error);
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(statement);
    } catch (error) {
      onBroken(error as Error);
      c.end().catch(ignoreBrokenConnection);
      schedule();
      return false;
    }
    if (stopped) {
      await c.end().catch(ignoreBrokenConnection);
      return false;
    }
    client = c;
    pause = LISTEN_RETRY_MS.first;
    return true;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(ignoreBrokenConnection);
  };
}

/** The door's defaults (docs/configuration.md): a door gives up after 5 s, so a statement must fail well before. */
export const DEFAULT_DEVICE_POOL_SIZE = 4;
export const DEFAULT_DEVICE_STATEMENT_TIMEOUT_MS = 2_000;

interface PendingQueue {
  _pendingQueue: unknown[];
}

/**
 * PGlite's bulkhead: one connection, so the device handle cannot have its own; its checkouts are
 * put ahead of every queued non-device checkout (in their own arrival order), so a door waits for
 * at most the statement or transaction running now, not for the queue behind it.
 */
function priorityCheckouts(pool: pg.Pool): pg.Pool {
  const priority = new WeakSet();
  const queue = (pool as unknown as PendingQueue)._pendingQueue;
  const connect = (): Promise<pg.PoolClient> => {
    const before = queue.length;
    const checkout = pool.connect();
    if (queue.length === before + 1) {
      const item = queue.pop() as object;
      priority.add(item);
      let at = 0;
      while (at < queue.length && priority.has(queue[at] as object)) at += 1;
      queue.splice(at, 0, item);
    }
    return checkout;
  };
  // Kysely ends the pool it was given on destroy: the shared pool is ended by the main handle.
  return Object.assign(Object.create(pool) as pg.Pool, { connect, end: async () => undefined });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const queries: QueryCounter = { count: 0 };
  if (options.databaseUrl) {
    const pool = preparedStatements(
      new pg.Pool({
        connectionString: options.databaseUrl,
        max: options.poolSize ?? 10,
        idleTimeoutMillis: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS,
      }),
    );
    // A connection can break while idle in the pool or while checked out between two queries
    // (PostgreSQL's FATAL arrives with the query, the socket's ECONNRESET just after it). pg
    // emits 'error' on the client in both cases, and an unobserved one ends the process; every
    // client is observed from its first connect. The pool drops the broken client either way.
    const onBroken = options.onConnectionError ?? ignoreBrokenConnection;
    pool.on('connect', (client) => {
      client.on('error', onBroken);
      // No JIT compilation: Portier's statements are short, and a set-returning function's default
      // estimate (1,000 rows a call) made the reports' plans look costly enough to compile — about
      // 0.7 s of LLVM for a 0.2 s query (docs/reports.md, "Speed"). Queued before any query, as below.
      void client.query('SET jit = off').catch(ignoreBrokenConnection);
    });
    pool.on('error', ignoreBrokenConnection); // the same error, already told through the client
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: counterLog(queries, 'postgres', options.tracer, options.countQueries),
    });
    const statementTimeoutMs = options.deviceStatementTimeoutMs ?? DEFAULT_DEVICE_STATEMENT_TIMEOUT_MS;
    const devicePool = preparedStatements(
      new pg.Pool({
        connectionString: options.databaseUrl,
        max: options.devicePoolSize ?? DEFAULT_DEVICE_POOL_SIZE,
        idleTimeoutMillis: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS,
        // A device route waits as long for a connection of its own pool as for a statement (0: no bound).
        connectionTimeoutMillis: statementTimeoutMs,
      }),
    );
    devicePool.on('connect', (client) => {
      client.on('error', onBroken);
      // Queued on the new client before any query it is handed for, so no statement of a door runs
      // without it. A SET rather than the startup parameter `options`, which PgBouncer refuses.
      void client.query('SET jit = off').catch(ignoreBrokenConnection);
      if (statementTimeoutMs > 0)
        void client.query(`SET statement_timeout = ${String(statementTimeoutMs)}`).catch(ignoreBrokenConnection);
    });
    devicePool.on('error', ignoreBrokenConnection);
    const deviceDb = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: devicePool }),
      log: counterLog(queries, 'postgres', options.tracer, options.countQueries),
    });
    const databaseUrl = options.databaseUrl;
    return {
      db,
      kind: 'postgres',
      queries,
      pool,
      device: { db: deviceDb, pool: devicePool, statementTimeoutMs },
      listen: (channel, onNotify) => listenPostgres(databaseUrl, channel, onNotify, onBroken),
      close: async () => {
        try {
          await deviceDb.destroy();
        } finally {
          await db.destroy();
        }
      },
    };
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
      extensions: { btree_gin, btree_gist, pg_trgm },
      startParams: [
        ...PGlite.defaultStartParams,
        '-c',
        `max_files_per_process=${String(pgliteMaxFiles(descriptorLimit()))}`,
      ],
    });
    // One session, kept: named prepared statements live in PGlite's one backend, so the pool
    // never closes its client for idleness, and a client that replaces one (after an error)
    // first forgets the statements its predecessor prepared.
    const pool = preparedStatements(
      new pg.Pool(Object.assign(createPgConfig(pglite), { max: 1, idleTimeoutMillis: 0 })),
    );
    pool.on('connect', (client) => void client.query('DEALLOCATE ALL').catch(ignoreBrokenConnection));
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: counterLog(queries, 'pglite', options.tracer, options.countQueries),
    });
    const deviceDb = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: priorityCheckouts(pool) }),
      log: counterLog(queries, 'pglite', options.tracer, options.countQueries),
    });
    return {
      db,
      kind: 'pglite',
      queries,
      pool,
      device: { db: deviceDb, pool, statementTimeoutMs: 0 },
      // One backend: LISTEN through the pool (so it never lands inside another client's
      // transaction) and PGlite hands every notification it delivers at commit to onNotification.
      async listen(channel, onNotify) {
        const statement = listenStatement(channel);
        const off = pglite.onNotification((name, payload) => {
          if (name === channel) onNotify(payload);
        });
        // Unable to listen (the database is closing): the caller's poll still runs.
        await pool.query(statement).catch(ignoreBrokenConnection);
        return async () => {
          off();
          await pool.query(`UN${statement}`).catch(ignoreBrokenConnection);
        };
      },
      async close() {
        await deviceDb.destroy();
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
