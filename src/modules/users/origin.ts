/**
 * Whether a browser request comes from Portier's own pages. `Origin` must be PUBLIC_URL's origin
 * or the origin the request itself was addressed to (scheme, host and port all equal: another port
 * of the same host is another origin). `Origin: null` (an opaque origin, or a page whose
 * Referrer-Policy is no-referrer) counts only with `Sec-Fetch-Site: same-origin`, which browsers
 * set themselves. Without `Origin`, a `Sec-Fetch-Site` other than same-origin is refused; a
 * request with neither (not a current browser's) relies on the CSRF token alone.
 */
export function isOwnOrigin(
  headers: { origin?: string; secFetchSite?: string },
  own: { publicUrl: string; requestOrigin: string },
): boolean {
  const { origin, secFetchSite } = headers;
  if (origin === 'null') return secFetchSite === 'same-origin';
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
