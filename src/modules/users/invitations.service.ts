import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { UserInvitationRow, UserRow } from '../../kernel/db/types.js';
import { randomToken, sha256 } from '../../kernel/crypto.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import * as repo from './staff-accounts.repository.js';
import * as users from './users.repository.js';
import { createUser } from './users.service.js';
import type { InviteUser } from './users.commands.js';
import { INVITATION_TTL_MS } from './staff-accounts.js';
import { invitationMail, INVITE_PAGE, linkOf, mailNotConfigured, sendStaffMail } from './staff-mail.js';
import { invalidLink } from './password-reset.service.js';

// Invitations by mail (issue #43, docs/dashboard.md): an admin names an email and a role; the
// invitee gets a single-use link, valid 7 days, chooses a password there and becomes a user.

export interface SentInvitation {
  tenantId: string;
  command: InviteUser;
  inviter: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

const emailTaken = (email: string) => conflict('email_taken', `A user with the email ${email} already exists`);

/**
 * Mails the invitation first (refused without a mail transport, or when the email is a user's
 * already); `saveInvitation` then stores it. A link whose saving fails afterwards leads nowhere.
 */
export async function mailInvitation(
  db: Executor,
  deps: AppDeps,
  input: { tenantId: string; command: InviteUser; inviter: string },
): Promise<SentInvitation> {
  const { tenantId, command } = input;
  if (await users.emailTaken(db, command.email)) throw emailTaken(command.email);
  if (!(await deps.providers.mailer(tenantId))) throw mailNotConfigured();
  const token = randomToken(32);
  const createdAt = deps.now();
  const expiresAt = new Date(createdAt.getTime() + INVITATION_TTL_MS);
  const tenant = await repo.tenantName(db, tenantId);
  const mail = invitationMail(command.locale, {
    to: command.email,
    tenant,
    inviter: input.inviter,
    role: command.role,
    link: linkOf(deps.env.publicUrl, INVITE_PAGE, token),
    days: INVITATION_TTL_MS / 86_400_000,
  });
  if (!(await sendStaffMail(deps, tenantId, tenant, mail))) throw mailNotConfigured();
  return { ...input, tokenHash: sha256(token), createdAt, expiresAt };
}

/** Stores a mailed invitation, replacing the email's earlier one in the tenant. */
export async function saveInvitation(
  db: Executor,
  sent: SentInvitation,
): Promise<{ invitation: UserInvitationRow; replaced: boolean }> {
  return repo.replaceInvitation(db, {
    tenant_id: sent.tenantId,
    email: sent.command.email,
    role: sent.command.role,
    locale: sent.command.locale,
    token_hash: sent.tokenHash,
    invited_by: sent.inviter,
    created_at: sent.createdAt,
    expires_at: sent.expiresAt,
  });
}

export const listInvitations = repo.listInvitations;

export async function revokeInvitation(db: Executor, tenantId: string, id: string): Promise<UserInvitationRow> {
  const removed = isUuid(id) ? await repo.deleteInvitation(db, tenantId, id) : undefined;
  if (!removed) throw notFound('UserInvitation', id);
  return removed;
}

/** The live invitation of a link, or invalid_link. */
export async function invitationOfLink(
  db: Executor,
  token: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<{ invitation: UserInvitationRow; tenantName: string }> {
  const invitation = await repo.findInvitationByToken(db, sha256(token), options);
  if (!invitation || invitation.expires_at.getTime() <= now.getTime()) throw invalidLink();
  return { invitation, tenantName: await repo.tenantName(db, invitation.tenant_id) };
}

/** Accepts an invitation: the user is created with the chosen password and the link is spent. */
export async function acceptInvitation(
  db: Executor,
  input: { token: string; password: string; now: Date },
): Promise<{ user: UserRow; invitation: UserInvitationRow }> {
  const { invitation } = await invitationOfLink(db, input.token, input.now, { lock: true });
  await repo.deleteInvitation(db, invitation.tenant_id, invitation.id);
  const user = await createUser(db, {
    tenantId: invitation.tenant_id,
    email: invitation.email,
    password: input.password,
    role: invitation.role,
  });
  return { user, invitation };
}
