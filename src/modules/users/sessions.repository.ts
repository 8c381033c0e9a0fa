import type { Executor } from '../../kernel/db/index.js';
import type { TenantRow, UserRow, UserSessionRow } from '../../kernel/db/types.js';

export async function insertSession(
  db: Executor,
  values: {
    token_hash: string;
    tenant_id: string;
    user_id: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  },
): Promise<UserSessionRow> {
  return db.insertInto('user_sessions').values(values).returningAll().executeTakeFirstOrThrow();
}

export interface LiveSession {
  session: UserSessionRow;
  user: UserRow;
  tenant: TenantRow;
}

/** The session behind a token hash with its user and tenant, when neither revoked nor expired. */
export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
  idleSince: Date,
): Promise<LiveSession | undefined> {
  const row = await db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('tenants as t', 't.id', 's.tenant_id')
    .selectAll('s')
    .select([
      'u.email as u_email',
      'u.role as u_role',
      'u.password_hash as u_password_hash',
      'u.created_at as u_created_at',
      'u.password_changed_at as u_password_changed_at',
      't.name as t_name',
      't.created_at as t_created_at',
      't.livemode as t_livemode',
      't.live_tenant_id as t_live_tenant_id',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    u_email,
    u_role,
    u_password_hash,
    u_created_at,
    u_password_changed_at,
    t_name,
    t_created_at,
    t_livemode,
    t_live_tenant_id,
    ...session
  } = row;
  return {
    session,
    user: {
      id: session.user_id,
      tenant_id: session.tenant_id,
      email: u_email,
      role: u_role,
      password_hash: u_password_hash,
      created_at: u_created_at,
      password_changed_at: u_password_changed_at,
    },
    tenant: {
      id: session.tenant_id,
      name: t_name,
      created_at: t_created_at,
      livemode: t_livemode,
      live_tenant_id: t_live_tenant_id,
    },
  };
}

export async function touchSession(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('user_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionByTokenHash(db: Executor, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user except `keep`; returns how many. */
export async function revokeUserSessions(db: Executor, userId: string, now: Date, keep?: string): Promise<number> {
  let query = db
    .updateTable('user_sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) query = query.where('id', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A user's sessions that have ended (revoked, expired or idle too long): of no further use. */
export async function deleteEndedSessions(db: Executor, userId: string, now: Date, idleSince: Date): Promise<void> {
  await db
    .deleteFrom('user_sessions')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]),
    )
    .execute();
}

/** A user's live sessions (neither revoked, expired nor idle too long), most recently used first. */
export async function listLiveUserSessions(
  db: Executor,
  userId: string,
  now: Date,
  idleSince: Date,
): Promise<UserSessionRow[]> {
  return db
    .selectFrom('user_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends one live session of a user; false when the user has no live session with this id. */
export async function revokeUserSession(db: Executor, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('user_sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
