import type { RouteDoc } from '../../rest/openapi-registry.js';

// OpenAPI descriptions of the OAuth routes (tag oauth). The protocol itself is RFC 6749, 7636,
// 7009 and 8414; docs/oauth.md is the developer's walkthrough.

const TAGS = ['oauth'];
const HTML = { contentType: 'text/html', schema: { type: 'string', description: 'An HTML document.' } };
const JSON_OBJECT = { type: 'object', additionalProperties: true };
const OAUTH_ERROR = {
  type: 'object',
  properties: { error: { type: 'string', description: 'An RFC 6749 error code, e.g. invalid_grant.' }, error_description: { type: 'string' } },
  required: ['error'],
};
const UID = { type: 'object', properties: { uid: { type: 'string', description: 'The authorization request’s interaction id.' } }, required: ['uid'] };
const REDIRECT = { description: 'A redirect (303) onward in the flow, or to the app’s redirect URI with `code` or `error`, `state` and `iss`.' };

export const OAUTH_DOCS = {
  metadata: {
    operationId: 'oauthAuthorizationServerMetadata',
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'The issuer (PUBLIC_URL), the endpoints, and what is supported: response type code, PKCE S256, grants authorization_code and refresh_token, client authentication client_secret_basic or none, the scopes. See docs/oauth.md.',
    tags: TAGS,
    responses: { 200: { description: 'The metadata.', schema: JSON_OBJECT } },
  },
  authorize: {
    operationId: 'oauthAuthorize',
    summary: 'Authorization endpoint: starts an authorization code request (PKCE S256 required)',
    description:
      'Query: response_type=code, client_id, redirect_uri (registered exactly), scope, state, code_challenge, code_challenge_method=S256. Sends the browser to Portier’s sign-in and consent page, then to the redirect URI. An unknown client or redirect URI gets an HTML error page, never a redirect.',
    tags: TAGS,
    responses: { 303: REDIRECT, 400: { description: 'Unknown client or unregistered redirect URI (an HTML page).', ...HTML } },
  },
  resume: {
    operationId: 'oauthAuthorizeResume',
    summary: 'Where the sign-in and consent pages hand the request back (internal to the flow)',
    tags: TAGS,
    params: UID,
    responses: { 303: REDIRECT, 400: { description: 'The request is no longer open in this browser (an HTML page).', ...HTML } },
  },
  jwks: {
    operationId: 'oauthJwks',
    summary: 'The authorization server’s public keys (JWKS)',
    description: 'Listed in the metadata; Portier issues opaque tokens and no ID tokens, so clients need not use it.',
    tags: TAGS,
    responses: { 200: { description: 'A JSON Web Key Set.', contentType: 'application/jwk-set+json', schema: JSON_OBJECT } },
  },
  token: {
    operationId: 'oauthToken',
    summary: 'Token endpoint: exchanges a code, or refreshes (RFC 6749)',
    description:
      'Form body (application/x-www-form-urlencoded): grant_type=authorization_code with code, redirect_uri and code_verifier; or grant_type=refresh_token with refresh_token (rotated on every use: a spent one ends the grant). Confidential apps authenticate with HTTP Basic; public apps send client_id.',
    tags: TAGS,
    responses: {
      200: { description: 'access_token (1 hour), token_type Bearer, expires_in, scope, refresh_token.', schema: JSON_OBJECT },
      400: { description: 'An RFC 6749 error (invalid_grant, invalid_request, invalid_scope, unsupported_grant_type).', schema: OAUTH_ERROR },
      401: { description: 'invalid_client.', schema: OAUTH_ERROR },
    },
  },
  revoke: {
    operationId: 'oauthRevoke',
    summary: 'Revocation endpoint (RFC 7009)',
    description: 'Form body: token (an access or refresh token), optional token_type_hint. Revoking either ends the whole grant. 200 also for an unknown token.',
    tags: TAGS,
    responses: {
      200: { description: 'Revoked (or nothing to revoke); an empty body.', contentType: 'text/plain', schema: { type: 'string', maxLength: 0 } },
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
    responses: { 200: { description: 'The page.', ...HTML }, 303: REDIRECT, 400: { description: 'The request is no longer open in this browser.', ...HTML } },
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
