import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AppDeps } from '../../kernel/deps.js';
import { OAUTH_ROUTES, createProvider } from './provider.js';
import { registerInteractionRoutes } from './interaction.routes.js';
import { OAUTH_DOCS } from './oauth.docs.js';
import type { RouteDoc } from '../../kernel/route-doc.js';

// oidc-provider is a Koa application; fastify hands it the raw request and response of exactly the
// routes Portier offers (anything else oidc-provider could serve stays unreachable). The rate limit
// of the client address applies to them like to every route, with the same headers.

export const METADATA_PATH = '/.well-known/oauth-authorization-server';

function handOver(provider: Provider, publicUrl: string, corsOrigins: readonly string[]) {
  const callback = provider.callback();
  const listed = new Set(corsOrigins);
  const { host, protocol } = new URL(publicUrl);
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    req.raw.headers['x-forwarded-host'] = host;
    req.raw.headers['x-forwarded-proto'] = protocol.replace(/:$/, '');
    // Headers fastify's hooks set (request id, rate limit) go out with oidc-provider's answer.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    // CORS is Portier's (CORS_ORIGINS, docs/operations.md): oidc-provider's own CORS headers (`*` on
    // the metadata, any origin on the token endpoint) are dropped for an origin that is not listed.
    const origin = req.headers.origin;
    if (origin === undefined || !listed.has(origin)) {
      const raw = reply.raw;
      const setHeader = raw.setHeader.bind(raw);
      raw.setHeader = (name: string, value: number | string | readonly string[]) =>
        name.toLowerCase().startsWith('access-control-') ? raw : setHeader(name, value);
    }
    reply.hijack();
    await callback(req.raw, reply.raw);
  };
}

/** oidc-provider's own limit on a form body. */
const FORM_BODY_LIMIT = 56 * 1024;

/**
 * The token and revocation endpoints read their form here first: a `client_secret` in the body is
 * refused with invalid_client whoever sends it (docs/oauth.md: a secret goes only in HTTP Basic; a
 * public app has none). oidc-provider would ignore it, and a public app would get tokens. The form
 * is then handed on as read (oidc-provider takes an already read body).
 */
function refusingSecretInBody(toProvider: (req: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (typeof req.body === 'string') {
      if (new URLSearchParams(req.body).has('client_secret')) {
        await reply.status(401).header('cache-control', 'no-store').send({
          error: 'invalid_client',
          error_description:
            'client_secret must not be sent in the body: a confidential app uses HTTP Basic, a public app sends no secret',
        });
        return;
      }
      (req.raw as typeof req.raw & { body?: string }).body = req.body;
    }
    await toProvider(req, reply);
  };
}

export function registerOAuthRoutes(app: FastifyInstance, deps: AppDeps): Provider {
  const provider = createProvider(deps);
  const toProvider = handOver(provider, deps.env.publicUrl, deps.env.corsOrigins);
  const config = (openapi: RouteDoc) => ({ config: { auth: 'none' as const, openapi } });
  void app.register(async (scope) => {
    // oidc-provider reads form bodies itself: leave the stream unread for it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    scope.get(METADATA_PATH, config(OAUTH_DOCS.metadata), toProvider);
    scope.get(OAUTH_ROUTES.authorization, config(OAUTH_DOCS.authorize), toProvider);
    scope.get(`${OAUTH_ROUTES.authorization}/:uid`, config(OAUTH_DOCS.resume), toProvider);
    scope.get(OAUTH_ROUTES.jwks, config(OAUTH_DOCS.jwks), toProvider);
    scope.post(OAUTH_ROUTES.token, config(OAUTH_DOCS.token), refusingSecretInBody(toProvider));
    scope.post(OAUTH_ROUTES.revocation, config(OAUTH_DOCS.revoke), refusingSecretInBody(toProvider));
  });
  registerInteractionRoutes(app, deps, provider);
  return provider;
}
