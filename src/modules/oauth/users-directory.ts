import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { isUuid } from '../../kernel/validation.js';
import { effectiveScopesOfRole, sessionUserOf, verifyCredentials } from '../users/index.js';
import type { OAuthUser, UserDirectory } from './directory.js';
import { ANONYMOUS_ACTOR, recordAudit } from '../audit/index.js';

// The users module seen from the authorization pages: the dashboard session when the browser has
// one, else Portier's own email and password check, throttled like the dashboard's sign-in.

export function usersDirectory(deps: AppDeps): UserDirectory {
  const db = deps.database.db;
  return {
    async fromSession(req: FastifyRequest) {
      const signedIn = await sessionUserOf(req);
      if (!signedIn) return null;
      return {
        userId: signedIn.user.id,
        email: signedIn.user.email,
        role: signedIn.user.role,
        tenantId: signedIn.tenant.id,
        tenantName: signedIn.tenant.name,
        scopes: signedIn.scopes,
      };
    },

    async signIn(req: FastifyRequest, email: string, password: string) {
      const throttle = req.server.dashboardSessions.throttle;
      const attempt = { account: email.toLowerCase(), address: req.ip };
      // Counted before it is judged, as on the dashboard's sign-in.
      const ticket = await throttle.take(attempt);
      if (!ticket.allowed) {
        const wait = ticket.retryAfterSeconds;
        return { ok: false, message: `Too many failed sign-ins; try again in ${wait} s.`, retryAfterSeconds: wait };
      }
      const verified = await verifyCredentials(db, email, password);
      await ticket.judged(verified.ok);
      if (!verified.ok) {
        // Audited like the dashboard's failed sign-in: the actor is whoever tried, not signed in.
        if (verified.user) {
          await recordAudit(db, {
            tenantId: verified.user.tenant_id,
            actor: ANONYMOUS_ACTOR,
            action: 'session.sign_in_failed',
            target: { type: 'user', id: verified.user.id },
            details: { via: 'oauth_authorization' },
            ip: req.ip,
            at: deps.now(),
          });
        }
        return { ok: false, message: 'The email or password is wrong.' };
      }
      const { user, tenant } = verified.found;
      return {
        ok: true,
        user: {
          userId: user.id,
          email: user.email,
          role: user.role,
          tenantId: tenant.id,
          tenantName: tenant.name,
          scopes: effectiveScopesOfRole(user.role),
        },
      };
    },

    async find(userId: string): Promise<OAuthUser | null> {
      if (!isUuid(userId)) return null;
      const row = await db
        .selectFrom('users as u')
        .innerJoin('tenants as t', 't.id', 'u.tenant_id')
        .select(['u.id', 'u.email', 'u.role', 't.id as tenant_id', 't.name as tenant_name'])
        .where('u.id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        userId: row.id,
        email: row.email,
        role: row.role,
        tenantId: row.tenant_id,
        tenantName: row.tenant_name,
        scopes: effectiveScopesOfRole(row.role),
      };
    },
  };
}
