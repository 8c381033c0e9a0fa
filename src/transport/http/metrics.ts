import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { bearerToken } from '../../kernel/auth/principal.js';
import { unauthenticated } from '../../kernel/errors.js';
import { OTHER_OPERATION, type AccessOutcome, type Metrics } from '../../kernel/metrics.js';
import { DEVICES_BASE } from '../../modules/devices/index.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';
import { executedOperation } from '../graphql/operation-name.js';
import { METRICS_PATH, tokenMatches } from './metrics-server.js';

export { METRICS_PATH };

const ACCESS_CHECK_ROUTE = `${DEVICES_BASE}/:deviceId/access-check`;

function accessOutcome(
  status: number,
  decision: { allowed?: boolean; reason?: string } | undefined,
): [AccessOutcome, string] {
  if (status === 200 && decision)
    return decision.allowed ? ['allowed', 'ok'] : ['denied', decision.reason ?? 'unknown'];
  if (status === 429) return ['throttled', 'rate_limited'];
  return ['refused', String(status)];
}

/**
 * A GraphQL request's operation label, bounded (docs/operations.md): the name of the operation it
 * ran; only names of operations that ran for an authenticated caller are admitted to the first
 * MAX_OPERATION_NAMES, so an anonymous client cannot fill the label with names of its own.
 * `anonymous` for an unnamed operation, `other` for any other (and for a request that ran none).
 */
function operationOf(req: FastifyRequest, metrics: Metrics): string {
  const operation = executedOperation(req);
  if (!operation) return OTHER_OPERATION;
  return metrics.operationLabel(operation.name, req.principal !== null);
}

function instrument(app: FastifyInstance, metrics: Metrics): void {
  // The access decision as the handler returned it, until the response is finished.
  const decisions = new WeakMap<FastifyRequest, { allowed?: boolean; reason?: string }>();
  app.addHook('preSerialization', async (req, _reply, payload) => {
    if (req.routeOptions.url === ACCESS_CHECK_ROUTE && typeof payload === 'object' && payload !== null)
      decisions.set(req, payload);
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, never the raw URL (ids would make every request its own series).
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(
      route,
      req.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
      route === GRAPHQL_PATH ? operationOf(req, metrics) : undefined,
    );
    if (route === ACCESS_CHECK_ROUTE)
      metrics.observeAccessCheck(...accessOutcome(reply.statusCode, decisions.get(req)));
  });
}

/**
 * Prometheus metrics (docs/operations.md): every request is counted and timed when the process has
 * a registry; `GET /metrics` serves it only when METRICS_TOKEN is set (otherwise 404, like any
 * unknown route), to callers presenting that token as `Authorization: Bearer`. The scrape is never
 * rate limited (a monitoring system behind a shared address must not be refused) and is not an API
 * operation, so it stays out of the OpenAPI document.
 */
export function registerMetrics(app: FastifyInstance, deps: AppDeps): void {
  const metrics = deps.metrics;
  if (!metrics) return;
  instrument(app, metrics);
  const token = deps.env.metricsToken;
  if (!token) return;
  app.get(
    METRICS_PATH,
    { exposeHeadRoute: false, config: { auth: 'none', rateLimited: false, openapi: false } },
    async (req, reply) => {
      if (!tokenMatches(bearerToken(req.headers.authorization), token))
        throw unauthenticated('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}
