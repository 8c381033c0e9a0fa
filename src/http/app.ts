import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { buildSchema } from '../graphql/schema.js';
import { createGraphQLServer, GRAPHQL_PATH, REST_BASE, type Yoga } from '../graphql/yoga.js';
import { REST_ROUTES } from '../rest/routes.js';
import { restParamCheck } from '../rest/params.js';
import { registerAuth } from './auth.js';
import { registerErrorHandling } from './errors.js';
import { registerHealth } from './health.js';
import { registerPricingRoutes } from '../modules/pricing/pricing.routes.js';
import { registerPaymentPage } from '../modules/bookings/pay.route.js';
import { registerDeviceRoutes } from '../modules/devices/devices.routes.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface App {
  fastify: FastifyInstance;
  yoga: Yoga;
  /** Every route registered, as method + URL (HEAD included); the route-table test reads it. */
  routes: { method: string; url: string }[];
}

/**
 * Hands a request fastify has parsed to yoga (GraphQL, or SOFA for the bridged REST routes). The
 * body is passed on as JSON text, because SOFA reads the raw body.
 */
async function forward(yoga: Yoga, req: FastifyRequest, reply: FastifyReply) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.body !== undefined && req.body !== null && req.method !== 'GET' && req.method !== 'HEAD';
  const response = await yoga.fetch(
    `http://${req.hostname || 'localhost'}${req.url}`,
    { method: req.method, headers, body: hasBody ? (typeof req.body === 'string' ? req.body : JSON.stringify(req.body)) : undefined },
    { req, reply },
  );
  response.headers.forEach((value, key) => {
    if (key !== 'content-length') reply.header(key, value);
  });
  reply.status(response.status);
  return reply.send(await response.text());
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const fastify = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
  });
  const routes: App['routes'] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  registerErrorHandling(fastify, deps);
  registerAuth(fastify, deps);
  registerHealth(fastify, deps);
  registerPaymentPage(fastify, deps);
  registerDeviceRoutes(fastify, deps);

  const schema = buildSchema();
  const yoga = createGraphQLServer(deps, schema);

  fastify.route({
    url: GRAPHQL_PATH,
    method: ['GET', 'POST'],
    // yoga and SOFA do not answer HEAD; fastify's implicit HEAD route would reach them and 404
    // without a problem body, so the forwarded routes take exactly their documented methods.
    exposeHeadRoute: false,
    config: { auth: 'apiKey' },
    handler: (req, reply) => forward(yoga, req, reply),
  });

  for (const route of REST_ROUTES) {
    fastify.route({
      url: REST_BASE + route.path,
      method: route.method,
      exposeHeadRoute: false,
      config: { auth: 'apiKey' },
      preHandler: restParamCheck(schema, route),
      handler: (req, reply) => forward(yoga, req, reply),
    });
  }

  registerPricingRoutes(fastify, deps);

  return { fastify, yoga, routes };
}
