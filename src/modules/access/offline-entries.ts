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
 * drives, not lie in the future (beyond the door's clock skew) and name only a token id Portier
 * issued to this tenant. An entry that opened the door needs a token id, decided inside the token's
 * window (± the skew), at a door that serves the token's object. A denial is otherwise believed: it
 * opened nothing.
 */
export function offlineRejection(entry: ReportedDecision, ctx: ReportContext): OfflineRejection | undefined {
  const skewMs = ctx.clockSkewSeconds * 1000;
  const doorObjects = ctx.doors.get(entry.doorId);
  if (!doorObjects) return 'door_not_assigned';
  const at = entry.decidedAt.getTime();
  if (at > ctx.now.getTime() + skewMs) return 'decided_in_future';
  const token = entry.tokenId === null ? undefined : ctx.tokens.get(entry.tokenId);
  if (entry.tokenId !== null && !token) return 'unknown_token';
  if (!entry.allowed) return undefined;
  if (!token) return 'token_required';
  if (at < (token.validFrom?.getTime() ?? -Infinity) - skewMs || at > token.validUntil.getTime() + skewMs)
    return 'outside_token_validity';
  if (token.objectId !== null && !doorObjects.has(token.objectId)) return 'token_not_for_door';
  return undefined;
}
