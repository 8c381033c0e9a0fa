import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AuthMode } from '../http/auth.js';
import type { Scope } from '../../kernel/auth/scopes.js';
import type { RestRoute } from './routes.js';

// Every route fastify serves passes through here, so the OpenAPI document (src/transport/rest/openapi.ts)
// is built from what the server really serves. A hand-written route documents itself in one of
// two ways, and both may be combined (config.openapi wins):
//
//   app.post('/api/pricing/preview', {
//     config: { auth: 'apiKey', scope: 'pricing:read' },
//     schema: { operationId: 'previewPrice', summary: 'Preview a price', tags: ['pricing'],
//               body: PreviewBody, response: { 200: PreviewResult } },          // TypeBox or JSON schema
//   }, handler);
//
//   app.get('/pay/:token', {
//     config: { auth: 'none', openapi: { operationId: 'paymentPage', summary: '…',
//       params: T.Object({ token: T.String() }),
//       responses: { 200: { description: 'HTML page', contentType: 'text/html', schema: { type: 'string' } } } } },
//   }, handler);
//
// `config.openapi: false` keeps a route out of the document (and out of the route-equality test).

export type { JsonSchema, ResponseDoc, RouteDoc } from '../../kernel/route-doc.js';
import type { JsonSchema, ResponseDoc, RouteDoc } from '../../kernel/route-doc.js';

declare module 'fastify' {
  /** The documentation keys a route's fastify schema may carry (read below, ignored by fastify). */
  interface FastifySchema {
    operationId?: string;
    summary?: string;
    description?: string;
    tags?: string[];
  }
  interface FastifyContextConfig {
    /** The route's OpenAPI description, or false for an undocumented internal route. */
    openapi?: RouteDoc | false;
    /** Set by the REST bridge on the routes it serves (documented from the GraphQL schema). */
    restRoute?: RestRoute;
  }
}

export interface RegisteredRoute {
  method: string;
  /** fastify's path, with :params. */
  url: string;
  auth: AuthMode;
  scope?: Scope;
  restRoute?: RestRoute;
  /** The documentation taken from the fastify schema and config.openapi; undefined when there is none. */
  doc?: RouteDoc;
  hidden: boolean;
}

interface SchemaWithDocs {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  params?: JsonSchema;
  querystring?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  response?: Record<string, JsonSchema>;
}

function docOfFastifySchema(schema: SchemaWithDocs | undefined): RouteDoc | undefined {
  if (!schema) return undefined;
  const responses: Record<string, ResponseDoc> = {};
  for (const [status, body] of Object.entries(schema.response ?? {})) {
    const content = (body as { content?: Record<string, { schema?: JsonSchema }> }).content;
    if (content && !('type' in body)) {
      const [contentType, media] = Object.entries(content)[0] ?? [];
      responses[status] = { contentType, schema: media?.schema, description: body.description as string | undefined };
    } else {
      responses[status] = { schema: body, description: body.description as string | undefined };
    }
  }
  return {
    operationId: schema.operationId,
    summary: schema.summary,
    description: schema.description,
    tags: schema.tags,
    params: schema.params,
    querystring: schema.querystring ?? schema.query,
    body: schema.body,
    responses: Object.keys(responses).length ? responses : undefined,
  };
}

function merge(fromSchema: RouteDoc | undefined, fromConfig: RouteDoc | undefined): RouteDoc | undefined {
  if (!fromSchema && !fromConfig) return undefined;
  const defined = (doc: RouteDoc | undefined) =>
    Object.fromEntries(Object.entries(doc ?? {}).filter(([, v]) => v !== undefined));
  return { ...defined(fromSchema), ...defined(fromConfig) };
}

/** The routes of one app, in registration order (HEAD twins of GET routes are left out). */
export class RouteRegistry {
  readonly routes: RegisteredRoute[] = [];

  /** Must run before any route is added. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (options: RouteOptions) => {
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      const config = options.config ?? {};
      const hidden = config.openapi === false;
      const doc = merge(docOfFastifySchema(options.schema as SchemaWithDocs | undefined), config.openapi || undefined);
      for (const method of methods) {
        if (method === 'HEAD' && this.has('GET', options.url)) continue;
        // CORS preflights (@fastify/cors, when CORS_ORIGINS is set) are not API operations.
        if (method === 'OPTIONS') continue;
        this.routes.push({
          method,
          url: options.url,
          auth: config.auth ?? 'none',
          scope: config.scope,
          restRoute: config.restRoute,
          doc,
          hidden,
        });
      }
    });
  }

  has(method: string, url: string): boolean {
    return this.routes.some((r) => r.method === method && r.url === url);
  }
}
