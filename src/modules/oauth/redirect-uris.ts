// Which redirect URIs an app may register (RFC 9700 §2.1 and RFC 8252 for native apps). Pure.

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export type RedirectUriKind = 'web' | 'loopback' | 'private-use';

/** Why a redirect URI is refused, or its kind. */
export function classifyRedirectUri(value: string): { kind: RedirectUriKind } | { error: string } {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000)
    return { error: 'must be a URL of at most 2000 characters' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `${JSON.stringify(value)} is not an absolute URL` };
  }
  if (url.hash || value.includes('#')) return { error: `${value} must not contain a fragment` };
  if (url.username || url.password) return { error: `${value} must not contain credentials` };
  if (url.protocol === 'https:') return { kind: 'web' };
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return { kind: 'loopback' };
    return { error: `${value}: http is allowed only for a loopback host (localhost, 127.0.0.1, [::1]); use https` };
  }
  // A native app's private-use scheme is a reverse domain name (RFC 8252 §7.1), e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) return { kind: 'private-use' };
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol))
    return { error: `${value}: the scheme ${url.protocol} is not allowed` };
  return {
    error: `${value}: use https, http on a loopback host, or a reverse-domain private-use scheme such as com.example.app:/callback`,
  };
}
