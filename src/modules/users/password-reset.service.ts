import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { UserRow } from '../../kernel/db/types.js';
import { randomToken, sha256 } from '../../kernel/crypto.js';
import { invalidField } from '../../kernel/errors.js';
import type { Locale } from '../../kernel/i18n.js';
import * as repo from './staff-accounts.repository.js';
import * as users from './users.repository.js';
import * as sessions from './sessions.repository.js';
import { PASSWORD_RESET_TTL_MS } from './staff-accounts.js';
import { linkOf, passwordResetMail, RESET_PAGE, sendStaffMail } from './staff-mail.js';

// "Forgot password" (issue #43, docs/dashboard.md): a single-use link, valid 30 minutes, mailed
// to a user's address; only its SHA-256 is stored. A newer link replaces an older one, a password
// change since the link was issued voids it.

export const invalidLink = () =>
  invalidField('token', 'This link is invalid, expired or used already: ask for a new one', 'invalid_link');

/**
 * Mails a reset link when `email` is a user's; runs off the request path (the answer is the same
 * either way). Without a mail transport it sends nothing and logs why.
 */
export async function mailPasswordReset(deps: AppDeps, email: string, locale: Locale): Promise<void> {
  const db = deps.database.db;
  const user = await users.findUserByEmail(db, email);
  if (!user) {
    deps.log.info({ event: 'password_reset_unknown_email' }, 'password reset for an email no user has');
    return;
  }
  const mailer = await deps.providers.mailer(user.tenant_id);
  if (!mailer) {
    deps.log.warn(
      { event: 'password_reset_no_mail', tenantId: user.tenant_id, userId: user.id },
      'password reset asked, but no mail transport is configured (SMTP_URL and MAIL_FROM, or the venue’s SMTP settings): nothing sent',
    );
    return;
  }
  const token = randomToken(32);
  const now = deps.now();
  await repo.putPasswordReset(db, {
    tenant_id: user.tenant_id,
    user_id: user.id,
    token_hash: sha256(token),
    created_at: now,
    expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
  });
  const tenant = await repo.tenantName(db, user.tenant_id);
  const mail = passwordResetMail(locale, {
    to: user.email,
    tenant,
    link: linkOf(deps.env.publicUrl, RESET_PAGE, token),
    minutes: PASSWORD_RESET_TTL_MS / 60_000,
  });
  await sendStaffMail(deps, user.tenant_id, tenant, mail);
  deps.log.info(
    { event: 'password_reset_mailed', tenantId: user.tenant_id, userId: user.id },
    'password reset link mailed',
  );
}

/**
 * Sets the password of a reset link's user and ends every session of the user (nobody is signed
 * in: the user signs in with the new password). The link is spent whatever the outcome.
 */
export async function resetPassword(
  db: Executor,
  input: { token: string; passwordHash: string; now: Date },
): Promise<{ user: UserRow; signedOutSessions: number }> {
  const reset = await repo.takePasswordReset(db, sha256(input.token));
  if (!reset || reset.expires_at.getTime() <= input.now.getTime()) throw invalidLink();
  const user = await users.findUser(db, reset.tenant_id, reset.user_id);
  // A password set since the link was issued (changePassword, another reset) voids it.
  if (!user || user.password_changed_at.getTime() > reset.created_at.getTime()) throw invalidLink();
  await users.setPasswordHash(db, user.id, input.passwordHash, input.now);
  const signedOutSessions = await sessions.revokeUserSessions(db, user.id, input.now);
  return { user, signedOutSessions };
}
