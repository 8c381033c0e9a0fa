import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

// Drives Portier's authorization pages without a browser (plain HTTP with a cookie jar), for the
// negative tests and the two-process test. The end-to-end test clicks through them in Chromium.

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}
export type Http = (req: {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<HttpResponse>;

export function injectHttp(fastify: FastifyInstance): Http {
  return async ({ method, url, headers, body }) => {
    const path = url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url;
    const res = await fastify.inject({ method, url: path, headers, payload: body });
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };
}

export function fetchHttp(base: string): Http {
  return async ({ method, url, headers, body }) => {
    const res = await fetch(new URL(url, base), { method, headers, body, redirect: 'manual' });
    const out: Record<string, string | string[]> = {};
    res.headers.forEach((value, key) => (out[key] = value));
    const cookies = res.headers.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
    return { status: res.status, headers: out, text: await res.text() };
  };
}

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(initial?: string) {
    if (initial) this.add(initial);
  }
  add(cookie: string): void {
    const [pair] = cookie.split(';');
    const index = pair.indexOf('=');
    if (index > 0) this.cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
  }
  take(res: HttpResponse): void {
    const header = res.headers['set-cookie'];
    for (const cookie of Array.isArray(header) ? header : header !== undefined ? [String(header)] : [])
      this.add(cookie);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(params: {
  clientId: string;
  redirectUri: string;
  scope?: string;
  state?: string;
  challenge?: string;
  method?: string;
}): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
  });
  if (params.scope !== undefined) q.set('scope', params.scope);
  if (params.state !== undefined) q.set('state', params.state);
  if (params.challenge !== undefined) {
    q.set('code_challenge', params.challenge);
    q.set('code_challenge_method', params.method ?? 'S256');
  }
  return `/oauth/authorize?${q.toString()}`;
}

function location(res: HttpResponse): string | undefined {
  const value = res.headers.location;
  return Array.isArray(value) ? value[0] : value === undefined ? undefined : String(value);
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];
const actionOf = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1];

export interface FlowResult {
  /** Where Portier finally sent the browser (the app's redirect URI with code or error), if it did. */
  redirect?: URL;
  /** The last response on Portier's side. */
  last: HttpResponse;
  /** Pages seen, by kind. */
  pages: ('sign-in' | 'consent' | 'error')[];
}

/**
 * Follows the authorization request through Portier's pages: signs in with the form (unless the
 * jar holds a dashboard session), then answers the consent page.
 */
export async function runAuthorization(
  http: Http,
  options: {
    url: string;
    origin: string;
    email?: string;
    password?: string;
    decision?: 'allow' | 'deny';
    jar?: CookieJar;
  },
): Promise<FlowResult> {
  const jar = options.jar ?? new CookieJar();
  const pages: FlowResult['pages'] = [];
  let next: { method: 'GET' | 'POST'; url: string; body?: string } | undefined = { method: 'GET', url: options.url };
  let last: HttpResponse | undefined;
  for (let hop = 0; hop < 12 && next; hop += 1) {
    const headers: Record<string, string> = { cookie: jar.header() };
    if (next.method === 'POST')
      Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin: options.origin });
    last = await http({ ...next, headers });
    // A busy test machine may shed load (503 with Retry-After); a browser user would retry too.
    for (let retry = 0; last.status === 503 && retry < 5; retry += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      last = await http({ ...next, headers });
    }
    jar.take(last);
    const to = location(last);
    if (last.status >= 300 && last.status < 400 && to) {
      const target = new URL(to, options.origin);
      if (target.origin !== options.origin) return { redirect: target, last, pages };
      next = { method: 'GET', url: target.pathname + target.search };
      continue;
    }
    if (last.status !== 200 && last.status !== 401) {
      pages.push('error');
      break;
    }
    const csrf = csrfOf(last.text);
    const action = actionOf(last.text);
    if (!csrf || !action) break;
    if (action.endsWith('/sign-in')) {
      if (pages.includes('sign-in') || !options.email) {
        pages.push('sign-in');
        break;
      }
      pages.push('sign-in');
      next = {
        method: 'POST',
        url: action,
        body: new URLSearchParams({ csrf, email: options.email, password: options.password ?? '' }).toString(),
      };
    } else {
      pages.push('consent');
      next = {
        method: 'POST',
        url: action,
        body: new URLSearchParams({ csrf, decision: options.decision ?? 'allow' }).toString(),
      };
    }
  }
  if (!last) throw new Error('no response');
  return { last, pages };
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** A token or revocation endpoint request with a form body. */
export async function formPost(
  http: Http,
  url: string,
  params: Record<string, string>,
  auth?: string,
): Promise<{ status: number; body: Record<string, unknown>; headers: HttpResponse['headers'] }> {
  const res = await http({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
    body: new URLSearchParams(params).toString(),
  });
  let body: Record<string, unknown>;
  try {
    body = res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};
  } catch {
    body = { raw: res.text };
  }
  return { status: res.status, body, headers: res.headers };
}
