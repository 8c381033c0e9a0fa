import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerSecret } from '../../kernel/crypto.js';
import { randomToken } from '../../kernel/crypto.js';

// CSRF protection of the interaction forms: a random cookie (HttpOnly, SameSite=Strict, scoped
// to the interaction pages) and, in each form, an HMAC of it bound to the interaction. A POST
// must carry both, and an Origin header, when sent, must be Portier's own.

export const CSRF_COOKIE = 'portier_oauth_csrf';

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}

/** The form token for this interaction; sets the cookie when the browser has none yet. */
export function csrfTokenFor(
  req: FastifyRequest,
  reply: FastifyReply,
  secret: ServerSecret,
  uid: string,
  options: { path: string; secure: boolean },
): string {
  let value = readCookie(req, CSRF_COOKIE);
  if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
    value = randomToken(32);
    reply.header(
      'set-cookie',
      `${CSRF_COOKIE}=${value}; Path=${options.path}; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}`,
    );
  }
  return secret.derive('oauth-interaction-csrf', `${value}:${uid}`);
}

export function csrfValid(
  req: FastifyRequest,
  secret: ServerSecret,
  uid: string,
  presented: unknown,
  publicUrl: string,
): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== new URL(publicUrl).origin) return false;
  const value = readCookie(req, CSRF_COOKIE);
  if (!value || typeof presented !== 'string') return false;
  return secret.derivedMatches('oauth-interaction-csrf', `${value}:${uid}`, presented);
}
