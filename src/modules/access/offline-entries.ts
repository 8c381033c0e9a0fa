// Which offline decisions a door reports are believed (docs/devices.md#offline-decisions): pure
// rules, the data they need is read by the service.

/** Why a reported offline decision was refused; the upload's `rejected[].reason`. */
export const OFFLINE_REJECTIONS = [
  'door_not_assigned',
  'decided_in_future',
  'unknown_token',
  'token_required',
  'outside_token_validity',
  'token_not_for_door',
] as const;
export type OfflineRejection = (typeof OFFLINE_REJECTIONS)[number];

export interface ReportedDecision {
  doorId: string;
  tokenId: string | null;
  decidedAt: Date;
  allowed: boolean;
}

/** A token id the server issued: its window and object (null when no longer known, after a revocation). */
export interface IssuedToken {
  validFrom: Date | null;
  validUntil: Date;
  objectId: string | null;
}

export interface ReportContext {
  /** The doors the uploading device drives, each with the objects it serves. */
  doors: ReadonlyMap<string, ReadonlySet<string>>;
  /** The tenant's token ids among those reported. */
  tokens: ReadonlyMap<string, IssuedToken>;
  now: Date;
  clockSkewSeconds: number;
}

/**
 * Undefined when the entry is believed, else why not. Every entry must be for a door the device
 * drives and not lie in the future (beyond the door's clock skew). An entry that opened the door
 * needs a token id Portier issued to this tenant, decided inside the token's window (± the skew),
 * at a door that serves the token's object. A denial is otherwise believed, an unknown token id
 * included: it opened nothing, and a forged or foreign QR code tried at an offline door is exactly
 * what the access log must keep (recorded as `invalid_token`, see offlineDenialReason).
 */
export function offlineRejection(entry: ReportedDecision, ctx: ReportContext): OfflineRejection | undefined {
  const skewMs = ctx.clockSkewSeconds * 1000;
  const doorObjects = ctx.doors.get(entry.doorId);
  if (!doorObjects) return 'door_not_assigned';
  const at = entry.decidedAt.getTime();
  if (at > ctx.now.getTime() + skewMs) return 'decided_in_future';
  if (!entry.allowed) return undefined;
  if (entry.tokenId === null) return 'token_required';
  const token = ctx.tokens.get(entry.tokenId);
  if (!token) return 'unknown_token';
  if (at < (token.validFrom?.getTime() ?? -Infinity) - skewMs || at > token.validUntil.getTime() + skewMs)
    return 'outside_token_validity';
  if (token.objectId !== null && !doorObjects.has(token.objectId)) return 'token_not_for_door';
  return undefined;
}

/**
 * The reason a believed offline denial is stored with: the door's own, except for a token id
 * Portier never issued to this tenant, which is `invalid_token` whatever the door thought (the
 * online check's reason for a token that matches no booking).
 */
export function offlineDenialReason(
  entry: { tokenId: string | null; reason: string },
  tokens: ReadonlyMap<string, IssuedToken>,
): string {
  return entry.tokenId !== null && !tokens.has(entry.tokenId) ? 'invalid_token' : entry.reason;
}
