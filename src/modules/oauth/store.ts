import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { ServerSecret } from '../../kernel/crypto.js';
import { sha256 } from '../../kernel/crypto.js';
import { clientMetadataOf } from './client-metadata.js';
import { findApp } from './apps.repository.js';

// oidc-provider's storage adapter on Portier's database (table oauth_store), so every process
// sharing the database shares codes, tokens, grants and interactions.
//
// What is stored: an opaque token's (and a code's) identifier IS the token, so identifiers are kept
// only as SHA-256 hashes; payloads (which repeat the identifier as `jti`, and hold the PKCE
// challenge, the session cookie's value, …) are sealed with PORTIER_SECRET (AES-256-GCM). The
// grant id stays readable: it is what revocation and Portier's own grant records look up by.

/** Models whose consumption must happen once. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken']);

/** Expired rows are purged now and then, on one write in this many. */
const PURGE_EVERY = 200;

export function storeKey(id: string): string {
  return sha256(id);
}

export class KyselyAdapter implements Adapter {
  private static writes = 0;

  constructor(
    private readonly model: string,
    private readonly db: Executor,
    private readonly secret: ServerSecret,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    if (this.model === 'Client')
      throw new Error('OAuth apps are registered through Portier, not stored by oidc-provider');
    const row = {
      model: this.model,
      id_hash: storeKey(id),
      grant_id: this.model === 'Grant' ? id : (payload.grantId ?? null),
      uid_hash: this.model === 'Session' && payload.uid ? storeKey(payload.uid) : null,
      payload: this.secret.seal(JSON.stringify(payload)),
      expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.db
      .insertInto('oauth_store')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id_hash']).doUpdateSet({
          grant_id: row.grant_id,
          uid_hash: row.uid_hash,
          payload: row.payload,
          expires_at: row.expires_at,
        }),
      )
      .execute();
    KyselyAdapter.writes += 1;
    if (KyselyAdapter.writes % PURGE_EVERY === 0) await purgeExpired(this.db);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.model === 'Client') {
      const app = await findApp(this.db, id);
      return app ? clientMetadataOf(app) : undefined;
    }
    return this.findWhere('id_hash', storeKey(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid_hash', storeKey(uid));
  }

  /** The device flow is disabled: there are no user codes. */
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  /**
   * Marks a code or refresh token used. Only one request may do so: two processes exchanging the
   * same code at the same moment both find it unused, and the second to get here is refused.
   */
  async consume(id: string): Promise<void> {
    const updated = await this.db
      .updateTable('oauth_store')
      .set({ consumed_at: sql<Date>`now()` })
      .where('model', '=', this.model)
      .where('id_hash', '=', storeKey(id))
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (SINGLE_USE.has(this.model) && updated.numUpdatedRows === 0n) throw new errors.InvalidGrant('already used');
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .deleteFrom('oauth_store')
      .where('model', '=', this.model)
      .where('id_hash', '=', storeKey(id))
      .execute();
    // A grant oidc-provider ends (a reused code or refresh token, a revoked refresh token) is
    // no longer one of the tenant's connected apps.
    if (this.model === 'Grant') await this.db.deleteFrom('oauth_grants').where('grant_id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_store').where('model', '=', this.model).where('grant_id', '=', grantId).execute();
  }

  private async findWhere(column: 'id_hash' | 'uid_hash', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_store')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = unsealPayload(this.secret, row.payload);
    if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
    return payload;
  }
}

export function unsealPayload(secret: ServerSecret, sealed: string): AdapterPayload {
  return JSON.parse(secret.unseal(sealed)) as AdapterPayload;
}

export async function purgeExpired(db: Executor): Promise<void> {
  await db
    .deleteFrom('oauth_store')
    .where('expires_at', '<', sql<Date>`now() - interval '1 hour'`)
    .execute();
}

/** Every token, code and the grant itself of these grants, gone at once. */
export async function deleteGrantState(db: Executor, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db.deleteFrom('oauth_store').where('grant_id', 'in', grantIds).execute();
}
