import type { Resolvers, UserRole } from '../../../generated/graphql.js';
import { requireApiKey, tenantOf } from '../../kernel/auth/principal.js';
import { forbidden } from '../../kernel/errors.js';
import { connectionSelection, inTransaction } from '../../kernel/graphql-helpers.js';
import { actorOf, listAuditLog, parseListAuditLog } from '../audit/index.js';
import { auditRequest as audit } from '../audit/index.js';
import { announceCredentialChange } from '../../kernel/live/index.js';
import { effectiveScopesOfRole, type Role } from './roles.js';
import * as users from './users.service.js';
import * as invitations from './invitations.service.js';
import { parseChangePassword, parseCreateUser, parseInviteUser, parseUpdateUserRole } from './users.commands.js';

const roleOf = (role: UserRole): Role => (role === 'ADMIN' ? 'admin' : 'staff');
const graphqlRole = (role: Role): UserRole => (role === 'admin' ? 'ADMIN' : 'STAFF');

export const userResolvers: Resolvers = {
  Query: {
    viewerUser: async (_, __, ctx) => {
      const key = requireApiKey(ctx.principal);
      if (!key.via) return null;
      return users.getUser(ctx.db, key.tenantId, key.via.userId);
    },
    users: (_, a, ctx) => users.listUsers(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    userInvitations: (_, a, ctx) => invitations.listInvitations(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    auditLog: (_, a, ctx, info) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return listAuditLog(
        ctx.db,
        tenantId,
        parseListAuditLog({ first: a.first, after: a.after }),
        connectionSelection(info).totalCount,
      );
    },
  },
  Mutation: {
    createUser: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateUser({ email: a.email, password: a.password, role: a.role ? roleOf(a.role) : null });
      const { role } = command;
      return inTransaction(ctx, async (trx) => {
        const user = await users.createUser(trx, { tenantId, ...command });
        await audit(ctx, trx, tenantId, 'user.created', { type: 'user', id: user.id }, { email: user.email, role });
        return user;
      });
    },
    inviteUser: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseInviteUser({
        email: a.email,
        role: a.role ? roleOf(a.role) : null,
        locale: a.locale ? a.locale.toLowerCase() : null,
      });
      const inviter = (await actorOf(ctx.db, ctx.principal)).label;
      // The mail goes first: without a transport (or when it refuses) nothing is stored.
      const sent = await invitations.mailInvitation(ctx.db, ctx.deps, { tenantId, command, inviter });
      return inTransaction(ctx, async (trx) => {
        const { invitation, replaced } = await invitations.saveInvitation(trx, sent);
        await audit(
          ctx,
          trx,
          tenantId,
          'user.invited',
          { type: 'invitation', id: invitation.id },
          { email: invitation.email, role: invitation.role, replaced },
        );
        return invitation;
      });
    },
    revokeUserInvitation: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const removed = await invitations.revokeInvitation(trx, tenantId, a.id);
        await audit(
          ctx,
          trx,
          tenantId,
          'user.invitation_revoked',
          { type: 'invitation', id: removed.id },
          { email: removed.email, role: removed.role },
        );
        return { revokedInvitationId: removed.id };
      });
    },
    updateUserRole: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { role } = parseUpdateUserRole({ role: roleOf(a.role) });
      const changed = inTransaction(ctx, async (trx) => {
        const { user, previous } = await users.updateUserRole(trx, tenantId, a.id, role);
        if (previous !== user.role)
          await audit(
            ctx,
            trx,
            tenantId,
            'user.role_changed',
            { type: 'user', id: user.id },
            { email: user.email, from: previous, to: user.role },
          );
        return user;
      });
      // Committed: the user's open streams (sessions, OAuth tokens) are re-checked in every process.
      return changed.then((user) => (announceCredentialChange(ctx.deps.live, tenantId), user));
    },
    removeUser: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const removed = inTransaction(ctx, async (trx) => {
        const removed = await users.removeUser(trx, tenantId, a.id);
        await audit(
          ctx,
          trx,
          tenantId,
          'user.removed',
          { type: 'user', id: removed.id },
          { email: removed.email, role: removed.role },
        );
        return { removedUserId: removed.id };
      });
      return removed.then((payload) => (announceCredentialChange(ctx.deps.live, tenantId), payload));
    },
    changePassword: (_, a, ctx) => {
      const key = requireApiKey(ctx.principal);
      const via = key.via;
      if (via?.type !== 'session')
        throw forbidden('Only a user signed in to the dashboard can change their password', 'session_required');
      const command = parseChangePassword({ currentPassword: a.currentPassword, newPassword: a.newPassword });
      const changed = inTransaction(ctx, async (trx) => {
        const signedOutSessions = await users.changePassword(trx, { id: via.userId, tenantId: key.tenantId }, command, {
          now: ctx.deps.now(),
          keepSessionId: via.sessionId,
        });
        await audit(
          ctx,
          trx,
          key.tenantId,
          'user.password_changed',
          { type: 'user', id: via.userId },
          { signedOutSessions },
        );
        return { user: await users.getUser(trx, key.tenantId, via.userId), signedOutSessions };
      });
      // The other sessions signed out: their open streams end in every process.
      return changed.then((payload) => (announceCredentialChange(ctx.deps.live, key.tenantId), payload));
    },
  },
  User: {
    role: (row) => graphqlRole(row.role),
    scopes: (row) => effectiveScopesOfRole(row.role),
    createdAt: (row) => row.created_at,
    passwordChangedAt: (row) => row.password_changed_at,
  },
  UserInvitation: {
    role: (row) => graphqlRole(row.role),
    locale: (row) => (row.locale === 'de' ? 'DE' : 'EN'),
    invitedBy: (row) => row.invited_by,
    createdAt: (row) => row.created_at,
    expiresAt: (row) => row.expires_at,
    expired: (row, _, ctx) => row.expires_at.getTime() <= ctx.deps.now().getTime(),
  },
  AuditLogEntry: {
    occurredAt: (row) => row.occurred_at,
    actor: (row) => ({ type: row.actor_type, id: row.actor_id, label: row.actor_label }),
    targetType: (row) => row.target_type,
    targetId: (row) => row.target_id,
    ipAddress: (row) => row.ip,
  },
};
