import { connectionOf, encodeCursor, type Connection } from '../../kernel/paging.js';
import { ACCESS_LOG_CURSOR, type AccessLogConnectionCommand, type ListAccessLog } from './access.commands.js';
import QRCode from 'qrcode';
import type { Executor } from '../../kernel/db/index.js';
import type { Kysely } from 'kysely';
import type { AccessLogRow, BookingCredentialRow, DB } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { DevicePrincipal } from '../../kernel/auth/principal.js';
import { DomainError, forbidden, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { smsGuessKey } from './sms-guessing.js';
import { decideAccess, type DenialReason } from './access.decision.js';
import {
  legacySmsCodeHash,
  parseToken,
  qrTokenHash,
  smsCode,
  smsCodeHash,
  smsMessage,
  storedSmsCode,
} from './credentials.js';
import { doorTokenKeyId, verifyDoorToken } from './door-tokens.js';
import {
  ensureSignedToken,
  signedQrToken,
  tokenFieldsOf,
  type CredentialBookingWindow,
} from './door-credentials.service.js';
import * as repo from './access.repository.js';

/** Attempts before giving up on a free SMS code (each collides with probability bookings / 10^8). */
const MAX_SMS_NONCE = 50;

/**
 * Issues a booking's credentials (idempotent): a signed QR token for the booking's window (its id,
 * key and window are stored; the token is signed again on request) and an SMS code. The SMS code
 * is unique among all of the tenant's bookings, never reused: a code reassigned after a booking
 * ended would let its former guest in.
 */
export async function issueCredentials(
  trx: Executor,
  deps: AppDeps,
  booking: { id: string; tenant_id: string; object_id?: string; start_time?: Date; end_time?: Date },
  /**
   * fresh: the booking was inserted in `trx`, so it has none yet and the lookup is skipped (the
   * insert still yields to any).
   */
  options: { fresh?: boolean } = {},
): Promise<BookingCredentialRow> {
  const existing = options.fresh ? undefined : await repo.findCredentials(trx, booking.tenant_id, booking.id);
  if (existing) return existing;
  const { object_id, start_time, end_time } =
    booking.object_id && booking.start_time && booking.end_time
      ? { object_id: booking.object_id, start_time: booking.start_time, end_time: booking.end_time }
      : await repo.findBookingWindow(trx, booking.tenant_id, booking.id);
  const window = { id: booking.id, tenant_id: booking.tenant_id, object_id, start_time, end_time };
  const token = tokenFieldsOf(window);
  for (let nonce = 0; nonce < MAX_SMS_NONCE; nonce += 1) {
    // The statement reads the tenant's active key itself (one round trip fewer than reading it first).
    const row = await repo.insertCredentials(trx, credentialsValues(deps, window, token, nonce));
    // The tenant's first credentials: it had no key yet, so one is made and the token signed with it.
    if (row) return row.key_id ? row : ensureSignedToken(trx, deps, row, window);
    // Issued already (or concurrently) for this booking, or the code is taken: then try the next nonce.
    const concurrent = await repo.findCredentials(trx, booking.tenant_id, booking.id);
    if (concurrent) return concurrent;
  }
  throw new Error(`No free SMS code for booking ${booking.id} after ${MAX_SMS_NONCE} attempts`);
}

function credentialsValues(
  deps: AppDeps,
  booking: CredentialBookingWindow,
  token: ReturnType<typeof tokenFieldsOf>,
  nonce: number,
): repo.NewCredentials {
  const code = smsCode(deps.secret, booking.tenant_id, booking.id, nonce);
  return {
    tenant_id: booking.tenant_id,
    booking_id: booking.id,
    qr_token_hash: null,
    ...token,
    sms_code_hash: smsCodeHash(deps.secret, booking.tenant_id, code),
    sms_nonce: nonce,
    created_at: deps.now(),
  };
}

/**
 * The credentials of a booking being inserted, for the booking's own statement (a data-modifying
 * CTE): `insert` writes them with the first SMS code and the tenant's active key, returning the
 * key id; `settle`, given what it returned, finishes the rare cases in `trx` afterwards — nothing
 * (the SMS code was taken: the next ones are tried) or no key (the tenant's first credentials: a key
 * is made and the token signed with it).
 */
export function newBookingCredentials(trx: Executor, deps: AppDeps, booking: CredentialBookingWindow) {
  return {
    insert: repo
      .credentialsInsert(trx, credentialsValues(deps, booking, tokenFieldsOf(booking), 0))
      .returning('key_id'),
    async settle(inserted: { key_id: string | null } | undefined): Promise<void> {
      if (!inserted) await issueCredentials(trx, deps, booking);
      else if (!inserted.key_id) {
        const row = await repo.findCredentials(trx, booking.tenant_id, booking.id);
        if (row) await ensureSignedToken(trx, deps, row, booking);
      }
    },
  };
}

export interface BookingCredentials {
  bookingId: string;
  validFrom: Date;
  validUntil: Date;
  qrCode: { token: string; svg: string };
  sms: { code: string; message: string };
}

/**
 * A booking's credentials, derived again from PORTIER_SECRET (so the same on every request).
 * Bookings from before credentials existed get theirs here; `trx` must be the caller's transaction.
 */
export async function getCredentials(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  bookingId: string,
): Promise<BookingCredentials> {
  const booking = isUuid(bookingId) ? await repo.findCredentialBooking(trx, tenantId, bookingId) : undefined;
  if (!booking) throw notFound('Booking', bookingId);
  const window = {
    id: booking.id,
    tenant_id: tenantId,
    object_id: booking.object_id,
    start_time: booking.start_time,
    end_time: booking.end_time,
  };
  const issued = await ensureSignedToken(trx, deps, await issueCredentials(trx, deps, window), window);
  const token = await signedQrToken(trx, deps, issued);
  const code = storedSmsCode(deps.secret, issued);
  return {
    bookingId: booking.id,
    validFrom: booking.start_time,
    validUntil: booking.end_time,
    qrCode: { token, svg: await QRCode.toString(token, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) },
    sms: {
      code,
      message: smsMessage({
        code,
        objectName: booking.object_name,
        accommodationName: booking.accommodation_name,
        timeZone: booking.time_zone,
        validFrom: booking.start_time,
        validUntil: booking.end_time,
      }),
    },
  };
}

export type AccessResult =
  { allowed: true; behavior: string; unlockDurationSeconds: number } | { allowed: false; reason: DenialReason };

export interface AccessCheckInput {
  token: string;
  doorId: string;
}

/**
 * Verifies a scanned token for a door of the calling device. Every check is written to the access
 * log. A door the device does not drive is refused (403) before the check. A credential that opens
 * the door now is never refused, whatever others typed before: only SMS-shaped tokens that do not
 * open the door are counted per door, and past the limit they are refused (429, reason
 * too_many_invalid_tokens in the log) without saying whether the code exists.
 */
export async function checkAccess(
  db: Kysely<DB>,
  deps: AppDeps,
  device: DevicePrincipal,
  input: AccessCheckInput,
): Promise<AccessResult> {
  const now = deps.now();
  const writer = deps.accessLog;
  const smsGuesses = deps.limits.smsCodes;
  let tokenId: string | null = null;
  const log = async (entry: {
    booking_id?: string | null;
    credential_type?: 'qr' | 'sms' | null;
    allowed: boolean;
    reason: string | null;
  }) =>
    writer.append({
      tenant_id: device.tenantId,
      device_id: device.deviceId,
      door_id: input.doorId,
      booking_id: entry.booking_id ?? null,
      credential_type: entry.credential_type ?? null,
      allowed: entry.allowed,
      reason: entry.reason,
      checked_at: now,
      token_id: tokenId,
    });
  const notAssigned = async () => {
    await log({ allowed: false, reason: 'door_not_assigned' });
    return forbidden(`Door ${input.doorId} is not driven by this device`, 'door_not_assigned');
  };

  if (!isUuid(input.doorId)) throw await notAssigned();
  const parsed = parseToken(input.token);
  let credential: repo.CredentialKey | undefined;
  if (parsed?.signed) {
    const claims = await verifiedClaims(db, deps, device.tenantId, parsed.value);
    if (claims) {
      tokenId = claims.jti;
      credential = { type: 'signed', bookingId: claims.sub, tokenId: claims.jti };
    }
  } else if (parsed) {
    credential = {
      type: parsed.type,
      hash: parsed.type === 'qr' ? qrTokenHash(parsed.value) : smsCodeHash(deps.secret, device.tenantId, parsed.value),
    };
  }
  const lookup = { tenantId: device.tenantId, deviceId: device.deviceId, doorId: input.doorId };
  let found = await repo.lookupAccess(db, { ...lookup, credential });
  // An SMS code sent before the HKDF keys (version 2) is stored under the old lookup hash: asked
  // again with it only when the current one matched no booking (a denial's path, not the usual one).
  if (found && !found.booking && parsed?.type === 'sms' && !parsed.signed)
    found = await repo.lookupAccess(db, {
      ...lookup,
      credential: { type: 'sms', hash: legacySmsCodeHash(deps.secret, device.tenantId, parsed.value) },
    });
  if (!found) throw await notAssigned();

  const { booking, door } = found;
  const decision = decideAccess(
    booking && {
      bookingStatus: booking.status,
      validFrom: booking.start_time,
      validUntil: booking.end_time,
      doorServesObject: booking.door_serves_object,
    },
    now,
  );
  if (!decision.allowed && parsed?.type === 'sms') {
    const key = smsGuessKey(input.doorId);
    const wait = await smsGuesses.retryAfterSeconds(key);
    if (wait > 0) {
      await log({ allowed: false, reason: 'too_many_invalid_tokens' });
      throw new DomainError(
        'RATE_LIMITED',
        'too_many_invalid_tokens',
        `Too many wrong SMS codes at this door; try again in ${wait} s`,
        {
          headers: { 'Retry-After': String(wait) },
        },
      );
    }
    if (decision.reason === 'invalid_token') await smsGuesses.recordFailure(key);
  }
  await log({
    booking_id: booking?.id,
    credential_type: booking ? parsed?.type : null,
    allowed: decision.allowed,
    reason: decision.allowed ? null : decision.reason,
  });
  if (!decision.allowed) return decision;
  return { allowed: true, behavior: door.behavior, unlockDurationSeconds: door.unlock_duration_seconds };
}

/**
 * The claims of a signed token of this tenant whose signature verifies, or undefined (unknown key
 * id, another tenant's key or claim, any algorithm but EdDSA, an altered token). The key comes from
 * the per-process cache; the token's window is not read here: the booking's is, from the database.
 */
async function verifiedClaims(db: Kysely<DB>, deps: AppDeps, tenantId: string, token: string) {
  const kid = doorTokenKeyId(token);
  const key = kid ? await deps.doorKeys.verificationKey(db, kid) : undefined;
  if (key?.tenantId !== tenantId) return undefined;
  const claims = await verifyDoorToken(token, key.key);
  return claims?.tid === tenantId ? claims : undefined;
}

/** The access log, newest first; `q`: the caller's parsed query (parseListAccessLog). */
export async function listAccessLog(
  db: Kysely<DB>,
  deps: AppDeps,
  tenantId: string,
  q: ListAccessLog,
): Promise<AccessLogRow[]> {
  await deps.accessLog.flush(); // this process's entries still on their way are part of the log
  return repo.listAccessLog(
    db,
    tenantId,
    { deviceId: q.deviceId, doorId: q.doorId, bookingId: q.bookingId, before: q.before ?? null },
    q.first,
  );
}

/** A keyset page of the access log (newest first, then id) after the cursor `after`; the total when asked (a second statement). */
export async function accessLogConnection(
  db: Kysely<DB>,
  deps: AppDeps,
  tenantId: string,
  { first: size, after, key, filters }: AccessLogConnectionCommand,
  withTotal: boolean,
): Promise<Connection<repo.AccessLogPageRow>> {
  await deps.accessLog.flush(); // this process's entries still on their way are part of the log
  const [rows, total] = await Promise.all([
    repo.accessLogPage(db, tenantId, filters, key, size + 1),
    withTotal ? repo.countAccessLog(db, tenantId, filters) : null,
  ]);
  return connectionOf(rows, size, after, (row) => encodeCursor(ACCESS_LOG_CURSOR, [row.sort_at, row.id]), total);
}
