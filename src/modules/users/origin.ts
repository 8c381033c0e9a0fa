/**
 * Whether a browser request comes from Portier's own pages. `Origin` must be PUBLIC_URL's origin
 * or the origin the request itself was addressed to (scheme, host and port all equal: another port
 * of the same host is another origin). Without `Origin`, a `Sec-Fetch-Site` other than
 * same-origin is refused; a request with neither (not a current browser's) relies on the CSRF
 * token alone.
 */
export function isOwnOrigin(headers: { origin?: string; secFetchSite?: string }, own: { publicUrl: string; requestOrigin: string }): boolean {
  const { origin, secFetchSite } = headers;
  if (origin !== undefined) {
    const given = originOf(origin);
    if (given === undefined || given === 'null') return false;
    return given === originOf(own.publicUrl) || given === originOf(own.requestOrigin);
  }
  if (secFetchSite !== undefined) return secFetchSite === 'same-origin';
  return true;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
