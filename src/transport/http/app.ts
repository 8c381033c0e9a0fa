import { Readable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { buildSchema, publicSchemaOf } from '../graphql/schema.js';
import { createGraphQLServer, GRAPHQL_PATH, type Yoga } from '../graphql/yoga.js';
import { PlannedLane } from '../graphql/planned-lane.js';
import { registerExplorer } from './explorer.js';
import { registerGraphQLWebSocket } from '../graphql/websocket.js';
import { GRAPHQL_GET_DOC, GRAPHQL_POST_DOC } from '../graphql/route-doc.js';
import { registerRestRoutes, type RestOperation } from '../rest/bridge.js';
import { REST_ROUTES } from '../rest/routes.js';
import { bookingFastPaths } from '../../modules/bookings/index.js';
import { RouteRegistry } from '../rest/openapi-registry.js';
import type { BuiltDocument } from '../rest/openapi.js';
import { BINDS_REQUEST_ID } from '../../kernel/logger.js';
import { registerAuthEnforcement, registerPrincipalResolution } from './auth.js';
import { registerErrorHandling } from './errors.js';
import { registerHealth } from './health.js';
import { registerDocs } from './docs.js';
import { registerDashboard } from './dashboard.js';
import { loadRateLimit, type RateLimit } from './rate-limit.js';
import { frameworkErrorHandler } from './framework-errors.js';
import { loadLoadShedding, type LoadSheddingOptions } from './load-shedding.js';
import { registerRequestContext, requestIdOf } from '../../kernel/request-context.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { registerGracefulClose, type GracefulClose } from './drain.js';
import { clientErrorHandler } from './connections.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerQueryGuard } from './query-guard.js';
import { registerApiVersion } from './api-version.js';
import { registerCors, registerPublishableOrigins } from './cors.js';
import { originAllowedFor, originListedAnywhere } from '../../modules/booking-page/index.js';
import { registerIdempotency } from './idempotency.js';
import { registerMetrics } from './metrics.js';
import { traceRequests } from './tracing.js';
import cookie from '@fastify/cookie';
import { DashboardSessions, registerSessionRoutes } from '../../modules/users/index.js';
import { createSignInThrottle, type SignInThrottle } from '../../modules/users/index.js';

export { BODY_LIMIT_BYTES };

export interface AppOptions {
  /** Load-shedding thresholds; tests lower them. */
  loadShedding?: LoadSheddingOptions;
  /** The dashboard's sign-in throttle; default: the documented limits, in Redis when REDIS_URL is set. */
  signInThrottle?: SignInThrottle;
}

export interface App {
  fastify: FastifyInstance;
  yoga: Yoga;
  /** Planned operations answered without yoga; undefined when the fast paths are off. */
  lane: PlannedLane | undefined;
  /** Every route fastify serves, as registered. */
  routes: RouteRegistry;
  /** The OpenAPI document of those routes (built when the app is ready). */
  openapi(): BuiltDocument;
  /** The listener's graceful close (answers requests past the shutdown deadline). */
  drain: GracefulClose;
  /** The REST routes' compiled operations (src/transport/rest/bridge.ts). */
  rest: RestOperation[];
}

/**
 * Hands a GraphQL request fastify has parsed to yoga. The body is passed on as JSON text, because
 * yoga reads the raw body.
 */
async function forward(yoga: Yoga, req: FastifyRequest, reply: FastifyReply) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.body !== undefined && req.body !== null && req.method !== 'GET' && req.method !== 'HEAD';
  // A subscription over SSE runs until the client goes away: the abort ends it (and frees its listener).
  const disconnected = new AbortController();
  reply.raw.once('close', () => disconnected.abort());
  const response = await yoga.fetch(
    `http://${req.hostname || 'localhost'}${req.url}`,
    {
      method: req.method,
      headers,
      body: hasBody ? (typeof req.body === 'string' ? req.body : JSON.stringify(req.body)) : undefined,
      signal: disconnected.signal,
    },
    { req, reply },
  );
  response.headers.forEach((value, key) => {
    if (key !== 'content-length') reply.header(key, value);
  });
  reply.status(response.status);
  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // Server-Sent Events (a subscription): streamed as yoga writes them, never buffered.
    reply.header('cache-control', 'no-cache');
    reply.header('x-accel-buffering', 'no');
    // yoga's body is @whatwg-node's stream (not Node's ReadableStream on every runtime): read it as an async iterable.
    return reply.send(Readable.from(response.body as AsyncIterable<Uint8Array>, { objectMode: false }));
  }
  return reply.send(await response.text());
}

export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<App> {
  const limiter: { rateLimit?: RateLimit; headers?: Record<string, string> } = {};
  const fastify = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: requestIdOf,
    childLoggerFactory: (logger, bindings, childOptions) =>
      Object.assign(logger.child(bindings, childOptions), { [BINDS_REQUEST_ID]: true }),
    trustProxy: deps.env.trustProxy,
    // Requests that reach the server while it closes are served (see registerGracefulClose).
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(limiter),
    // Slow clients (docs/operations.md#connections-and-timeouts): headers must arrive within
    // HEADERS_TIMEOUT_SECONDS of the first byte, the whole request (body included) within
    // REQUEST_TIMEOUT_SECONDS; Node checks every second and answers 408 problem+json.
    requestTimeout: deps.env.requestTimeoutSeconds * 1000,
    // An idle keep-alive connection stays open KEEP_ALIVE_TIMEOUT_SECONDS (72 s; Node says so in
    // its Keep-Alive header): longer than a door's heartbeat interval, so a door keeps one
    // connection and never waits in the accept queue (docs/operations.md#doors-on-a-busy-host).
    keepAliveTimeout: deps.env.keepAliveTimeoutSeconds * 1000,
    http: {
      headersTimeout: deps.env.headersTimeoutSeconds * 1000,
      requestTimeout: deps.env.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler,
  });
  // One span per request (OTEL_EXPORTER_OTLP_ENDPOINT set), wrapping fastify's handler before anything else.
  if (deps.tracing) traceRequests(fastify, deps.tracing);
  const routes = new RouteRegistry();
  routes.attach(fastify);
  registerErrorHandling(fastify, deps);
  registerJsonBodyParser(fastify);
  registerQueryGuard(fastify);
  // Subscriptions end first on shutdown (SSE responses complete, WebSockets close with 1001), so the
  // drain below finds them finished instead of waiting out its deadline.
  const live: { close?: () => Promise<void> } = {};
  fastify.addHook('preClose', async () => {
    deps.live.hub.endAll();
    await live.close?.();
  });
  fastify.addHook('onClose', () => {
    deps.live.guard.close();
    return deps.live.hub.close();
  });
  const drain = registerGracefulClose(fastify);

  // onRequest, in this order: request id → CORS → Portier-Version → load shedding → principal → rate limit (spends the
  // principal's budget, or the client address's) → 401/403 for refused credentials.
  limiter.headers = registerSecurityHeaders(fastify, deps.env.publicUrl);
  registerRequestContext(fastify);
  // CORS headers before anything can refuse the request, so a listed origin can read the refusal.
  const pageOrigins = {
    origins: {
      listedAnywhere: (origin: string) => originListedAnywhere(deps.database.db, origin),
      listedFor: (tenantId: string, origin: string) => originAllowedFor(deps.database.db, tenantId, origin),
    },
    self: new URL(deps.env.publicUrl).origin,
  };
  await registerCors(fastify, deps.env.corsOrigins, pageOrigins);
  // Portier-Version (docs/api.md#api-versions): checked and echoed before anything else can refuse.
  registerApiVersion(fastify);
  await loadLoadShedding(fastify, {
    maxEventLoopDelay: deps.env.loadSheddingMaxEventLoopDelayMs,
    ...options.loadShedding,
  });
  await fastify.register(cookie);
  const sessions = new DashboardSessions(deps, options.signInThrottle ?? defaultSignInThrottle(deps));
  fastify.decorate('dashboardSessions', sessions);
  registerPrincipalResolution(fastify, deps, sessions);
  limiter.rateLimit = await loadRateLimit(fastify, deps);
  fastify.addHook('onRequest', limiter.rateLimit.hook);
  // A browser opening the GraphQL endpoint gets the explorer page, which needs no key.
  registerExplorer(fastify);
  registerAuthEnforcement(fastify);
  // A publishable key from a browser: only from the origins its venue lists (docs/booking-page.md).
  registerPublishableOrigins(fastify, deps.env.corsOrigins, pageOrigins);
  // Idempotency-Key on write routes: taken once the principal is known and the body parsed.
  registerIdempotency(fastify, deps);

  registerHealth(fastify, deps, drain);
  registerMetrics(fastify, deps);
  // Access-log entries still buffered are written before the database closes.
  fastify.addHook('onClose', () => deps.accessLog.flush());

  const schema = buildSchema(deps.modules);
  // The endpoint serves the published schema; the REST bridge and the docs run against the full one (@restOnly fields).
  // The bookings list's fast paths, or none (PORTIER_FAST_PATHS=false): src/modules/bookings/fast-paths.
  const fastPaths = bookingFastPaths(deps.env.fastPaths);
  const published = publicSchemaOf(schema);
  // Planned operations yoga has run once are answered without it (src/transport/graphql/planned-lane.ts).
  const lane = Object.keys(fastPaths.plannedFields).length ? new PlannedLane(deps, published, GRAPHQL_PATH) : undefined;
  const yoga = createGraphQLServer(deps, published, fastPaths.plannedFields, lane);

  fastify.get(
    GRAPHQL_PATH,
    { exposeHeadRoute: false, config: { auth: 'apiKey', openapi: GRAPHQL_GET_DOC } },
    (req, reply) => forward(yoga, req, reply),
  );
  fastify.post(
    GRAPHQL_PATH,
    { config: { auth: 'apiKey', sessionCookie: true, openapi: GRAPHQL_POST_DOC } },
    async (req, reply) => ((await lane?.answer(req, reply)) ? reply : forward(yoga, req, reply)),
  );

  // graphql-ws on the same path (docs/subscriptions.md).
  const webSocket = registerGraphQLWebSocket(fastify, deps, yoga, limiter.rateLimit);
  live.close = () => webSocket.close();

  // Each REST route is its own fastify route and runs its compiled operation directly (src/transport/rest/bridge.ts).
  const rest = registerRestRoutes(fastify, deps, schema, REST_ROUTES, fastPaths.directAnswers);

  // Each module's own routes, as an encapsulated plugin (its hooks and decorators stay inside it).
  for (const module of deps.modules) {
    const routes = module.routes;
    if (routes)
      await fastify.register(async (scope) => routes(scope, deps), { name: `${module.name} routes` } as never);
  }
  registerSessionRoutes(fastify, sessions);
  await registerDashboard(fastify);

  const docs = registerDocs(fastify, deps, schema, routes);
  return { fastify, yoga, lane, routes, openapi: () => docs.built(), drain, rest };
}

/** The documented sign-in limits on the runtime's limiter store (Redis when REDIS_URL is set). */
function defaultSignInThrottle(deps: AppDeps): SignInThrottle {
  return createSignInThrottle(undefined, deps.limits.store);
}
