import type { RouteDoc } from '../../rest/openapi-registry.js';

// OpenAPI descriptions of the dashboard's session routes (docs/dashboard.md has the whole story).

const tags = ['dashboard'];

const SESSION_BODY = {
  type: 'object',
  required: ['user', 'tenant', 'scopes', 'csrfToken'],
  properties: {
    user: {
      type: 'object',
      required: ['id', 'email', 'role'],
      properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string' }, role: { type: 'string', enum: ['admin', 'staff'] } },
    },
    tenant: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
    scopes: { type: 'array', items: { type: 'string' }, description: "The role's effective scopes (admin expanded)." },
    csrfToken: { type: 'string', description: 'Send as the X-CSRF-Token header with every state-changing request this session makes.' },
  },
};

const PROBLEM = { contentType: 'application/problem+json', schema: { $ref: '#/components/schemas/Problem' } };
const CSRF = { 403: { description: 'csrf_failed: the X-CSRF-Token header is missing or wrong, or the Origin is not Portier’s own.', ...PROBLEM } };
const NOT_SIGNED_IN = { 401: { description: 'not_signed_in: no session cookie, or the session has ended.', ...PROBLEM } };

export const SIGN_IN_DOC: RouteDoc = {
  operationId: 'dashboardSignIn',
  summary: 'Sign in to the dashboard',
  description:
    'Starts a session with a new id and sets the HttpOnly, SameSite=Lax cookie portier_session (Secure with an https PUBLIC_URL). An unknown email and a wrong password get the same 401 invalid_credentials; failed sign-ins are throttled per account and client address (429 sign_in_throttled with Retry-After).',
  tags,
  body: {
    type: 'object',
    required: ['email', 'password'],
    properties: { email: { type: 'string' }, password: { type: 'string' } },
  },
  responses: {
    200: { description: 'Signed in; Set-Cookie carries the session.', schema: SESSION_BODY },
    401: { description: 'invalid_credentials: the email or password is wrong.', ...PROBLEM },
    403: { description: 'csrf_failed: posted from a page of another origin.', ...PROBLEM },
    429: { description: 'sign_in_throttled: too many failed sign-ins; see Retry-After.', ...PROBLEM },
  },
};

export const SESSION_DOC: RouteDoc = {
  operationId: 'dashboardSession',
  summary: 'Who is signed in to the dashboard',
  description: 'The session of the cookie, with its CSRF token; sets no cookie.',
  tags,
  responses: { 200: { description: 'The signed-in user.', schema: SESSION_BODY }, ...NOT_SIGNED_IN },
};

export const SIGN_OUT_DOC: RouteDoc = {
  operationId: 'dashboardSignOut',
  summary: 'Sign out of the dashboard',
  description: 'Ends the session of the cookie (X-CSRF-Token required) and clears the cookie; without a live session it only clears the cookie.',
  tags,
  responses: { 204: { description: 'Signed out.' }, ...CSRF },
};

export const SIGN_OUT_EVERYWHERE_DOC: RouteDoc = {
  operationId: 'dashboardSignOutEverywhere',
  summary: 'Sign out of the dashboard everywhere',
  description: 'Ends every session of the signed-in user (X-CSRF-Token required) and clears the cookie.',
  tags,
  responses: { 204: { description: 'Every session of the user has ended.' }, ...NOT_SIGNED_IN, ...CSRF },
};
