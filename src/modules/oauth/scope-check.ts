import { isScope } from '../../kernel/auth/scopes.js';

export type ScopeCheck = { ok: true; scopes: string[] } | { ok: false; description: string };

/**
 * Whether a requested scope string may be granted as asked: every scope must be one Portier
 * knows, one the app registered, and one the signing-in user's role holds (effective scopes,
 * admin expanded). Anything beyond is refused whole — a grant is never silently narrowed.
 */
export function checkRequestedScopes(
  requested: string | undefined,
  appScopes: readonly string[],
  userScopes: readonly string[],
): ScopeCheck {
  const scopes = [...new Set((requested ?? '').split(' ').filter((s) => s !== ''))];
  if (scopes.length === 0)
    return { ok: false, description: 'scope is required: ask for at least one of the scopes the app registered' };
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) return { ok: false, description: `unknown scope: ${unknown.join(' ')}` };
  const beyondApp = scopes.filter((s) => !appScopes.includes(s));
  if (beyondApp.length) return { ok: false, description: `the app is not registered for: ${beyondApp.join(' ')}` };
  const beyondRole = scopes.filter((s) => !userScopes.includes(s));
  if (beyondRole.length)
    return { ok: false, description: `the signed-in user's role does not hold: ${beyondRole.join(' ')}` };
  return { ok: true, scopes };
}
