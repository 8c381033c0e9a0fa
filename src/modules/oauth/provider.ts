import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppDeps } from '../../kernel/deps.js';
import { SCOPES } from '../../kernel/auth/scopes.js';
import { KyselyAdapter } from './store.js';
import { announceCredentialChange } from '../../kernel/live/index.js';
import { cookieKeys, signingJwk } from './keys.js';
import { portierPolicy } from './policy.js';
import { errorPage } from './views.js';
import { secretMatches } from './apps.service.js';
import { grantStands, userExists } from './grants.repository.js';

// The authorization server: oidc-provider (panva), configured down to what Portier offers —
// the authorization code flow with PKCE S256 for registered apps, rotating refresh tokens,
// RFC 7009 revocation and RFC 8414 metadata. No OpenID Connect extras, no implicit or hybrid
// flow, no device flow, no dynamic registration.

export const OAUTH_BASE = '/oauth';
export const OAUTH_ROUTES = {
  authorization: `${OAUTH_BASE}/authorize`,
  token: `${OAUTH_BASE}/token`,
  revocation: `${OAUTH_BASE}/revoke`,
  jwks: `${OAUTH_BASE}/jwks`,
  // Registered by oidc-provider whatever the features; Portier does not route them.
  end_session: `${OAUTH_BASE}/session/end`,
  userinfo: `${OAUTH_BASE}/userinfo`,
  introspection: `${OAUTH_BASE}/introspect`,
  registration: `${OAUTH_BASE}/register`,
  pushed_authorization_request: `${OAUTH_BASE}/par`,
  code_verification: `${OAUTH_BASE}/device`,
  device_authorization: `${OAUTH_BASE}/device/auth`,
  backchannel_authentication: `${OAUTH_BASE}/backchannel`,
  challenge: `${OAUTH_BASE}/challenge`,
  credential: `${OAUTH_BASE}/credential`,
} as const;
export const INTERACTION_BASE = `${OAUTH_BASE}/interaction`;

export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const GRANT_TTL_SECONDS = 365 * 24 * 60 * 60;
export const INTERACTION_TTL_SECONDS = 15 * 60;

/** OpenID Connect discovery fields oidc-provider always lists: Portier issues no ID tokens and serves no claims. */
const OPENID_ONLY = [
  'claims_parameter_supported',
  'claims_supported',
  'claim_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'request_uri_parameter_supported',
  'request_parameter_supported',
];

/** The RFC 8414 metadata of what Portier offers (docs/oauth.md, "Metadata"). */
export function advertised(metadata: Record<string, unknown>): Record<string, unknown> {
  const result = Object.fromEntries(Object.entries(metadata).filter(([name]) => !OPENID_ONLY.includes(name)));
  result.response_modes_supported = ['query'];
  result.scopes_supported = [...SCOPES];
  return result;
}

export function createProvider(deps: AppDeps): Provider {
  const db = deps.database.db;
  const secure = deps.env.publicUrl.startsWith('https:');
  const configuration: Configuration = {
    adapter: (name: string) => new KyselyAdapter(name, db, deps.secret),
    clients: [],
    // The account behind a code or refresh token is its grant's user, while that user is still one
    // of the tenant's users and the grant stands: a removed user's refresh token gets invalid_grant
    // (the grant rows go with the user), as does one whose grant the tenant or app ended.
    findAccount: async (_ctx, id, token) => {
      const grantId = token && typeof token.grantId === 'string' ? token.grantId : undefined;
      const live = grantId ? await grantStands(db, grantId, id) : await userExists(db, id);
      return live ? { accountId: id, claims: () => ({ sub: id }) } : undefined;
    },
    scopes: [...SCOPES],
    claims: {},
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'EdDSA',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // Only the app a token was issued to may revoke it; a public app asking about another's
        // token gets the same 200 as for an unknown token (nothing to learn by guessing).
        allowedPolicy: (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('this client may not revoke the presented token');
        },
      },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      registration: { enabled: false },
      deviceFlow: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      dPoP: { enabled: false },
      requestObjects: { enabled: false },
      claimsParameter: { enabled: false },
      clientCredentials: { enabled: false },
      backchannelLogout: { enabled: false },
      encryption: { enabled: false },
      jwtResponseModes: { enabled: false },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: INTERACTION_TTL_SECONDS,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
    },
    // Always a refresh token, rotated on every use; a rotated one used again ends the whole grant.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Tokens belong to the grant, not to the browser that was used to give it.
    expiresWithSession: () => false,
    // Revoking a token (either kind), reusing a code or a rotated refresh token ends the whole
    // grant: every token of it, and the app's place among the tenant's connected apps.
    revokeGrantPolicy: () => true,
    routes: OAUTH_ROUTES,
    interactions: {
      url: (_ctx, interaction) => `${INTERACTION_BASE}/${interaction.uid}`,
      policy: portierPolicy(),
    },
    cookies: {
      keys: cookieKeys(deps.secret),
      names: {
        session: 'portier_oauth_session',
        interaction: 'portier_oauth_interaction',
        resume: 'portier_oauth_resume',
      },
      long: { httpOnly: true, sameSite: 'lax', secure },
      short: { httpOnly: true, sameSite: 'lax', secure },
    },
    jwks: { keys: [signingJwk(deps.secret)] },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    // Browser apps (public clients) may call the token and revocation endpoints from their
    // redirect URIs' origins; nothing else is allowed cross-origin.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' &&
      client.clientAuthMethod === 'none' &&
      client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) === true,
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = errorPage({
        title: 'This authorization request cannot go on',
        error: out.error,
        description: out.error_description,
      });
    },
    discovery: { service_documentation: `${deps.env.publicUrl}/api/docs` },
  };
  const provider = new Provider(deps.env.publicUrl, configuration);
  // Endpoint URLs in the metadata are built from the request's host and protocol, which
  // oauth.routes.ts sets to PUBLIC_URL's (as a trusted proxy would): the issuer and every endpoint agree.
  provider.proxy = true;
  // The client_secret oidc-provider holds is the stored hash; hash what the client presents.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(actual: string) {
    return secretMatches(this.clientSecret ?? null, actual);
  };
  // The metadata says what Portier does, not what oidc-provider could: it is an OAuth 2.0
  // authorization server (RFC 8414), not an OpenID provider.
  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx as Partial<KoaContextWithOIDC>;
    if (oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object')
      ctx.body = advertised(ctx.body as Record<string, unknown>);
  });
  provider.on('server_error', (_ctx, error) => deps.log.error({ err: error }, 'oauth server error'));
  // RFC 7009 revocation (and a reused code's grant) ended a token: the streams it opened end in
  // every process. The token names no tenant here: every tenant's open OAuth streams are re-checked.
  provider.on('access_token.destroyed', () => announceCredentialChange(deps.live, '*'));
  provider.on('grant.revoked', () => announceCredentialChange(deps.live, '*'));
  return provider;
}
