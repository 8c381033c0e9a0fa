import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { AppDeps } from '../../kernel/deps.js';
import { buildOpenApiDocument, type BuiltDocument } from '../rest/openapi.js';
import type { RouteRegistry } from '../rest/openapi-registry.js';
import { DOCS_PAGE_CSP, DOCS_SCRIPT_PATH, renderDocsPage, rendererBundle } from '../rest/docs-page.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
const API_VERSION = '0.1.0';

/**
 * GET /api/openapi.json and GET /api/docs. The document is built once, when the app is ready
 * (every route is registered by then), from the routes the registry saw.
 */
export function registerDocs(
  app: FastifyInstance,
  deps: AppDeps,
  schema: GraphQLSchema,
  registry: RouteRegistry,
): { built(): BuiltDocument } {
  let built: BuiltDocument | undefined;
  let bundle: Buffer | undefined;
  const build = () => {
    built ??= buildOpenApiDocument({
      schema,
      routes: registry.routes,
      publicUrl: deps.env.publicUrl,
      version: API_VERSION,
    });
    return built;
  };
  app.addHook('onReady', async () => {
    build();
  });

  app.get(OPENAPI_PATH, {
    config: {
      auth: 'none',
      openapi: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        tags: ['operations'],
        responses: {
          200: { description: 'The document.', schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } },
        },
      },
    },
    handler: async (_req, reply) =>
      reply.type('application/json; charset=utf-8').send(JSON.stringify(build().document)),
  });

  app.get(DOCS_PATH, {
    config: {
      auth: 'none',
      openapi: {
        operationId: 'getApiReference',
        summary: 'Browsable API reference (Scalar, served from this host; works offline)',
        tags: ['operations'],
        responses: { 200: { description: 'An HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
      },
    },
    handler: async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', DOCS_PAGE_CSP)
        .header('x-content-type-options', 'nosniff')
        .send(renderDocsPage(OPENAPI_PATH)),
  });

  app.get(DOCS_SCRIPT_PATH, {
    config: {
      auth: 'none',
      openapi: {
        operationId: 'getApiReferenceRenderer',
        summary: "The API reference's renderer (the @scalar/api-reference standalone bundle)",
        tags: ['operations'],
        responses: { 200: { description: 'JavaScript.', contentType: 'text/javascript', schema: { type: 'string' } } },
      },
    },
    handler: async (_req, reply) => {
      bundle ??= rendererBundle();
      return reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(bundle);
    },
  });

  return { built: build };
}
