import { ApiError, fetchRetryingOverload } from './client';

export interface Session {
  user: { id: string; email: string; role: string };
  tenant: { id: string; name: string };
  /** Effective scopes of the user's role. */
  scopes: string[];
  csrfToken: string;
}

const SESSION_URL = '/dashboard/api/session';

async function problemOf(response: Response): Promise<ApiError> {
  let detail = `The request failed (HTTP ${response.status}).`;
  let code: string | undefined;
  try {
    const body = (await response.json()) as { detail?: string; code?: string };
    detail = body.detail ?? detail;
    code = body.code;
  } catch {
    // not JSON: keep the generic message
  }
  return new ApiError(detail, response.status, code);
}

/** The signed-in session, or null when there is none. */
export async function currentSession(): Promise<Session | null> {
  const response = await fetchRetryingOverload(SESSION_URL, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (response.status === 401) return null;
  if (!response.ok) throw await problemOf(response);
  return (await response.json()) as Session;
}

export async function signIn(email: string, password: string): Promise<Session> {
  const response = await fetchRetryingOverload(SESSION_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) {
    const error = await problemOf(response);
    const retryAfter = response.headers.get('retry-after');
    if (error.code === 'sign_in_throttled' && retryAfter) {
      throw new ApiError(`Too many sign-in attempts. Try again in ${retryAfter} seconds.`, 429, error.code);
    }
    if (error.code === 'invalid_credentials')
      throw new ApiError('The email or password is not correct.', 401, error.code);
    throw error;
  }
  return (await response.json()) as Session;
}

export async function signOut(csrfToken: string, everywhere = false): Promise<void> {
  const response = await fetchRetryingOverload(everywhere ? `${SESSION_URL}/revoke-all` : SESSION_URL, {
    method: everywhere ? 'POST' : 'DELETE',
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken },
  });
  if (!response.ok && response.status !== 401) throw await problemOf(response);
}

/** One of the user's own live sessions (GET /dashboard/api/session/sessions). */
export interface OwnSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

/** The signed-in user's live sessions, most recently used first. */
export async function listOwnSessions(): Promise<OwnSession[]> {
  const response = await fetchRetryingOverload(`${SESSION_URL}/sessions`, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw await problemOf(response);
  return ((await response.json()) as { sessions: OwnSession[] }).sessions;
}

/** Ends one of the user's sessions (another browser's, or this one). */
export async function endOwnSession(csrfToken: string, sessionId: string): Promise<void> {
  const response = await fetchRetryingOverload(`${SESSION_URL}/sessions/${encodeURIComponent(sessionId)}`, {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken },
  });
  if (!response.ok) throw await problemOf(response);
}

/** True when the scopes allow `scope` (admin allows everything). */
export function allows(scopes: readonly string[], scope: string): boolean {
  return scopes.includes('admin') || scopes.includes(scope);
}
