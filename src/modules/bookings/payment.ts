import type { ServerSecret } from '../../kernel/crypto.js';

// The payment link: PUBLIC_URL/pay/<token>. The token carries the booking id and an HMAC of it
// under PORTIER_SECRET, so it is stable, needs no storage, and cannot be forged from a database copy.

const TAG_BYTES = 18;

export function paymentToken(secret: ServerSecret, bookingId: string): string {
  const id = Buffer.from(bookingId.replace(/-/g, ''), 'hex').toString('base64url');
  return `${id}${secret.derive('payment-link', bookingId, TAG_BYTES)}`;
}

/** Links already made, per secret: a listing shows up to 100 and each costs an HMAC. Bounded. */
const madeTokens = new WeakMap<ServerSecret, Map<string, string>>();
const MAX_REMEMBERED_TOKENS = 50_000;

function rememberedToken(secret: ServerSecret, bookingId: string): string {
  let tokens = madeTokens.get(secret);
  if (!tokens) madeTokens.set(secret, (tokens = new Map<string, string>()));
  let token = tokens.get(bookingId);
  if (token === undefined) {
    token = paymentToken(secret, bookingId);
    if (tokens.size >= MAX_REMEMBERED_TOKENS) tokens.clear();
    tokens.set(bookingId, token);
  }
  return token;
}

export function paymentUrl(publicUrl: string, secret: ServerSecret, bookingId: string): string {
  return `${publicUrl}/pay/${rememberedToken(secret, bookingId)}`;
}

/** The booking id a token is for, or undefined when the token is not one Portier issued. */
export function bookingIdOfPaymentToken(secret: ServerSecret, token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{46}$/.test(token)) return undefined;
  const hex = Buffer.from(token.slice(0, 22), 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  // A link given out before the HKDF keys (version 2) still opens: derivedMatches takes either form.
  return secret.derivedMatches('payment-link', id, token.slice(22), TAG_BYTES) ? id : undefined;
}
