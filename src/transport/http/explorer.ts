import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDoc } from '../rest/openapi-registry.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';

/**
 * The GraphQL explorer: a browser opening /api/v1/graphql (GET, `Accept: text/html`, no query and no
 * Authorization header) gets GraphiQL — the build @graphql-yoga/render-graphiql ships, served
 * from here as separate files so the page runs under a CSP without inline scripts and loads
 * nothing from another host. The caller pastes their API key into the header editor; the page
 * itself needs none. The bundle (about 9 MB of text) is loaded on the first page view, not at
 * start-up.
 */
export const EXPLORER_ASSETS = '/api/explorer';

// 'unsafe-inline' for styles only: the Monaco editor inside GraphiQL writes <style> elements and
// style attributes at run time. Scripts, workers and connections are this origin's own files only.
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': EXPLORER_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

interface Bundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

let bundle: Promise<Bundle> | undefined;
/** The package exports only renderGraphiQL (one HTML string with everything inline); its assets module lies beside it. */
const loadBundle = () =>
  (bundle ??= import(
    pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('@graphql-yoga/render-graphiql')), 'graphiql.js'))
      .href
  ).then((m: Bundle & { default?: Bundle }) => (typeof m.js === 'string' ? m : (m.default as Bundle))));

const START_SCRIPT = `'use strict';
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (_moduleId, label) {
    return '${EXPLORER_ASSETS}/' + (label === 'json' || label === 'graphql' ? label : 'editor') + '.worker.js';
  },
};
YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), {
  endpoint: '${GRAPHQL_PATH}',
  title: 'Portier GraphQL explorer',
  defaultQuery: '# Put your API key into the Headers tab below: {"Authorization": "Bearer svc_…"}\\n{\\n  viewer {\\n    id\\n    name\\n  }\\n}\\n',
  defaultHeaders: '{\\n  "Authorization": "Bearer <your API key>"\\n}',
  shouldPersistHeaders: false,
  credentials: 'omit',
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Portier GraphQL explorer</title>
    <link rel="icon" href="${EXPLORER_ASSETS}/favicon.ico" />
    <link rel="stylesheet" href="${EXPLORER_ASSETS}/graphiql.css" />
  </head>
  <body>
    <noscript>The GraphQL explorer needs JavaScript. The endpoint itself answers POST ${GRAPHQL_PATH} with a JSON body.</noscript>
    <div id="root" style="height: 100vh"></div>
    <script src="${EXPLORER_ASSETS}/graphiql.js"></script>
    <script src="${EXPLORER_ASSETS}/start.js"></script>
  </body>
</html>
`;

/** A browser navigating to the endpoint: GET, wants HTML, sends no query and no credentials. */
export function wantsExplorer(req: FastifyRequest): boolean {
  if (req.method !== 'GET' || req.url.split('?')[0] !== GRAPHQL_PATH) return false;
  if (req.headers.authorization !== undefined || req.url.includes('?')) return false;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html');
}

const sendPage = (reply: FastifyReply) =>
  reply
    .headers({ ...HEADERS, 'cache-control': 'no-cache' })
    .type('text/html; charset=utf-8')
    .send(PAGE);

const ASSETS: Record<string, { type: string; body: (b: Bundle) => string | Buffer }> = {
  'graphiql.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.js },
  'graphiql.css': { type: 'text/css; charset=utf-8', body: (b) => b.css },
  'start.js': { type: 'text/javascript; charset=utf-8', body: () => START_SCRIPT },
  'editor.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.editorWorkerService },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.jsonWorker },
  'graphql.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.graphqlWorker },
  'favicon.ico': { type: 'image/x-icon', body: (b) => Buffer.from(b.favicon.replace(/^data:[^,]*,/, ''), 'base64') },
};

const ASSET_DOC: RouteDoc = {
  operationId: 'graphqlExplorerAsset',
  summary: 'GraphQL explorer: a script, stylesheet, worker or icon of the GraphiQL page',
  tags: ['graphql'],
  params: { type: 'object', properties: { file: { type: 'string', enum: Object.keys(ASSETS) } }, required: ['file'] },
  responses: {
    200: { description: 'The file.', contentType: 'application/octet-stream', schema: { type: 'string' } },
    404: { description: 'No such file.' },
  },
};

/**
 * The explorer page is answered by an onRequest hook (registered before the credential check), since
 * the GraphQL GET route itself requires an API key; the assets are plain public routes.
 */
export function registerExplorer(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!wantsExplorer(req)) return;
    await loadBundle();
    return sendPage(reply);
  });
  app.get<{ Params: { file: string } }>(
    `${EXPLORER_ASSETS}/:file`,
    { config: { auth: 'none', openapi: ASSET_DOC }, exposeHeadRoute: false },
    async (req, reply) => {
      const asset = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
      if (!asset) return reply.callNotFound();
      const body = asset.body(await loadBundle());
      return reply
        .headers({ ...HEADERS, 'cache-control': 'public, max-age=3600' })
        .type(asset.type)
        .send(body);
    },
  );
}
