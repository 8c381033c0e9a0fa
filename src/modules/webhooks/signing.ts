import { Webhook } from 'standardwebhooks';

// The Standard Webhooks signature scheme (DESIGN section 5), signed by the scheme's reference
// library (`standardwebhooks`, the one its receivers verify with) rather than by hand: headers
// webhook-id, webhook-timestamp and webhook-signature, `v1,<base64 HMAC-SHA256>` (docs/webhooks.md).

const WHSEC = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]{3})?$/;

export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 512;

/** Why `secret` cannot be a signing secret, or null. */
export function secretProblem(secret: unknown): string | null {
  if (typeof secret !== 'string') return 'must be a string';
  if (secret.length < SECRET_MIN_LENGTH || secret.length > SECRET_MAX_LENGTH) {
    return `must be ${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters long`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(secret) || secret.trim() !== secret)
    return 'must not contain control characters or surrounding whitespace';
  if (secret.startsWith(WHSEC)) {
    const rest = secret.slice(WHSEC.length);
    if (!BASE64.test(rest)) return 'a secret starting with whsec_ must continue with base64 (the key bytes)';
  }
  return null;
}

/** The HMAC key: the base64 decoding after `whsec_`, else the secret's UTF-8 bytes. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith(WHSEC) ? Buffer.from(secret.slice(WHSEC.length), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; timestamp in whole seconds. The key is given to
 * the library as raw bytes (signingKey): a `whsec_` secret's base64 is decoded the lenient way it
 * always was here, and a plain secret (not base64) is its UTF-8 bytes, which the library's own
 * string form would not take.
 */
export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  return new Webhook(signingKey(secret), { format: 'raw' }).sign(messageId, new Date(timestampSeconds * 1000), body);
}

/**
 * The payload version: a date that changes only with a breaking change of the payload (a field
 * removed, renamed or retyped); added fields and new event types keep it. docs/webhooks.md.
 */
export const API_VERSION = '2026-11-24';

export interface WebhookMessage {
  id: string;
  type: string;
  tenantId: string;
  /** When the event happened. */
  timestamp: Date;
  data: unknown;
  /** False for a sandbox tenant's event (test mode, docs/test-mode.md). */
  livemode: boolean;
}

/** An event as it travels: a delivery's JSON body, and an item of the events feed (docs/events.md). */
export interface Envelope {
  id: string;
  type: string;
  /** ISO 8601, UTC, milliseconds. */
  timestamp: string;
  tenantId: string;
  apiVersion: string;
  data: unknown;
  /** False for a sandbox tenant's event (test mode); last, after the keys the body always had. */
  livemode: boolean;
}

/** The envelope of `message`, its keys in the order the body has always had. */
export function envelopeOf(message: WebhookMessage): Envelope {
  return {
    id: message.id,
    type: message.type,
    timestamp: message.timestamp.toISOString(),
    tenantId: message.tenantId,
    apiVersion: API_VERSION,
    data: message.data,
    livemode: message.livemode,
  };
}

/**
 * The request body and signature headers of one attempt; `now` becomes webhook-timestamp. With
 * several secrets (during a rotation) webhook-signature carries one signature per secret,
 * space-separated, as Standard Webhooks allows: a receiver holding either secret verifies it.
 */
export function signedRequest(
  secret: string | readonly string[],
  message: WebhookMessage,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(envelopeOf(message));
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return {
    body,
    headers: {
      'webhook-id': message.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': secrets.map((k) => sign(k, message.id, timestamp, body)).join(' '),
    },
  };
}
