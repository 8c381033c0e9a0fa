import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError } from '../../kernel/errors.js';
import { negotiateLocale } from '../../kernel/i18n.js';
import { announceCredentialChange } from '../../kernel/live/index.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { recordAudit, userActor } from '../audit/index.js';
import { isOwnOrigin } from './origin.js';
import { hashPassword } from './password.js';
import { mailPasswordReset, resetPassword } from './password-reset.service.js';
import { acceptInvitation, invitationOfLink } from './invitations.service.js';
import { parseLinkToken, parseRequestPasswordReset, parseSetPasswordByLink } from './users.commands.js';
import { csrfFailed } from './session.http.js';
import { ACCEPT_INVITATION_DOC, INVITATION_DOC, REQUEST_RESET_DOC, RESET_PASSWORD_DOC } from './staff.docs.js';

export const PASSWORD_RESET_PATH = '/dashboard/api/password-reset';
export const INVITATION_PATH = '/dashboard/api/invitation';

/**
 * The dashboard's public staff-account routes (issue #43): "forgot password", setting a password
 * with a reset link, reading and accepting an invitation. No session; each is refused from a page
 * of another origin (as sign-in is), and the links' tokens travel in bodies, never in URLs.
 */
export function registerStaffAccountRoutes(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.database.db;
  const config = (openapi: RouteDoc) => ({ auth: 'none', openapi }) as const;
  // Reset mails already promised go out before the database closes (each is bounded by the SMTP timeout).
  app.addHook('onClose', () => deps.staffAccounts.idle());
  const ownOrigin = (req: FastifyRequest) => {
    const secFetchSite = req.headers['sec-fetch-site'];
    if (
      !isOwnOrigin(
        { origin: req.headers.origin, secFetchSite: typeof secFetchSite === 'string' ? secFetchSite : undefined },
        { publicUrl: deps.env.publicUrl, requestOrigin: `${req.protocol}://${req.host}` },
      )
    )
      throw csrfFailed("the request's Origin is not Portier's own");
  };

  app.post(PASSWORD_RESET_PATH, { config: config(REQUEST_RESET_DOC) }, async (req, reply) => {
    ownOrigin(req);
    const { email } = parseRequestPasswordReset(req.body);
    // Counted alike for known and unknown emails, so the throttle tells nothing either.
    const { resetsPerEmail, resetsPerAddress } = deps.staffAccounts;
    const wait = Math.max(
      await resetsPerEmail.retryAfterSeconds(email.toLowerCase()),
      await resetsPerAddress.retryAfterSeconds(req.ip),
    );
    if (wait > 0)
      throw new DomainError(
        'RATE_LIMITED',
        'password_reset_throttled',
        `Too many password-reset requests; try again in ${wait} s`,
        { headers: { 'Retry-After': String(wait) } },
      );
    await Promise.all([resetsPerEmail.recordFailure(email.toLowerCase()), resetsPerAddress.recordFailure(req.ip)]);
    const locale = negotiateLocale(req.headers['accept-language']);
    // Off the request path: the answer and its timing are the same whether the email is a user's.
    deps.staffAccounts.later('password reset mail', () => mailPasswordReset(deps, email, locale));
    reply.header('cache-control', 'no-store');
    return reply.status(202).send({ accepted: true });
  });

  app.post(`${PASSWORD_RESET_PATH}/confirm`, { config: config(RESET_PASSWORD_DOC) }, async (req, reply) => {
    ownOrigin(req);
    const { token, password } = parseSetPasswordByLink(req.body);
    const passwordHash = await hashPassword(password);
    const now = deps.now();
    const { user } = await db.transaction().execute(async (trx) => {
      const done = await resetPassword(trx, { token, passwordHash, now });
      await recordAudit(trx, {
        tenantId: done.user.tenant_id,
        actor: userActor(done.user),
        action: 'user.password_reset',
        target: { type: 'user', id: done.user.id },
        details: { signedOutSessions: done.signedOutSessions },
        ip: req.ip,
        at: now,
      });
      return done;
    });
    // The user's open streams end in every process.
    announceCredentialChange(deps.live, user.tenant_id);
    reply.header('cache-control', 'no-store');
    return { user: { id: user.id, email: user.email, role: user.role } };
  });

  app.post(INVITATION_PATH, { config: config(INVITATION_DOC) }, async (req, reply) => {
    ownOrigin(req);
    const { token } = parseLinkToken(req.body);
    const { invitation, tenantName } = await invitationOfLink(db, token, deps.now());
    reply.header('cache-control', 'no-store');
    return {
      email: invitation.email,
      role: invitation.role,
      tenant: { name: tenantName },
      expiresAt: invitation.expires_at.toISOString(),
    };
  });

  app.post(`${INVITATION_PATH}/accept`, { config: config(ACCEPT_INVITATION_DOC) }, async (req, reply) => {
    ownOrigin(req);
    const { token, password } = parseSetPasswordByLink(req.body);
    const now = deps.now();
    const { user } = await db.transaction().execute(async (trx) => {
      const accepted = await acceptInvitation(trx, { token, password, now });
      await recordAudit(trx, {
        tenantId: accepted.user.tenant_id,
        actor: userActor(accepted.user),
        action: 'user.created',
        target: { type: 'user', id: accepted.user.id },
        details: {
          email: accepted.user.email,
          role: accepted.user.role,
          via: 'invitation',
          invitedBy: accepted.invitation.invited_by,
        },
        ip: req.ip,
        at: now,
      });
      return accepted;
    });
    reply.header('cache-control', 'no-store');
    return reply.status(201).send({ user: { id: user.id, email: user.email, role: user.role } });
  });
}
