import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { pendingMigrations } from '../../kernel/db/migrate.js';
import { isBrokenConnection } from '../../kernel/db/broken-connection.js';
import { problem } from '../../kernel/errors.js';

const PROBLEM = 'application/problem+json; charset=utf-8';

/**
 * GET /healthz: liveness — the process answers; never shed under load, so an orchestrator does not
 * restart a busy process. GET /readyz: readiness — the database answers and no migration is
 * pending; it answers 503 under load and from the first moment of a shutdown (the drain's flag),
 * taking the process out of rotation.
 * Neither is ever rate limited (nor counted): behind a proxy without TRUST_PROXY every client
 * shares one address, and a probe answered 429 would get a healthy process restarted.
 */
export function registerHealth(
  app: FastifyInstance,
  deps: AppDeps,
  drain: { readonly draining: boolean; readonly inFlight?: number },
): void {
  app.get('/healthz', {
    config: {
      auth: 'none',
      shed: false,
      rateLimited: false,
      openapi: {
        operationId: 'getHealth',
        summary: 'Liveness: the process is up',
        tags: ['operations'],
        responses: {
          200: {
            description: 'Alive.',
            schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] },
          },
        },
      },
    },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    config: {
      auth: 'none',
      rateLimited: false,
      openapi: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers and every migration is applied',
        tags: ['operations'],
        responses: {
          200: {
            description: 'Ready.',
            schema: {
              type: 'object',
              properties: { status: { const: 'ready' }, database: { enum: ['pglite', 'postgres'] } },
              required: ['status', 'database'],
            },
          },
          503: {
            description:
              'Not ready (database_unreachable, migrations_pending, shutting_down, pool_exhausted, requests_queued) or overloaded.',
            contentType: 'application/problem+json',
            schema: { $ref: '#/components/schemas/Problem' },
          },
        },
      },
    },
    handler: async (_req, reply) => {
      if (drain.draining)
        return reply
          .status(503)
          .type(PROBLEM)
          .send(problem(503, 'shutting_down', 'The server is shutting down'));
      const saturated = saturation(deps, drain.inFlight ?? 0);
      if (saturated)
        return reply
          .status(503)
          .type(PROBLEM)
          .send(problem(503, saturated.code, saturated.detail));
      try {
        await databaseAnswers(deps);
        const pending = await pendingMigrations(deps.database.db);
        if (pending.length) {
          return await reply
            .status(503)
            .type(PROBLEM)
            .send(problem(503, 'migrations_pending', `Pending migrations: ${pending.join(', ')}`));
        }
        return { status: 'ready', database: deps.database.kind };
      } catch (error) {
        deps.log.warn({ err: error }, 'readiness check failed');
        return reply
          .status(503)
          .type(PROBLEM)
          .send(problem(503, 'database_unreachable', 'The database is not reachable'));
      }
    },
  });
}

/**
 * Readiness under saturation, decided from counters without a statement (a `select 1` would only
 * queue behind the waiters it is meant to detect): every main-pool connection checked out and more
 * than READINESS_MAX_POOL_WAITING checkouts waiting, or more than READINESS_MAX_REQUESTS_IN_FLIGHT
 * requests in progress. Taken out of rotation, the process gets no new clients until it catches up;
 * the device routes keep their own connections either way (docs/operations.md#the-doors-bulkhead).
 */
function saturation(deps: AppDeps, inFlight: number): { code: string; detail: string } | undefined {
  const pool = deps.database.pool;
  const max = pool.options.max;
  const waiting = pool.waitingCount;
  const busy = pool.totalCount - pool.idleCount;
  if (busy >= max && waiting > deps.env.readinessMaxPoolWaiting)
    return {
      code: 'pool_exhausted',
      detail: `Every database connection is busy (${String(busy)} of ${String(max)}) and ${String(waiting)} requests wait for one`,
    };
  const bound = deps.env.readinessMaxRequestsInFlight;
  // The probe itself is one of the requests in flight.
  if (bound > 0 && inFlight - 1 > bound)
    return {
      code: 'requests_queued',
      detail: `${String(inFlight - 1)} requests are in progress (bound ${String(bound)})`,
    };
  return undefined;
}

/** How often readiness tries `select 1` when the connections it gets turn out broken. */
const READINESS_ATTEMPTS = 10;

/**
 * `select 1`, tried again on a fresh connection when the pooled one had broken: when PostgreSQL
 * ends idle connections, the pool learns of each a moment later, and a probe that takes one in
 * between must not take a healthy process out of rotation. A database that is really gone fails
 * every try.
 */
async function databaseAnswers(deps: AppDeps): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sql`select 1`.execute(deps.database.db);
      return;
    } catch (error) {
      // Each broken idle connection can be handed out once before the pool drops it: on a busy
      // machine the pool may learn of them only one by one, so try up to READINESS_ATTEMPTS
      // (≤ ~200 ms in all) before calling the database unreachable.
      if (attempt >= READINESS_ATTEMPTS || !isBrokenConnection(error)) throw error;
      deps.log.info({ err: error, attempt }, 'readiness: a pooled connection had broken; trying a fresh one');
      // Let the pool take in the other broken connections' errors before the next checkout.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
