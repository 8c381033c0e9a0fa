import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { bearerToken, type Principal } from '../auth/principal.js';
import { unauthenticated } from '../errors.js';
import { authenticateApiKey } from '../modules/tenants/tenants.service.js';
import { authenticateDevice } from '../modules/devices/devices.service.js';

/** How a route authenticates; set per route in `config.auth`. */
export type AuthMode = 'apiKey' | 'device' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

export type Authenticator = (deps: AppDeps, token: string, req: FastifyRequest) => Promise<Principal | null>;

/** Credential checks by mode; the devices module registers 'device'. */
export const authenticators: Partial<Record<Exclude<AuthMode, 'none'>, Authenticator>> = {
  apiKey: (deps, token) => authenticateApiKey(deps.database.db, token),
  device: (deps, token) => authenticateDevice(deps.database.db, token),
};

/**
 * Resolves the principal once per request (before rate limiting and handlers). A route that
 * needs a credential and gets none, or an unknown or revoked one, is answered 401.
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (req) => {
    const mode = req.routeOptions.config?.auth ?? 'none';
    if (mode === 'none') return;
    const token = bearerToken(req.headers.authorization);
    const authenticate = authenticators[mode];
    if (!token || !authenticate) {
      throw unauthenticated(mode === 'device' ? 'A device key is required: send Authorization: Bearer svc_dk_…' : undefined);
    }
    const principal = await authenticate(deps, token, req);
    if (!principal) {
      throw unauthenticated(mode === 'device' ? 'The device key is unknown or revoked' : 'The API key is unknown or revoked');
    }
    req.principal = principal;
  });
}
