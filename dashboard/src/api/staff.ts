import { ApiError, fetchRetryingOverload, type FieldError } from './client';

// The public staff-account routes (docs/dashboard.md, "Forgotten passwords and invitations"):
// no session, same-origin only (the server refuses another Origin); tokens travel in bodies.

const RESET_URL = '/dashboard/api/password-reset';
const INVITATION_URL = '/dashboard/api/invitation';

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetchRetryingOverload(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.ok) return (await response.json()) as T;
  let detail = `The request failed (HTTP ${response.status}).`;
  let code: string | undefined;
  let fields: FieldError[] = [];
  try {
    const problem = (await response.json()) as { detail?: string; code?: string; errors?: FieldError[] };
    detail = problem.detail ?? detail;
    code = problem.code;
    fields = problem.errors ?? [];
  } catch {
    // not JSON: keep the generic message
  }
  if (code === 'invalid_link') detail = 'This link is invalid, has expired or was used already. Ask for a new one.';
  const retryAfter = response.headers.get('retry-after');
  if (code === 'password_reset_throttled' && retryAfter)
    detail = `Too many requests for a reset link. Try again in ${Math.ceil(Number(retryAfter) / 60)} minutes.`;
  throw new ApiError(detail, response.status, code, fields);
}

export interface LinkUser {
  user: { id: string; email: string; role: string };
}

export interface Invitation {
  email: string;
  role: 'admin' | 'staff';
  tenant: { name: string };
  expiresAt: string;
}

export const requestPasswordReset = (email: string) => post<{ accepted: boolean }>(RESET_URL, { email });
export const resetPassword = (token: string, password: string) =>
  post<LinkUser>(`${RESET_URL}/confirm`, { token, password });
export const readInvitation = (token: string) => post<Invitation>(INVITATION_URL, { token });
export const acceptInvitation = (token: string, password: string) =>
  post<LinkUser>(`${INVITATION_URL}/accept`, { token, password });
