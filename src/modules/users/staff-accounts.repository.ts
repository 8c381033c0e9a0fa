import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { PasswordResetRow, UserInvitationRow } from '../../kernel/db/types.js';
import type { Locale } from '../../kernel/i18n.js';
import type { Role } from './roles.js';

// Password resets and invitations (issue #43): rows keep only the SHA-256 of a link's token.

/** The user's one pending reset link, replacing any earlier one. */
export async function putPasswordReset(
  db: Executor,
  values: { tenant_id: string; user_id: string; token_hash: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id']).doUpdateSet({
        token_hash: values.token_hash,
        created_at: values.created_at,
        expires_at: values.expires_at,
      }),
    )
    .execute();
}

/** Takes the reset of a token (deletes it: a link works once), whether or not it has expired. */
export async function takePasswordReset(db: Executor, tokenHash: string): Promise<PasswordResetRow | undefined> {
  return db.deleteFrom('password_resets').where('token_hash', '=', tokenHash).returningAll().executeTakeFirst();
}

export async function replaceInvitation(
  db: Executor,
  values: {
    tenant_id: string;
    email: string;
    role: Role;
    locale: Locale;
    token_hash: string;
    invited_by: string;
    created_at: Date;
    expires_at: Date;
  },
): Promise<{ invitation: UserInvitationRow; replaced: boolean }> {
  const old = await db
    .deleteFrom('user_invitations')
    .where('tenant_id', '=', values.tenant_id)
    .where(sql<string>`lower(email)`, '=', values.email.toLowerCase())
    .returning('id')
    .executeTakeFirst();
  const invitation = await db.insertInto('user_invitations').values(values).returningAll().executeTakeFirstOrThrow();
  return { invitation, replaced: old !== undefined };
}

export async function listInvitations(db: Executor, tenantId: string): Promise<UserInvitationRow[]> {
  return db
    .selectFrom('user_invitations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function deleteInvitation(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<UserInvitationRow | undefined> {
  return db
    .deleteFrom('user_invitations')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findInvitationByToken(
  db: Executor,
  tokenHash: string,
  options: { lock?: boolean } = {},
): Promise<UserInvitationRow | undefined> {
  const query = db.selectFrom('user_invitations').selectAll().where('token_hash', '=', tokenHash);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function tenantName(db: Executor, tenantId: string): Promise<string> {
  const row = await db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirstOrThrow();
  return row.name;
}
