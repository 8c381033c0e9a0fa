import { DateTime } from 'luxon';
import { sha256, type ServerSecret } from '../../kernel/crypto.js';
import type { CredentialType } from '../../kernel/db/types.js';
import { looksSigned } from './door-tokens.js';

// A booking's SMS code (and the opaque QR token of bookings from before signed tokens) are derived
// from PORTIER_SECRET (HMAC), so they are the same on every request and need no storage; the
// database keeps only lookup hashes. New QR tokens are signed (door-tokens.ts). The QR token has
// 192 bits, so a plain SHA-256 is a safe lookup key. An 8-digit code could be recovered from a
// plain hash by trying all 10^8 codes, so its lookup key is an HMAC under the secret as well.

export const QR_TOKEN_BYTES = 24;
export const SMS_CODE_DIGITS = 8;

export function qrToken(secret: ServerSecret, tenantId: string, bookingId: string): string {
  return secret.derive('booking-qr-token', `${tenantId}/${bookingId}`, QR_TOKEN_BYTES);
}

/** The code for one nonce; the issuer moves to the next nonce when a code is taken in the tenant. */
export function smsCode(secret: ServerSecret, tenantId: string, bookingId: string, nonce: number): string {
  return secret.deriveDigits('booking-sms-code', `${tenantId}/${bookingId}/${nonce}`, SMS_CODE_DIGITS);
}

export const qrTokenHash = (token: string): string => sha256(token);

export const smsCodeHash = (secret: ServerSecret, tenantId: string, code: string): string =>
  secret.derive('booking-sms-lookup', `${tenantId}/${code}`);

/**
 * The lookup hash an SMS code was stored under before the HKDF keys (version 2): a code sent then
 * is looked up again with it when the current hash matches nothing (docs/configuration.md).
 */
export const legacySmsCodeHash = (secret: ServerSecret, tenantId: string, code: string): string =>
  secret.derivedCandidates('booking-sms-lookup', `${tenantId}/${code}`)[1];

/**
 * The SMS code a credentials row stands for: the code of its nonce now, or — for a row stored before
 * the HKDF keys (version 2), whose hash is of the code derived then — that code, so a guest keeps
 * the code already sent.
 */
export function storedSmsCode(
  secret: ServerSecret,
  row: { tenant_id: string; booking_id: string; sms_nonce: number; sms_code_hash: string },
): string {
  const subject = `${row.tenant_id}/${row.booking_id}/${row.sms_nonce}`;
  const [current, legacy] = secret.derivedDigitsCandidates('booking-sms-code', subject, SMS_CODE_DIGITS);
  if (smsCodeHash(secret, row.tenant_id, current) === row.sms_code_hash) return current;
  return legacySmsCodeHash(secret, row.tenant_id, legacy) === row.sms_code_hash ? legacy : current;
}

const QR_TOKEN = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((QR_TOKEN_BYTES * 4) / 3)}}$`);
const SMS_CODE = new RegExp(`^\\d{${SMS_CODE_DIGITS}}$`);

/**
 * What a scanned or typed token can be: a signed QR token (a compact JWS), a legacy opaque QR
 * token, or an SMS code. Spaces and dashes inside a typed SMS code are ignored; anything of no
 * shape is not looked up at all.
 */
export function parseToken(raw: string): { type: CredentialType; value: string; signed?: true } | undefined {
  const trimmed = raw.trim();
  if (looksSigned(trimmed)) return { type: 'qr', value: trimmed, signed: true };
  if (QR_TOKEN.test(trimmed)) return { type: 'qr', value: trimmed };
  const digits = trimmed.replace(/[\s-]/g, '');
  if (SMS_CODE.test(digits)) return { type: 'sms', value: digits };
  return undefined;
}

export interface SmsMessageInput {
  code: string;
  objectName: string;
  accommodationName: string;
  timeZone: string;
  validFrom: Date;
  validUntil: Date;
}

/** The text a guest receives, with the validity in the venue's local time. */
export function smsMessage(input: SmsMessageInput): string {
  const from = DateTime.fromJSDate(input.validFrom, { zone: input.timeZone }).setLocale('en-GB');
  const until = DateTime.fromJSDate(input.validUntil, { zone: input.timeZone }).setLocale('en-GB');
  const untilText = from.hasSame(until, 'day') ? until.toFormat('HH:mm') : until.toFormat('ccc d LLL yyyy HH:mm');
  return (
    `Your door code for ${input.objectName} at ${input.accommodationName}: ${input.code}. ` +
    `Valid ${from.toFormat('ccc d LLL yyyy HH:mm')}–${untilText} (${input.timeZone}).`
  );
}
