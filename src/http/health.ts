import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { pendingMigrations } from '../db/migrate.js';
import { problem } from '../errors.js';

export function registerHealth(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(deps.database.db);
      const pending = await pendingMigrations(deps.database.db);
      if (pending.length) {
        return reply.status(503).type('application/problem+json').send(problem(503, 'migrations_pending', `Pending migrations: ${pending.join(', ')}`));
      }
      return { status: 'ready', database: deps.database.kind };
    } catch (error) {
      deps.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).type('application/problem+json').send(problem(503, 'database_unreachable', 'The database is not reachable'));
    }
  });
}
