import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { bearerToken, requireScope, type Principal } from '../../kernel/auth/principal.js';
import type { Scope } from '../../kernel/auth/scopes.js';
import { unauthenticated, type DomainError } from '../../kernel/errors.js';
import { API_KEY_PREFIX, authenticateApiKey } from '../../modules/tenants/index.js';
import { authenticateDevice } from '../../modules/devices/index.js';
import { authenticateAccessToken } from '../../modules/oauth/index.js';
import type { DashboardSessions } from '../../modules/users/index.js';

/** How a route authenticates; set per route in `config.auth`. */
export type AuthMode = 'apiKey' | 'device' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Why the credential was refused; answered after rate limiting has counted the request. */
    authFailure: DomainError | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** The scope an API key needs for this hand-written route (checked here, documented in OpenAPI). */
    scope?: Scope;
    /** A dashboard session cookie (with its CSRF token) may stand in for the API key (GraphQL POST, the CSV exports). */
    sessionCookie?: boolean;
  }
}

export type Authenticator = (deps: AppDeps, token: string, req: FastifyRequest) => Promise<Principal | null>;

/** Credential checks by mode; the devices module registers 'device'. */
export const authenticators: Partial<Record<Exclude<AuthMode, 'none'>, Authenticator>> = {
  // `svc_…` is an API key; anything else may be an OAuth access token.
  apiKey: (deps, token) =>
    token.startsWith(API_KEY_PREFIX)
      ? authenticateApiKey(
          deps.database.db,
          token,
          deps.now(),
          (error) => deps.log.warn({ err: error }, 'the API key’s last use could not be recorded'),
          deps.apiKeys,
        )
      : authenticateAccessToken(deps, token),
  device: (deps, token) => authenticateDevice(deps.database.device.db, token),
};

/** Why a sent credential was refused, naming what it was taken for (an OAuth token is never called an API key). */
function refusal(mode: Exclude<AuthMode, 'none'>, token: string): string {
  if (mode === 'device') return 'The device key is unknown or revoked';
  return token.startsWith(API_KEY_PREFIX)
    ? 'The API key is unknown or revoked'
    : 'The OAuth access token is unknown, expired or revoked';
}

/**
 * Resolves the principal once per request, before rate limiting (which spends the principal's
 * budget) and handlers. A missing, unknown or revoked credential is only recorded here: the
 * request is still counted against its client address, then `registerAuthEnforcement` answers 401.
 */
export function registerPrincipalResolution(app: FastifyInstance, deps: AppDeps, sessions?: DashboardSessions): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('authFailure', null);
  app.addHook('onRequest', async (req) => {
    const mode = req.routeOptions.config?.auth ?? 'none';
    if (mode === 'none') return;
    const token = bearerToken(req.headers.authorization);
    // A request with an Authorization header is the integrator's: any cookie is ignored.
    if (req.headers.authorization === undefined && sessions && req.routeOptions.config?.sessionCookie) {
      const outcome = await sessions.authenticate(req);
      if (outcome && 'failure' in outcome) {
        req.authFailure = outcome.failure;
        return;
      }
      if (outcome) {
        req.principal = outcome.principal;
        return;
      }
    }
    const authenticate = authenticators[mode];
    if (!token || !authenticate) {
      req.authFailure = unauthenticated(
        mode === 'device' ? 'A device key is required: send Authorization: Bearer svc_dk_…' : undefined,
      );
      return;
    }
    const principal = await authenticate(deps, token, req);
    if (!principal) {
      req.authFailure = unauthenticated(refusal(mode, token), true);
      return;
    }
    req.principal = principal;
  });
}

/** Answers a refused credential (401) and a hand-written route's missing scope (403). */
export function registerAuthEnforcement(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (req.authFailure) throw req.authFailure;
    const scope = req.routeOptions.config?.scope;
    if (scope) requireScope(req.principal, scope);
  });
}
