import type { JsonSchema } from './openapi-registry.js';
import { ProblemSchema } from '../../kernel/problem-schema.js';
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER } from '../http/api-version.js';

// The parts every operation of the OpenAPI document shares: the problem body, the rate-limit
// and request-id headers, the error responses and the security schemes.

const header = (description: string, schema: JsonSchema = { type: 'integer' }) => ({ description, schema });

export const COMMON_HEADERS = {
  'X-RateLimit-Limit': header('Requests allowed per minute for this API key, device or client address.'),
  'X-RateLimit-Remaining': header('Requests left in the current window.'),
  'X-RateLimit-Reset': header('Seconds until the current window resets.'),
  'X-Request-Id': header(
    'The request id (the X-Request-Id sent, when short and plain, or a new one); it is on every log line of the request.',
    { type: 'string' },
  ),
  'Retry-After': header('Seconds to wait before retrying.'),
  [VERSION_HEADER]: header(
    `The API version that served the request: the Portier-Version sent, or the current one (${CURRENT_API_VERSION}) when none was sent or it was refused (docs/api.md, "API versions").`,
    { type: 'string', format: 'date', enum: [...API_VERSIONS] },
  ),
};

/** Headers documented on every response. */
export const RESPONSE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  [VERSION_HEADER]: { $ref: `#/components/headers/${VERSION_HEADER}` },
};

/** The Portier-Version request header every operation takes (src/transport/http/api-version.ts). */
export const VERSION_PARAMETER = {
  name: VERSION_HEADER,
  in: 'header' as const,
  required: false,
  description: `The API version (a release date) the request is served with; without it, the current one (${CURRENT_API_VERSION}). Another value is refused with 400 unsupported_api_version. The answer names the version used in the same header. See docs/api.md, "API versions".`,
  schema: { type: 'string', format: 'date', enum: [...API_VERSIONS] } as JsonSchema,
};

/** The RFC 8288 Link header of a list's answer that has a next page (cursor paging). */
export const NEXT_LINK_HEADER = {
  description:
    'The next page, when there is one (RFC 8288): `</api/v1/…?…&after=<cursor>>; rel="next"` — the same path and filters with `after` set (docs/api.md, "Cursor paging").',
  schema: { type: 'string' },
};

/** The problem body (one definition for fastify and the document: src/kernel/problem-schema.ts). */
export const PROBLEM_SCHEMA: JsonSchema = JSON.parse(JSON.stringify(ProblemSchema)) as JsonSchema;

function problemResponse(description: string, extraHeaders: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...RESPONSE_HEADERS, ...extraHeaders },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

const retryAfter = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };
const wwwAuthenticate = {
  'WWW-Authenticate': {
    description:
      'The RFC 6750 challenge: `Bearer realm="portier"` when no credential was sent; `Bearer realm="portier", error="invalid_token", error_description="…"` when the key or token is unknown, expired or revoked.',
    schema: { type: 'string' },
    example:
      'Bearer realm="portier", error="invalid_token", error_description="The OAuth access token is unknown, expired or revoked"',
  },
};
const insufficientScope = {
  'WWW-Authenticate': {
    description:
      'On a missing scope (missing_scope) with a bearer credential, the RFC 6750 challenge `Bearer realm="portier", error="insufficient_scope", scope="…"` naming the scopes needed; absent for tenant_mismatch and for a dashboard session.',
    schema: { type: 'string' },
    example:
      'Bearer realm="portier", error="insufficient_scope", error_description="The credential lacks a scope this request needs", scope="bookings:read"',
  },
};

export const ERROR_RESPONSES = {
  BadRequest: problemResponse(
    'Malformed request or invalid fields (errors[] names each field); also an unsupported Portier-Version (unsupported_api_version).',
  ),
  Unauthorized: problemResponse('Missing, unknown or revoked credential.', wwwAuthenticate),
  Forbidden: problemResponse(
    'Valid credential, but another tenant (tenant_mismatch) or a missing scope (missing_scope).',
    insufficientScope,
  ),
  NotFound: problemResponse('No such resource in this tenant (another tenant’s resources are not found either).'),
  Conflict: problemResponse('The request conflicts with the current state.'),
  PayloadTooLarge: problemResponse('The request body is larger than 1 MiB.'),
  UnsupportedMediaType: problemResponse(
    'The body is not application/json (unsupported_media_type), or is compressed: a Content-Encoding other than identity (unsupported_content_encoding).',
  ),
  RequestTimeout: problemResponse(
    'The request did not arrive in time: headers within HEADERS_TIMEOUT_SECONDS, the whole request within REQUEST_TIMEOUT_SECONDS (request_timeout); the connection is closed.',
  ),
  RequestHeaderFieldsTooLarge: problemResponse(
    'The request headers are larger than 16 KiB (headers_too_large); the connection is closed.',
  ),
  UriTooLong: problemResponse('A path parameter is longer than 100 characters.'),
  TooManyRequests: problemResponse('Rate limit exceeded.', retryAfter),
  ServiceUnavailable: problemResponse(
    'The server is overloaded or shutting down, or its database connection was interrupted (database_unavailable); retry after Retry-After.',
    retryAfter,
  ),
} as const;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/**
 * The security schemes. `apiKey` and `oauth2` are both `Authorization: Bearer`, and a route that
 * takes one takes the other (src/transport/http/auth.ts): an operation lists both, with the same
 * scopes. `oauth2` is the authorization code flow (PKCE S256 required) of Portier's own server.
 */
export function securitySchemes(
  publicUrl: string,
  scopes: Record<string, string>,
  oauth: { authorize: string; token: string },
) {
  return {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'svc_…',
      description:
        'An API key of the tenant. The scopes listed on an operation are the ones the key needs (admin implies all).',
    },
    oauth2: {
      type: 'oauth2',
      description:
        'An OAuth 2.0 access token an app got for a tenant’s user (authorization code with PKCE S256; docs/oauth.md), sent as Authorization: Bearer. It holds the scopes granted, never more than the user’s role; the scopes listed on an operation are the ones it needs (admin implies all).',
      flows: {
        authorizationCode: {
          authorizationUrl: `${publicUrl}${oauth.authorize}`,
          tokenUrl: `${publicUrl}${oauth.token}`,
          refreshUrl: `${publicUrl}${oauth.token}`,
          scopes,
        },
      },
    },
    deviceKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'svc_dk_…',
      description: 'The device key returned once by device activation.',
    },
  };
}

/** The security requirement of a route that takes an API key or an OAuth access token: one alternative per scope set and scheme. */
export function bearerSecurity(scopeSets: readonly (readonly string[])[]): Record<string, string[]>[] {
  const sets = scopeSets.length ? scopeSets : [[]];
  return sets.flatMap((set): Record<string, string[]>[] => [{ apiKey: [...set] }, { oauth2: [...set] }]);
}

export interface ErrorSet {
  authenticated: boolean;
  hasBody: boolean;
  hasPathParams: boolean;
  /** A resource named in the path may not exist (404). */
  notFound: boolean;
  mutates: boolean;
}

/** The error responses an operation can give, by status. */
export function errorResponses(set: ErrorSet): Record<string, { $ref: string }> {
  const ref = (name: ErrorResponseName) => ({ $ref: `#/components/responses/${name}` });
  return {
    // Every operation takes Portier-Version, so any can be refused with 400 (and any argument too).
    400: ref('BadRequest'),
    ...(set.authenticated ? { 401: ref('Unauthorized'), 403: ref('Forbidden') } : {}),
    ...(set.notFound ? { 404: ref('NotFound') } : {}),
    408: ref('RequestTimeout'),
    ...(set.mutates ? { 409: ref('Conflict') } : {}),
    ...(set.hasBody ? { 413: ref('PayloadTooLarge') } : {}),
    ...(set.hasPathParams ? { 414: ref('UriTooLong') } : {}),
    ...(set.hasBody ? { 415: ref('UnsupportedMediaType') } : {}),
    429: ref('TooManyRequests'),
    431: ref('RequestHeaderFieldsTooLarge'),
    503: ref('ServiceUnavailable'),
  };
}
