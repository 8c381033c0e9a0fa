import type { Executor } from '../../kernel/db/index.js';
import type { AccessLogRow, BookingCredentialRow, DoorSigningKeyRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { DevicePrincipal } from '../../kernel/auth/principal.js';
import { conflict } from '../../kernel/errors.js';
import { epochSeconds, generateSigningKey, newKeyId, newTokenId, signDoorToken } from './door-tokens.js';
import * as repo from './door-credentials.repository.js';
import { insertWithAccessDecidedEvents } from './access.repository.js';
import { offlineDenialReason, offlineRejection, type OfflineRejection } from './offline-entries.js';
import type { ParsedOfflineDecision } from './access.commands.js';

/** How long a door may keep deciding alone after its last successful heartbeat, unless the tenant sets another value. */
export const DEFAULT_MAX_OFFLINE_SECONDS = 900;
/** How far a door's clock may be off: it widens a token's window by this much on each side, offline only. */
export const CLOCK_SKEW_SECONDS = 30;
/**
 * A heartbeat answer lists revocations made since this long before the device's previous
 * heartbeat: the overlap covers a revoking transaction that committed after that heartbeat read
 * (its revoked_at is earlier than its commit) and a few lost answers. Repeats are harmless.
 */
export const REVOCATION_OVERLAP_SECONDS = 60;

// ── signing keys ─────────────────────────────────────────────────────────────────────────────

async function createKey(trx: Executor, deps: AppDeps, tenantId: string): Promise<DoorSigningKeyRow | undefined> {
  const kid = newKeyId();
  const { privateKey, publicJwk } = generateSigningKey(kid);
  const sealed = deps.secret.seal(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  return repo.insertActiveKey(trx, {
    kid,
    tenant_id: tenantId,
    public_jwk: publicJwk,
    private_key_sealed: sealed,
    created_at: deps.now(),
  });
}

/** The tenant's active signing key, made on first use. */
async function activeKey(trx: Executor, deps: AppDeps, tenantId: string): Promise<DoorSigningKeyRow> {
  const found = await repo.findActiveKey(trx, tenantId);
  if (found) return found;
  const created = (await createKey(trx, deps, tenantId)) ?? (await repo.findActiveKey(trx, tenantId));
  if (!created) throw new Error(`No door signing key for tenant ${tenantId}`);
  return created;
}

export interface DoorSigningKeyView {
  kid: string;
  active: boolean;
  publicJwk: Record<string, string>;
  createdAt: Date;
  retiredAt: Date | null;
}

const keyView = (row: DoorSigningKeyRow): DoorSigningKeyView => ({
  kid: row.kid,
  active: row.retired_at === null,
  publicJwk: row.public_jwk,
  createdAt: row.created_at,
  retiredAt: row.retired_at,
});

export async function listDoorSigningKeys(db: Executor, tenantId: string): Promise<DoorSigningKeyView[]> {
  return (await repo.listKeys(db, tenantId)).map(keyView);
}

/**
 * Rotates the tenant's signing key: a new key signs every token issued from now on; the old one is
 * retired but stays in device configs until the last token it signed has expired. Tokens already
 * handed out keep working. `trx` must be the caller's transaction.
 */
export async function rotateDoorSigningKey(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
): Promise<DoorSigningKeyView> {
  await repo.retireActiveKey(trx, tenantId, deps.now());
  // A concurrent rotation that committed first made the new key already: this one is refused.
  const created = await createKey(trx, deps, tenantId);
  if (!created)
    throw conflict(
      'key_rotation_in_progress',
      'Another rotation of this tenant’s door signing key happened at the same time; try again',
    );
  return keyView(created);
}

// ── signed tokens of bookings ────────────────────────────────────────────────────────────────

export interface CredentialBookingWindow {
  id: string;
  tenant_id: string;
  object_id: string;
  start_time: Date;
  end_time: Date;
}

/** A new token's fields for a booking's current window, but the key that signs it. */
export function tokenFieldsOf(booking: CredentialBookingWindow) {
  return {
    token_id: newTokenId(),
    valid_from: booking.start_time,
    valid_until: booking.end_time,
    object_id: booking.object_id,
  };
}

/** The signed-token fields for a booking's current window, signed by the tenant's active key. */
export async function signedTokenFields(trx: Executor, deps: AppDeps, booking: CredentialBookingWindow) {
  const key = await activeKey(trx, deps, booking.tenant_id);
  return { ...tokenFieldsOf(booking), key_id: key.kid };
}

async function revokeTokenOf(trx: Executor, deps: AppDeps, row: BookingCredentialRow): Promise<void> {
  if (!row.token_id || !row.valid_until) return;
  await repo.insertRevocation(trx, {
    tenant_id: row.tenant_id,
    token_id: row.token_id,
    booking_id: row.booking_id,
    revoked_at: deps.now(),
    valid_from: row.valid_from,
    expires_at: row.valid_until,
  });
}

/**
 * A booking moved (new window or object): the old token id is revoked (doors learn it with their
 * next heartbeat) and a new token is issued for the new window; a legacy opaque token stops
 * working too. Call it in the reschedule's transaction, after the booking row was updated.
 */
export async function rescheduleCredentials(
  trx: Executor,
  deps: AppDeps,
  booking: CredentialBookingWindow,
): Promise<BookingCredentialRow | undefined> {
  const current = await trx
    .selectFrom('booking_credentials')
    .selectAll()
    .where('tenant_id', '=', booking.tenant_id)
    .where('booking_id', '=', booking.id)
    .forUpdate()
    .executeTakeFirst();
  if (!current) return undefined;
  await revokeTokenOf(trx, deps, current);
  return repo.setSignedToken(trx, booking.tenant_id, booking.id, {
    ...(await signedTokenFields(trx, deps, booking)),
    qr_token_hash: null,
  });
}

/** A cancelled booking's token id is revoked, so doors deciding offline refuse it too. */
export async function revokeCredentials(
  trx: Executor,
  deps: AppDeps,
  booking: { id: string; tenant_id: string },
): Promise<void> {
  const current = await trx
    .selectFrom('booking_credentials')
    .selectAll()
    .where('tenant_id', '=', booking.tenant_id)
    .where('booking_id', '=', booking.id)
    .executeTakeFirst();
  if (current) await revokeTokenOf(trx, deps, current);
}

/**
 * The credentials row with a signed token for the booking as it is now: a legacy row gets one (its
 * opaque token keeps working), so does a row issued before its tenant had a key, and a row whose
 * window or object no longer matches the booking is reissued as after a reschedule.
 */
export async function ensureSignedToken(
  trx: Executor,
  deps: AppDeps,
  row: BookingCredentialRow,
  booking: CredentialBookingWindow,
): Promise<BookingCredentialRow> {
  // No token (a legacy row) or no key (issued before the tenant had one): a new token, newly signed.
  if (!row.token_id || !row.key_id)
    return repo.setSignedToken(trx, booking.tenant_id, booking.id, await signedTokenFields(trx, deps, booking));
  const matches =
    row.valid_from?.getTime() === booking.start_time.getTime() &&
    row.valid_until?.getTime() === booking.end_time.getTime() &&
    row.object_id === booking.object_id;
  return matches ? row : ((await rescheduleCredentials(trx, deps, booking)) ?? row);
}

/** The QR token of a credentials row: signed again with the row's key, so identical on every request. */
export async function signedQrToken(db: Executor, deps: AppDeps, row: BookingCredentialRow): Promise<string> {
  if (!row.token_id || !row.key_id || !row.valid_from || !row.valid_until || !row.object_id)
    throw new Error(`Credentials of booking ${row.booking_id} have no signed token`);
  const key = await deps.doorKeys.signingKey(db, row.tenant_id, row.key_id);
  return signDoorToken(key, row.key_id, {
    sub: row.booking_id,
    tid: row.tenant_id,
    obj: [row.object_id],
    jti: row.token_id,
    nbf: epochSeconds(row.valid_from),
    exp: epochSeconds(row.valid_until),
  });
}

// ── what doors get: keys, offline policy, revocations ────────────────────────────────────────

export interface DoorOfflinePolicy {
  maxOfflineSeconds: number;
  clockSkewSeconds: number;
}

export async function getDoorOfflinePolicy(db: Executor, tenantId: string): Promise<DoorOfflinePolicy> {
  const row = await repo.findOfflinePolicy(db, tenantId);
  return {
    maxOfflineSeconds: row?.max_offline_seconds ?? DEFAULT_MAX_OFFLINE_SECONDS,
    clockSkewSeconds: CLOCK_SKEW_SECONDS,
  };
}

/** Sets how long the tenant's doors may decide alone (0 = never offline; parseSetDoorOfflinePolicy checked the range). */
export async function setDoorOfflinePolicy(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  maxOfflineSeconds: number,
): Promise<DoorOfflinePolicy> {
  await repo.upsertOfflinePolicy(db, tenantId, maxOfflineSeconds, deps.now());
  return getDoorOfflinePolicy(db, tenantId);
}

export interface DoorVerificationConfig {
  jwks: { keys: Record<string, string>[] };
  offline: { max_offline_seconds: number; clock_skew_seconds: number };
}

/** The part of a device config that lets a door decide alone: the tenant's verification keys and the offline policy. */
export async function doorVerificationConfig(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
): Promise<DoorVerificationConfig> {
  await activeKey(trx, deps, tenantId); // a door configured before the first booking knows the key already
  const now = deps.now();
  const keys = await repo.verifyingKeys(trx, tenantId, new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000));
  const policy = await getDoorOfflinePolicy(trx, tenantId);
  return {
    jwks: { keys: keys.map((k) => k.public_jwk) },
    offline: { max_offline_seconds: policy.maxOfflineSeconds, clock_skew_seconds: policy.clockSkewSeconds },
  };
}

/** The revocations a heartbeat hands out: those at or after `since` whose token has not expired at `notExpiredAt`. */
export interface RevocationWindow {
  since: Date;
  notExpiredAt: Date;
}

/**
 * Which revocations a heartbeat lists: those since the device's previous heartbeat (with an
 * overlap), still unexpired give or take the clock skew; all unexpired ones for a device's first
 * heartbeat (since the epoch, before any revocation). Read by the heartbeat's own statement
 * (revokedTokenIdsQuery), so a heartbeat stays one statement.
 */
export function revocationWindow(previousHeartbeat: Date | null, now: Date): RevocationWindow {
  return {
    since: previousHeartbeat ? new Date(previousHeartbeat.getTime() - REVOCATION_OVERLAP_SECONDS * 1000) : new Date(0),
    notExpiredAt: new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000),
  };
}

// ── decisions doors made offline ─────────────────────────────────────────────────────────────

export interface OfflineReportResult {
  /** Entries recorded (new, or recorded before by an earlier upload). */
  accepted: number;
  /** Entries refused, by their index in the upload, with why. */
  rejected: { index: number; reason: OfflineRejection }[];
}

/**
 * Stores decisions a door made offline in the access log (mode offline), once per entry however
 * often the door reports it (the key: device, token id, door, decision time). A malformed entry
 * (no reason on a denial, a reason on an admission) was refused by parseReportOfflineDecisions
 * with a 400 naming it, so nothing is stored; an entry the server does not believe (offlineRejection) is refused alone, never stored, and named
 * in `rejected`. A denial of a token id Portier never issued is stored (as `invalid_token`): a
 * forged QR code tried at an offline door leaves its trace.
 */
export async function recordOfflineDecisions(
  trx: Executor,
  deps: AppDeps,
  device: DevicePrincipal,
  entries: ParsedOfflineDecision[],
): Promise<OfflineReportResult> {
  const parsed = entries.map((e, i) => {
    const decidedAt = e.decided_at;
    const tokenId = e.token_id ?? null;
    return { index: i, entry: e, decidedAt, tokenId, key: `${tokenId ?? ''}|${e.door_id}|${decidedAt.toISOString()}` };
  });
  if (parsed.length === 0) return { accepted: 0, rejected: [] };
  const doors = await repo.doorsOfDevice(trx, device.tenantId, device.deviceId);
  const tokens = await repo.knownTokens(trx, device.tenantId, [
    ...new Set(parsed.flatMap((r) => (r.tokenId ? [r.tokenId] : []))),
  ]);
  const context = { doors, tokens, now: deps.now(), clockSkewSeconds: CLOCK_SKEW_SECONDS };
  const rejected: OfflineReportResult['rejected'] = [];
  const rows = parsed.filter((r) => {
    const reason = offlineRejection(
      { doorId: r.entry.door_id, tokenId: r.tokenId, decidedAt: r.decidedAt, allowed: r.entry.allowed },
      context,
    );
    if (reason) rejected.push({ index: r.index, reason });
    return !reason;
  });
  if (rejected.length)
    deps.log.warn(
      { deviceId: device.deviceId, tenantId: device.tenantId, rejected },
      'offline access-log entries refused',
    );
  if (rows.length) {
    await insertWithAccessDecidedEvents(
      trx,
      trx
        .insertInto('access_log')
        .values(
          rows.map((r): Omit<AccessLogRow, 'id'> => ({
            tenant_id: device.tenantId,
            device_id: device.deviceId,
            door_id: r.entry.door_id,
            booking_id: (r.tokenId && tokens.get(r.tokenId)?.bookingId) ?? null,
            credential_type: r.tokenId ? 'qr' : null,
            allowed: r.entry.allowed,
            reason: r.entry.allowed
              ? null
              : offlineDenialReason({ tokenId: r.tokenId, reason: r.entry.reason ?? 'invalid_token' }, tokens),
            checked_at: r.decidedAt,
            mode: 'offline',
            token_id: r.tokenId,
            offline_key: r.key,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'device_id', 'offline_key']).where('offline_key', 'is not', null).doNothing(),
        ),
    );
  }
  return { accepted: rows.length, rejected };
}
