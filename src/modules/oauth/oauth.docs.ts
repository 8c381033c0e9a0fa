import type { RouteDoc } from '../../kernel/route-doc.js';
import { named } from '../../kernel/openapi-names.js';
import { SCOPES } from '../../kernel/auth/scopes.js';

// OpenAPI descriptions of the OAuth routes (tag oauth). The protocol itself is RFC 6749, 7636,
// 7009 and 8414; docs/oauth.md is the developer's walkthrough.

const TAGS = ['oauth'];
const FORM = 'application/x-www-form-urlencoded';
const ISSUER = 'https://portier.example.org';
const SCOPE = {
  type: 'string',
  description: 'Space-separated scopes (docs/oauth.md, "Scopes").',
  examples: ['bookings:read bookings:write'],
};

/** RFC 8414 metadata as Portier serves it (provider.ts advertised()). */
const METADATA = named('OAuthServerMetadata', {
  type: 'object',
  description: 'RFC 8414 authorization server metadata: only what Portier does (no OpenID Connect fields).',
  properties: {
    issuer: { type: 'string', format: 'uri', description: 'PUBLIC_URL.' },
    authorization_endpoint: { type: 'string', format: 'uri' },
    token_endpoint: { type: 'string', format: 'uri' },
    revocation_endpoint: { type: 'string', format: 'uri' },
    jwks_uri: { type: 'string', format: 'uri' },
    scopes_supported: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
    response_types_supported: { type: 'array', items: { type: 'string', const: 'code' } },
    response_modes_supported: { type: 'array', items: { type: 'string', const: 'query' } },
    grant_types_supported: { type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] } },
    code_challenge_methods_supported: { type: 'array', items: { type: 'string', const: 'S256' } },
    token_endpoint_auth_methods_supported: {
      type: 'array',
      items: { type: 'string', enum: ['client_secret_basic', 'none'] },
    },
    authorization_response_iss_parameter_supported: {
      type: 'boolean',
      description: 'RFC 9207: the redirect carries iss.',
    },
    service_documentation: { type: 'string', format: 'uri' },
  },
  required: [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'revocation_endpoint',
    'scopes_supported',
    'response_types_supported',
    'grant_types_supported',
    'code_challenge_methods_supported',
    'token_endpoint_auth_methods_supported',
  ],
});
const METADATA_EXAMPLE = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/oauth/authorize`,
  token_endpoint: `${ISSUER}/oauth/token`,
  revocation_endpoint: `${ISSUER}/oauth/revoke`,
  jwks_uri: `${ISSUER}/oauth/jwks`,
  scopes_supported: [...SCOPES],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
  authorization_response_iss_parameter_supported: true,
  service_documentation: `${ISSUER}/api/docs`,
};

const JWKS = named('JsonWebKeySet', {
  type: 'object',
  description:
    'RFC 7517 key set: the Ed25519 signing key (Portier issues opaque tokens; nothing a client receives is signed with it today).',
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kty: { type: 'string', const: 'OKP' },
          crv: { type: 'string', const: 'Ed25519' },
          x: { type: 'string', description: 'The public key, base64url.' },
          kid: { type: 'string' },
          alg: { type: 'string', const: 'EdDSA' },
          use: { type: 'string', const: 'sig' },
        },
        required: ['kty', 'crv', 'x', 'kid'],
      },
    },
  },
  required: ['keys'],
});

// One object rather than a oneOf per grant: orval's form encoder reads every variant's fields off the
// union (a type error under `strict`, and `refresh_token=undefined` sent with a code). Which fields
// each grant needs is in the descriptions; the server answers invalid_request for a missing one.
const TOKEN_REQUEST = named('OAuthTokenRequest', {
  type: 'object',
  description:
    'RFC 6749 §4.1.3 (with RFC 7636 code_verifier) or §6. grant_type=authorization_code takes code, redirect_uri and code_verifier; grant_type=refresh_token takes refresh_token and optionally scope. A confidential app authenticates with HTTP Basic (client_id:client_secret); a public app sends client_id here.',
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: { type: 'string', description: 'authorization_code: the code from the redirect (60 seconds, once).' },
    redirect_uri: {
      type: 'string',
      format: 'uri',
      description: 'authorization_code: the redirect URI of the authorization request, exactly.',
    },
    code_verifier: {
      type: 'string',
      minLength: 43,
      maxLength: 128,
      description: 'authorization_code: the PKCE verifier whose S256 hash was the code_challenge.',
    },
    refresh_token: {
      type: 'string',
      description: 'refresh_token: the latest refresh token (each is used once: it is rotated).',
    },
    scope: { ...SCOPE, description: 'refresh_token, optional: fewer scopes than granted.' },
    client_id: { type: 'string', description: 'Public apps only.' },
  },
  required: ['grant_type'],
});

const TOKEN_RESPONSE = named('OAuthTokenResponse', {
  type: 'object',
  description: 'RFC 6749 §5.1 (no id_token: Portier is not an OpenID provider).',
  properties: {
    access_token: { type: 'string', description: 'Opaque; send as Authorization: Bearer.' },
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds (3600).' },
    scope: SCOPE,
    refresh_token: { type: 'string', description: 'Opaque; rotated on every use.' },
  },
  required: ['access_token', 'token_type', 'expires_in', 'scope', 'refresh_token'],
});

const REVOKE_REQUEST = named('OAuthRevocationRequest', {
  type: 'object',
  description: 'RFC 7009 §2.1. A confidential app authenticates with HTTP Basic; a public app sends client_id.',
  properties: {
    token: { type: 'string', description: 'An access or refresh token of this app.' },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
    client_id: { type: 'string', description: 'Public apps only.' },
  },
  required: ['token'],
});
const HTML = { contentType: 'text/html', schema: { type: 'string', description: 'An HTML document.' } };
const OAUTH_ERROR = named('OAuthError', {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'An RFC 6749 error code, e.g. invalid_grant.' },
    error_description: { type: 'string' },
  },
  required: ['error'],
});
const UID = {
  type: 'object',
  properties: { uid: { type: 'string', description: 'The authorization request’s interaction id.' } },
  required: ['uid'],
};
const REDIRECT = {
  description:
    'A redirect (303) onward in the flow, or to the app’s redirect URI with `code` or `error`, `state` and `iss`.',
};

export const OAUTH_DOCS = {
  metadata: {
    operationId: 'oauthAuthorizationServerMetadata',
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'The issuer (PUBLIC_URL), the endpoints, and what is supported: response type code, PKCE S256, grants authorization_code and refresh_token, client authentication client_secret_basic or none, the scopes. See docs/oauth.md.',
    tags: TAGS,
    responses: { 200: { description: 'The metadata.', schema: METADATA, example: METADATA_EXAMPLE } },
  },
  authorize: {
    operationId: 'oauthAuthorize',
    summary: 'Authorization endpoint: starts an authorization code request (PKCE S256 required)',
    description:
      'Query: response_type=code, client_id, redirect_uri (registered exactly), scope, state, code_challenge, code_challenge_method=S256. Sends the browser to Portier’s sign-in and consent page, then to the redirect URI. An unknown client or redirect URI gets an HTML error page, never a redirect.',
    tags: TAGS,
    responses: {
      303: REDIRECT,
      400: { description: 'Unknown client or unregistered redirect URI (an HTML page).', ...HTML },
    },
  },
  resume: {
    operationId: 'oauthAuthorizeResume',
    summary: 'Where the sign-in and consent pages hand the request back (internal to the flow)',
    tags: TAGS,
    params: UID,
    responses: {
      303: REDIRECT,
      400: { description: 'The request is no longer open in this browser (an HTML page).', ...HTML },
    },
  },
  jwks: {
    operationId: 'oauthJwks',
    summary: 'The authorization server’s public keys (JWKS)',
    description: 'Listed in the metadata; Portier issues opaque tokens and no ID tokens, so clients need not use it.',
    tags: TAGS,
    responses: {
      200: {
        description: 'A JSON Web Key Set.',
        contentType: 'application/jwk-set+json',
        schema: JWKS,
        example: {
          keys: [
            {
              kty: 'OKP',
              crv: 'Ed25519',
              x: 'EPRVn18ZIvHHD81OSfF1N_j5F3udtZ5JmXsO-aNkK10',
              kid: 'P5lsTrcMrYWTbCSX',
              alg: 'EdDSA',
              use: 'sig',
            },
          ],
        },
      },
    },
  },
  token: {
    operationId: 'oauthToken',
    summary: 'Token endpoint: exchanges a code, or refreshes (RFC 6749)',
    description:
      'Form body (application/x-www-form-urlencoded): grant_type=authorization_code with code, redirect_uri and code_verifier; or grant_type=refresh_token with refresh_token (rotated on every use: a spent one ends the grant). Confidential apps authenticate with HTTP Basic; public apps send client_id.',
    tags: TAGS,
    body: TOKEN_REQUEST,
    bodyContentType: FORM,
    bodyExample: {
      grant_type: 'authorization_code',
      code: 'hOoSX3pWe1jZ8Gq0DmY7fQpWn4k2c9rT5uVxYzAbCdE',
      redirect_uri: 'https://app.example.org/callback',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
    responses: {
      200: {
        description: 'access_token (1 hour), token_type Bearer, expires_in, scope, refresh_token.',
        schema: TOKEN_RESPONSE,
        example: {
          access_token: 'Fq6nW7bC1xZrK9pT3mL0vS8dH2jY5gA4eU-oN_iQwRt',
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'bookings:read bookings:write',
          refresh_token: 'Lk2Jd9Rm4Tq7Wz1Xc8Vb5Nn3Gh6Yp0As-Df_Ge1HjKo',
        },
      },
      400: {
        description: 'An RFC 6749 error (invalid_grant, invalid_request, invalid_scope, unsupported_grant_type).',
        schema: OAUTH_ERROR,
      },
      401: { description: 'invalid_client.', schema: OAUTH_ERROR },
    },
  },
  revoke: {
    operationId: 'oauthRevoke',
    summary: 'Revocation endpoint (RFC 7009)',
    description:
      'Form body: token (an access or refresh token), optional token_type_hint. Revoking either ends the whole grant. 200 also for an unknown token.',
    tags: TAGS,
    body: REVOKE_REQUEST,
    bodyContentType: FORM,
    bodyExample: { token: 'Lk2Jd9Rm4Tq7Wz1Xc8Vb5Nn3Gh6Yp0As-Df_Ge1HjKo', token_type_hint: 'refresh_token' },
    responses: {
      200: {
        description: 'Revoked (or nothing to revoke); an empty body.',
        contentType: 'text/plain',
        schema: { type: 'string', maxLength: 0 },
        example: '',
      },
      400: { description: 'invalid_request.', schema: OAUTH_ERROR },
      401: { description: 'invalid_client.', schema: OAUTH_ERROR },
    },
  },
  interaction: {
    operationId: 'oauthInteractionPage',
    summary: 'The sign-in or consent page of an authorization request',
    description:
      'HTML with the fields Email and Password and the button Sign in, or the consent page naming the app, its owner and each scope with the buttons Allow and Deny. Uses the dashboard session when present.',
    tags: TAGS,
    params: UID,
    responses: {
      200: { description: 'The page.', ...HTML },
      303: REDIRECT,
      400: { description: 'The request is no longer open in this browser.', ...HTML },
    },
  },
  signIn: {
    operationId: 'oauthInteractionSignIn',
    summary: 'The sign-in form’s submission (email, password, csrf)',
    tags: TAGS,
    params: UID,
    responses: {
      303: REDIRECT,
      400: { description: 'The request is no longer open in this browser, or the form is incomplete.', ...HTML },
      401: { description: 'Wrong email or password: the form again.', ...HTML },
      403: { description: 'The CSRF token or Origin is wrong.', ...HTML },
    },
  },
  decision: {
    operationId: 'oauthInteractionDecision',
    summary: 'The consent form’s submission (decision allow or deny, csrf)',
    tags: TAGS,
    params: UID,
    responses: {
      303: REDIRECT,
      400: { description: 'The request is no longer open in this browser, or the form is incomplete.', ...HTML },
      403: { description: 'The CSRF token or Origin is wrong.', ...HTML },
    },
  },
} satisfies Record<string, RouteDoc>;
