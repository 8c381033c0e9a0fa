import { sql } from 'kysely';
import type { Database } from '../kernel/db/database.js';
import type { ApiKeyPrincipal } from '../kernel/auth/principal.js';
import { effectiveScopes, isScope } from '../kernel/auth/scopes.js';
import type { CredentialCheck, CredentialState } from '../kernel/live/index.js';
import { effectiveScopesOfRole } from '../modules/users/index.js';

// What open subscriptions' credentials hold now (src/kernel/live/guard.ts): the same conditions as
// the credential's authentication (an unrevoked key; an unrevoked, unexpired session of a user still
// in the tenant; an unexpired access token of an unexpired grant whose user is still in the tenant),
// read by id instead of by secret. One statement per credential with open streams, per round.

async function stateOf(database: Database, principal: ApiKeyPrincipal): Promise<CredentialState> {
  const db = database.db;
  const via = principal.via;
  if (via?.type === 'session') {
    const row = await db
      .selectFrom('user_sessions as s')
      .innerJoin('users as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.tenant_id', '=', 's.tenant_id'))
      .select('u.role')
      .where('s.id', '=', via.sessionId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row ? { scopes: effectiveScopesOfRole(row.role) } : null;
  }
  if (via?.type === 'oauth') {
    let query = db
      .selectFrom('oauth_grants as g')
      .innerJoin('users as u', (join) => join.onRef('u.id', '=', 'g.user_id').onRef('u.tenant_id', '=', 'g.tenant_id'))
      .select(['u.role', 'g.scopes'])
      .where('g.grant_id', '=', via.grantId)
      .where('g.expires_at', '>', sql<Date>`now()`);
    if (via.tokenHash) {
      const tokenHash = via.tokenHash;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('oauth_store as s')
            .select('s.id_hash')
            .where('s.id_hash', '=', tokenHash)
            .where('s.model', '=', 'AccessToken')
            .whereRef('s.grant_id', '=', 'g.grant_id')
            .where('s.expires_at', '>', sql<Date>`now()`),
        ),
      );
    }
    const row = await query.executeTakeFirst();
    if (!row) return null;
    // Never more than the token was granted nor more than the user's role holds today.
    const roleScopes = effectiveScopesOfRole(row.role);
    const granted = effectiveScopes(row.scopes.filter(isScope));
    return { scopes: principal.scopes.filter((s) => roleScopes.includes(s) && granted.includes(s)) };
  }
  const row = await db
    .selectFrom('api_keys')
    .select('scopes')
    .where('id', '=', principal.keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { scopes: effectiveScopes(row.scopes) } : null;
}

export function credentialCheck(database: Database): CredentialCheck {
  return (principals) => Promise.all(principals.map((principal) => stateOf(database, principal)));
}
