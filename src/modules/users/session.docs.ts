import type { RouteDoc } from '../../kernel/route-doc.js';
import { SCOPES } from '../../kernel/auth/scopes.js';

// OpenAPI descriptions of the dashboard's session routes (docs/dashboard.md has the whole story).

const tags = ['dashboard'];

const SESSION_BODY = {
  type: 'object',
  required: ['user', 'tenant', 'scopes', 'csrfToken'],
  properties: {
    user: {
      type: 'object',
      required: ['id', 'email', 'role'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        email: { type: 'string' },
        role: { type: 'string', enum: ['admin', 'staff'] },
      },
    },
    tenant: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } },
    },
    scopes: {
      type: 'array',
      // A closed set: generated clients get a union type (issue #44).
      items: { type: 'string', enum: [...SCOPES] },
      description: "The role's effective scopes (admin expanded).",
    },
    csrfToken: {
      type: 'string',
      description: 'Send as the X-CSRF-Token header with every state-changing request this session makes.',
    },
  },
};

const PROBLEM = { contentType: 'application/problem+json', schema: { $ref: '#/components/schemas/Problem' } };
const CSRF = {
  403: {
    description: 'csrf_failed: the X-CSRF-Token header is missing or wrong, or the Origin is not Portier’s own.',
    ...PROBLEM,
  },
};
const NOT_SIGNED_IN = {
  401: { description: 'not_signed_in: no session cookie, or the session has ended.', ...PROBLEM },
};

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
  description:
    'Ends the session of the cookie (X-CSRF-Token required) and clears the cookie; without a live session it only clears the cookie.',
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

const SESSION_ITEM = {
  type: 'object',
  required: ['id', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent', 'ip', 'current'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time', description: 'When it signed in.' },
    lastSeenAt: {
      type: 'string',
      format: 'date-time',
      description: 'When it was last used (updated at most once a minute).',
    },
    expiresAt: { type: 'string', format: 'date-time', description: 'When it ends however busy it is.' },
    userAgent: {
      type: ['string', 'null'],
      description: "The browser's User-Agent at sign-in (at most 500 characters).",
    },
    ip: { type: ['string', 'null'], description: 'The client address at sign-in.' },
    current: { type: 'boolean', description: 'True for the session of this request.' },
  },
};

export const LIST_SESSIONS_DOC: RouteDoc = {
  operationId: 'dashboardListSessions',
  summary: 'Your dashboard sessions',
  description:
    "The signed-in user's live sessions (neither signed out, expired nor idle), most recently used first; the one of this request is marked current.",
  tags,
  responses: {
    200: {
      description: 'The sessions.',
      schema: {
        type: 'object',
        required: ['sessions'],
        properties: { sessions: { type: 'array', items: SESSION_ITEM } },
      },
    },
    ...NOT_SIGNED_IN,
  },
};

export const END_SESSION_DOC: RouteDoc = {
  operationId: 'dashboardEndSession',
  summary: 'Sign out one of your dashboard sessions',
  description:
    'Ends one live session of the signed-in user (X-CSRF-Token required); ending the current one also clears the cookie.',
  tags,
  responses: {
    204: { description: 'The session has ended.' },
    404: { description: 'not_found: the user has no live session with this id.', ...PROBLEM },
    ...NOT_SIGNED_IN,
    ...CSRF,
  },
};
