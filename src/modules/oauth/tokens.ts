import { sql } from 'kysely';
import type { AppDeps } from '../../kernel/deps.js';
import type { ApiKeyPrincipal } from '../../kernel/auth/principal.js';
import { effectiveScopes, isScope } from '../../kernel/auth/scopes.js';
import { sha256 } from '../../kernel/crypto.js';
import { effectiveScopesOfRole } from '../users/index.js';
import { touchGrant } from './grants.repository.js';
import { unsealPayload } from './store.js';

// An OAuth access token as a tenant principal: it works where an API key works, with the scopes
// granted, in its own rate-limit bucket `oauth:<clientId>:<tenantId>`.

/** oidc-provider's opaque tokens are base64url; anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,200}$/;

/** When this process last recorded a grant's use: last use is kept to the minute, not per request. */
const lastRecorded = new Map<string, number>();
const RECORD_EVERY_MS = 60_000;
const RECORDED_GRANTS_KEPT = 10_000;

async function recordUse(deps: AppDeps, grantId: string): Promise<void> {
  const now = deps.now();
  const last = lastRecorded.get(grantId);
  if (last !== undefined && now.getTime() - last < RECORD_EVERY_MS) return;
  if (lastRecorded.size >= RECORDED_GRANTS_KEPT) lastRecorded.clear();
  lastRecorded.set(grantId, now.getTime());
  await touchGrant(deps.database.db, grantId, now);
}

/** Rate-limit bucket of an app acting for a tenant. */
export function oauthKeyId(clientId: string, tenantId: string): string {
  return `oauth:${clientId}:${tenantId}`;
}

export async function authenticateAccessToken(deps: AppDeps, token: string): Promise<ApiKeyPrincipal | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const db = deps.database.db;
  const tokenHash = sha256(token);
  const row = await db
    .selectFrom('oauth_store as s')
    .innerJoin('oauth_grants as g', 'g.grant_id', 's.grant_id')
    // The user who gave the grant must still be one of the tenant's users.
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'g.user_id').onRef('u.tenant_id', '=', 'g.tenant_id'))
    .select(['s.payload', 'g.grant_id', 'g.tenant_id', 'g.client_id', 'g.user_id', 'u.role'])
    .where('s.model', '=', 'AccessToken')
    .where('s.id_hash', '=', tokenHash)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('g.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!row) return null;
  const payload = unsealPayload(deps.secret, row.payload);
  if (payload.clientId !== row.client_id || payload.jti !== token) return null;
  if (typeof payload.exp !== 'number' || payload.exp * 1000 <= Date.now()) return null;
  // Granted scopes, and never more than the granting user's role holds today.
  const roleScopes = effectiveScopesOfRole(row.role);
  const scopes = effectiveScopes((payload.scope ?? '').split(' ').filter(isScope)).filter((s) =>
    roleScopes.includes(s),
  );
  await recordUse(deps, row.grant_id);
  return {
    kind: 'apiKey',
    keyId: oauthKeyId(row.client_id, row.tenant_id),
    tenantId: row.tenant_id,
    scopes,
    rateLimitPerMinute: null,
    via: { type: 'oauth', clientId: row.client_id, grantId: row.grant_id, userId: row.user_id, tokenHash },
  };
}
