import type { RouteDoc } from '../../kernel/route-doc.js';

// OpenAPI descriptions of the dashboard's password-reset and invitation routes (docs/dashboard.md,
// "Forgotten passwords and invitations").

const tags = ['dashboard'];
const PROBLEM = { contentType: 'application/problem+json', schema: { $ref: '#/components/schemas/Problem' } };
const FOREIGN = { 403: { description: 'csrf_failed: posted from a page of another origin.', ...PROBLEM } };
const INVALID_LINK = {
  400: { description: 'invalid_link: the link is unknown, expired or used; or a field is invalid.', ...PROBLEM },
};
const TOKEN_AND_PASSWORD = {
  type: 'object',
  required: ['token', 'password'],
  properties: {
    token: { type: 'string', description: 'The token of the mailed link.' },
    password: { type: 'string', description: 'The new password, at least 12 characters.' },
  },
};
const USER = {
  type: 'object',
  required: ['user'],
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
  },
};

export const REQUEST_RESET_DOC: RouteDoc = {
  operationId: 'dashboardRequestPasswordReset',
  summary: 'Ask for a password-reset link',
  description:
    'Always 202, whether or not the email is a user’s (no account enumeration). When it is, a single-use link to /dashboard/reset-password, valid 30 minutes, is mailed off the request path; a new request replaces the earlier link. Throttled per email and per client address (429 password_reset_throttled with Retry-After).',
  tags,
  body: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
  responses: {
    202: {
      description: 'Taken; a mail follows if the email is a user’s.',
      schema: { type: 'object', required: ['accepted'], properties: { accepted: { type: 'boolean' } } },
    },
    400: { description: 'validation_failed: not an email address.', ...PROBLEM },
    ...FOREIGN,
    429: { description: 'password_reset_throttled: too many requests; see Retry-After.', ...PROBLEM },
  },
};

export const RESET_PASSWORD_DOC: RouteDoc = {
  operationId: 'dashboardResetPassword',
  summary: 'Set a new password with a reset link',
  description:
    'Sets the password of the link’s user and ends every session of the user; signs nothing in. The link works once.',
  tags,
  body: TOKEN_AND_PASSWORD,
  responses: { 200: { description: 'The password is set.', schema: USER }, ...INVALID_LINK, ...FOREIGN },
};

export const INVITATION_DOC: RouteDoc = {
  operationId: 'dashboardInvitation',
  summary: 'Read an invitation link',
  description: 'What the accept page shows: the email, role and venue of a live invitation link.',
  tags,
  body: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
  responses: {
    200: {
      description: 'The invitation.',
      schema: {
        type: 'object',
        required: ['email', 'role', 'tenant', 'expiresAt'],
        properties: {
          email: { type: 'string' },
          role: { type: 'string', enum: ['admin', 'staff'] },
          tenant: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          expiresAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    ...INVALID_LINK,
    ...FOREIGN,
  },
};

export const ACCEPT_INVITATION_DOC: RouteDoc = {
  operationId: 'dashboardAcceptInvitation',
  summary: 'Accept an invitation',
  description:
    'Creates the invited user with the chosen password; the link is spent. Signs nothing in: the user signs in next.',
  tags,
  body: TOKEN_AND_PASSWORD,
  responses: {
    201: { description: 'The user was created.', schema: USER },
    ...INVALID_LINK,
    ...FOREIGN,
    409: { description: 'email_taken: the email became a user’s meanwhile.', ...PROBLEM },
  },
};
