// RFC 6750 section 3: the `WWW-Authenticate: Bearer` challenge on a refused bearer credential (API
// keys, OAuth access tokens and device keys are all bearer tokens). No credential: the bare
// challenge; an unknown, expired or revoked one: error="invalid_token"; a valid one without the
// scope: error="insufficient_scope" with the scope needed (on the 403). docs/oauth.md, "Errors".

export const REALM = 'portier';

export interface BearerChallenge {
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  /** The scopes needed, space-separated (RFC 6749 scope syntax). */
  scope?: string;
}

/** RFC 6750 allows only %x20-21 / %x23-5B / %x5D-7E inside error_description and scope. */
const quotable = (text: string) => text.replace(/…/g, '...').replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '');

export function bearerChallenge(challenge: BearerChallenge = {}): string {
  const params = [`realm="${REALM}"`];
  if (challenge.error) params.push(`error="${challenge.error}"`);
  if (challenge.description) params.push(`error_description="${quotable(challenge.description)}"`);
  if (challenge.scope) params.push(`scope="${quotable(challenge.scope)}"`);
  return `Bearer ${params.join(', ')}`;
}

/** What the credential of a principal is called in messages: an OAuth token is never "API key". */
export function credentialName(principal: { via?: { type: string } } | null | undefined): string {
  if (principal?.via?.type === 'oauth') return 'access token';
  if (principal?.via?.type === 'session') return 'session';
  return 'API key';
}

/** The header of a 403 missing_scope, or none for a dashboard session (a cookie, not a bearer credential). */
export function insufficientScopeHeaders(
  principal: { via?: { type: string } } | null | undefined,
  scopeSets: readonly (readonly string[])[],
): Record<string, string> {
  if (principal?.via?.type === 'session') return {};
  // The first alternative: RFC 6750's scope attribute names one set of scopes.
  return {
    'WWW-Authenticate': bearerChallenge({
      error: 'insufficient_scope',
      description: 'The credential lacks a scope this request needs',
      scope: (scopeSets[0] ?? []).join(' '),
    }),
  };
}
