import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet } from 'jose';

// How a door decides alone when Portier cannot be reached. Pure: everything it needs is passed in,
// so firmware authors can port it line by line and tests can drive it with any clock.

/** The device config as GET /api/devices/{deviceId}/config returns it. */
export interface DeviceConfig {
  device_id: string;
  doors: {
    id: string;
    name: string;
    gpio_pin: number;
    behavior: string;
    unlock_duration_seconds: number;
    object_ids: string[];
  }[];
  heartbeat_interval_seconds: number;
  jwks: JSONWebKeySet;
  offline: { max_offline_seconds: number; clock_skew_seconds: number };
}

export const DOOR_TOKEN_TYPE = 'portier-door+jwt';

/** The reasons an offline decision reports: Portier's four denials and two of the door's own. */
export type OfflineReason =
  | 'invalid_token'
  | 'booking_not_confirmed'
  | 'outside_booking_window'
  | 'door_not_mapped_to_object'
  | 'offline_limit_exceeded'
  | 'online_only_credential';

export interface OfflineDecision {
  allowed: boolean;
  reason?: OfflineReason;
  /** The token's id (jti) when its signature verified. */
  tokenId?: string;
}

export interface OfflineInput {
  token: string;
  doorId: string;
  config: DeviceConfig;
  /** Token ids revoked in heartbeats received so far. */
  revoked: ReadonlySet<string>;
  /** When the last heartbeat answer arrived (null: never). */
  lastHeartbeatAt: Date | null;
  now: Date;
}

const SMS_CODE = /^\d{8}$/;

/**
 * The decision, in this order: SMS codes are never accepted offline (8 digits can be guessed; only
 * Portier counts wrong guesses); past max_offline_seconds since the last heartbeat the door stops
 * deciding alone; the signature must verify with a key of the tenant's JWKS (EdDSA only, typed as a
 * door token); a revoked token id is refused; the window (nbf ≤ now < exp, widened by the clock
 * skew) must hold; the door must serve one of the token's objects.
 */
export async function decideOffline(input: OfflineInput): Promise<OfflineDecision> {
  const { config, now } = input;
  const token = input.token.trim();
  if (SMS_CODE.test(token.replace(/[\s-]/g, ''))) return { allowed: false, reason: 'online_only_credential' };
  const maxOfflineMs = config.offline.max_offline_seconds * 1000;
  if (!input.lastHeartbeatAt || now.getTime() - input.lastHeartbeatAt.getTime() > maxOfflineMs)
    return { allowed: false, reason: 'offline_limit_exceeded' };

  let claims: { jti?: unknown; obj?: unknown };
  try {
    const verified = await jwtVerify(token, createLocalJWKSet(config.jwks), {
      algorithms: ['EdDSA'],
      typ: DOOR_TOKEN_TYPE,
      currentDate: now,
      clockTolerance: config.offline.clock_skew_seconds,
      requiredClaims: ['jti', 'nbf', 'exp', 'sub'],
    });
    claims = verified.payload;
  } catch (error) {
    // A time-claim failure is raised only after the signature verified: the token is genuine but outside its window.
    const outOfWindow =
      error instanceof errors.JWTExpired || (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf');
    if (!outOfWindow) return { allowed: false, reason: 'invalid_token' };
    const tokenId = decodeJwt(token).jti;
    if (tokenId && input.revoked.has(tokenId)) return { allowed: false, reason: 'invalid_token', tokenId };
    return { allowed: false, reason: 'outside_booking_window', tokenId };
  }
  const tokenId = typeof claims.jti === 'string' ? claims.jti : undefined;
  if (!tokenId) return { allowed: false, reason: 'invalid_token' };
  if (input.revoked.has(tokenId)) return { allowed: false, reason: 'invalid_token', tokenId };
  const door = config.doors.find((d) => d.id === input.doorId);
  const objects = Array.isArray(claims.obj) ? claims.obj : [];
  if (!door || !objects.some((o) => door.object_ids.includes(o as string)))
    return { allowed: false, reason: 'door_not_mapped_to_object', tokenId };
  return { allowed: true, tokenId };
}
