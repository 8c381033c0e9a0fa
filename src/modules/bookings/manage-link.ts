import type { ServerSecret } from '../../kernel/crypto.js';

// The guest's manage link: PUBLIC_URL/b/<token> (issue #41, docs/booking-page.md). The token is the
// booking id (22 base64url characters) and an HMAC of the id and the booking's guest_link_version
// under PORTIER_SECRET: unguessable, scoped to one booking, and revoked by raising the version
// (every link given out before stops working). Nothing about the token is stored.

const ID_CHARS = 22;
const TAG_BYTES = 24;
const TOKEN = /^[A-Za-z0-9_-]{54}$/;

export function manageToken(secret: ServerSecret, bookingId: string, version: number): string {
  const id = Buffer.from(bookingId.replace(/-/g, ''), 'hex').toString('base64url');
  return `${id}${secret.derive('guest-manage-link', `${bookingId}.${version}`, TAG_BYTES)}`;
}

export function manageUrl(publicUrl: string, secret: ServerSecret, bookingId: string, version: number): string {
  return `${publicUrl}/b/${manageToken(secret, bookingId, version)}`;
}

/** The booking id a token names (not yet verified: check it with `isManageToken` and the version). */
export function bookingIdOfManageToken(token: string): string | undefined {
  if (!TOKEN.test(token)) return undefined;
  const hex = Buffer.from(token.slice(0, ID_CHARS), 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether `token` is the current manage link of the booking (constant time). A link given out before
 * the HKDF keys (version 2) still opens: derivedMatches takes either form.
 */
export function isManageToken(secret: ServerSecret, token: string, bookingId: string, version: number): boolean {
  const id = Buffer.from(bookingId.replace(/-/g, ''), 'hex').toString('base64url');
  if (!token.startsWith(id)) return false;
  return secret.derivedMatches('guest-manage-link', `${bookingId}.${version}`, token.slice(id.length), TAG_BYTES);
}
