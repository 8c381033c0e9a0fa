import { DomainError, forbidden, unauthenticated } from '../errors.js';
import { credentialName, insufficientScopeHeaders } from './challenge.js';

export interface ApiKeyPrincipal {
  kind: 'apiKey';
  keyId: string;
  tenantId: string;
  /** Effective scopes (admin expanded). */
  scopes: string[];
  rateLimitPerMinute: number | null;
  /**
   * A publishable key (svc_pk_…, kind 'publishable'): meant for browsers, so it may only use the
   * fields whose @requiresScopes names booking_page (docs/booking-page.md, "Publishable key").
   */
  publishable?: true;
  /**
   * False when the key's tenant is a sandbox (test mode, docs/test-mode.md); absent for a live
   * tenant, so a principal made without it is live.
   */
  livemode?: false;
  /**
   * Set when a person acts rather than a key: a dashboard session, or an OAuth app for a user.
   * `keyId` is then the rate-limit bucket (`user:<userId>`, `oauth:<clientId>:<tenantId>`).
   */
  via?:
    | { type: 'session'; userId: string; sessionId: string }
    | {
        type: 'oauth';
        clientId: string;
        grantId: string;
        userId: string;
        /** The access token's SHA-256 (oauth_store.id_hash): open subscriptions re-check the token itself. */
        tokenHash?: string;
      };
}

export interface DevicePrincipal {
  kind: 'device';
  deviceId: string;
  tenantId: string;
  /**
   * The device's last heartbeat as its key's lookup found it (the same row, no extra statement):
   * the heartbeat answers the revocations since then. Absent when unknown (then it is read).
   */
  lastHeartbeatAt?: Date | null;
}

export type Principal = ApiKeyPrincipal | DevicePrincipal;

/** Whether the principal acts on a live tenant (false: a sandbox, docs/test-mode.md). */
export function livemodeOf(principal: Principal | null | undefined): boolean {
  return !(principal?.kind === 'apiKey' && principal.livemode === false);
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function requireApiKey(principal: Principal | null | undefined): ApiKeyPrincipal {
  if (!principal || principal.kind !== 'apiKey') throw unauthenticated();
  return principal;
}

/**
 * The tenant a request acts for. A path or argument tenantId that is not the key's own tenant is
 * refused with 403: tenant isolation is enforced here, never trusted to the path.
 */
export function tenantOf(principal: Principal | null | undefined, requested?: string | null): string {
  const key = requireApiKey(principal);
  if (requested != null && requested !== key.tenantId) {
    throw forbidden(`This ${credentialName(key)} belongs to another tenant than ${requested}`, 'tenant_mismatch');
  }
  return key.tenantId;
}

export function requireScope(principal: Principal | null | undefined, scope: string): ApiKeyPrincipal {
  const key = requireApiKey(principal);
  if (!key.scopes.includes(scope))
    throw missingScope(key, [[scope]], `This ${credentialName(key)} lacks the scope ${scope}`);
  return key;
}

/** 403 missing_scope, with RFC 6750's insufficient_scope challenge for a bearer credential. */
export function missingScope(
  principal: ApiKeyPrincipal,
  scopeSets: readonly (readonly string[])[],
  message: string,
): DomainError {
  return new DomainError('FORBIDDEN', 'missing_scope', message, {
    headers: insufficientScopeHeaders(principal, scopeSets),
  });
}
