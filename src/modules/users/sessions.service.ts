import type { Executor } from '../../kernel/db/index.js';
import type { UserRow } from '../../kernel/db/types.js';
import { randomToken, sha256, type ServerSecret } from '../../kernel/crypto.js';
import * as repo from './sessions.repository.js';

/** A session unused for this long is over (the dashboard's idle expiry). */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** A session ends this long after sign-in however busy it is: sign in once a working day. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_AFTER_MS = 60 * 1000;

export interface StartedSession {
  /** The cookie's value: returned once, stored only as a hash. */
  token: string;
  session: repo.LiveSession['session'];
}

/** A new session with a new, random id (never one the browser brought). */
export async function startSession(
  db: Executor,
  user: UserRow,
  meta: { now: Date; ip: string | null; userAgent: string | null },
): Promise<StartedSession> {
  // The user's ended sessions are cleared here: each sign-in tidies up after its predecessors.
  await repo.deleteEndedSessions(db, user.id, meta.now, new Date(meta.now.getTime() - SESSION_IDLE_MS));
  const token = randomToken(32);
  const session = await repo.insertSession(db, {
    token_hash: sha256(token),
    tenant_id: user.tenant_id,
    user_id: user.id,
    created_at: meta.now,
    last_seen_at: meta.now,
    expires_at: new Date(meta.now.getTime() + SESSION_MAX_MS),
    ip: meta.ip,
    user_agent: meta.userAgent?.slice(0, 500) ?? null,
  });
  return { token, session };
}

/** The live session behind a cookie value, or undefined; its idle clock restarts. */
export async function resumeSession(db: Executor, token: string, now: Date): Promise<repo.LiveSession | undefined> {
  if (token.length === 0 || token.length > 200) return undefined;
  const live = await repo.findLiveSession(db, sha256(token), now, new Date(now.getTime() - SESSION_IDLE_MS));
  if (live && now.getTime() - live.session.last_seen_at.getTime() >= TOUCH_AFTER_MS)
    await repo.touchSession(db, live.session.id, now);
  return live;
}

export const endSession = repo.revokeSession;
export const endSessionByToken = (db: Executor, token: string, now: Date) =>
  repo.revokeSessionByTokenHash(db, sha256(token), now);
export const endUserSessions = repo.revokeUserSessions;
export const endOneUserSession = repo.revokeUserSession;

/** A user's live sessions, most recently used first. */
export function liveUserSessions(db: Executor, userId: string, now: Date) {
  return repo.listLiveUserSessions(db, userId, now, new Date(now.getTime() - SESSION_IDLE_MS));
}

/**
 * The session's CSRF token (synchronizer-token pattern): derived from the server secret and the
 * session id, so it is stored nowhere, differs per session and dies with it.
 */
export function csrfTokenOf(secret: ServerSecret, sessionId: string): string {
  return secret.derive('dashboard-csrf', sessionId);
}

export function csrfTokenMatches(secret: ServerSecret, sessionId: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  // A page loaded before the HKDF keys (version 2) still holds the old token: derivedMatches takes either.
  return secret.derivedMatches('dashboard-csrf', sessionId, given);
}
