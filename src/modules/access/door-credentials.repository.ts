import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { BookingCredentialRow, DoorSigningKeyRow } from '../../kernel/db/types.js';

// Signing keys, signed-token fields of credentials, revocations and the offline policy.

export async function findActiveKey(db: Executor, tenantId: string): Promise<DoorSigningKeyRow | undefined> {
  return db
    .selectFrom('door_signing_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The tenant's active key id as a subquery, for a statement that signs with it: read in the same
 * statement (and snapshot) as the write, so it costs no round trip of its own and is never stale.
 * NULL when the tenant has no key yet.
 */
export function activeKeyIdOf(db: Executor, tenantId: string) {
  return db
    .selectFrom('door_signing_keys')
    .select('kid')
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null);
}

export async function findKey(db: Executor, kid: string): Promise<DoorSigningKeyRow | undefined> {
  return db.selectFrom('door_signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
}

/** Inserts a tenant's new active key; undefined when the tenant has one already (a concurrent insert). */
export async function insertActiveKey(
  db: Executor,
  values: {
    kid: string;
    tenant_id: string;
    public_jwk: Record<string, string>;
    private_key_sealed: string;
    created_at: Date;
  },
): Promise<DoorSigningKeyRow | undefined> {
  return db
    .insertInto('door_signing_keys')
    .values({ ...values, public_jwk: JSON.stringify(values.public_jwk) })
    .onConflict((oc) => oc.column('tenant_id').where('retired_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function retireActiveKey(
  db: Executor,
  tenantId: string,
  now: Date,
): Promise<DoorSigningKeyRow | undefined> {
  return db
    .updateTable('door_signing_keys')
    .set({ retired_at: now })
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The keys a door must know: the active one and every retired key that signed a token still
 * valid at `after` (its window's end is later).
 */
export async function verifyingKeys(db: Executor, tenantId: string, after: Date): Promise<DoorSigningKeyRow[]> {
  return db
    .selectFrom('door_signing_keys as k')
    .selectAll('k')
    .where('k.tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb('k.retired_at', 'is', null),
        eb.exists(
          eb
            .selectFrom('booking_credentials as c')
            .select(sql`1`.as('one'))
            .whereRef('c.tenant_id', '=', 'k.tenant_id')
            .whereRef('c.key_id', '=', 'k.kid')
            .where('c.valid_until', '>', after),
        ),
      ]),
    )
    .orderBy('k.created_at', 'desc')
    .execute();
}

export async function listKeys(db: Executor, tenantId: string): Promise<DoorSigningKeyRow[]> {
  return db
    .selectFrom('door_signing_keys')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy(sql`retired_at IS NULL`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .execute();
}

/** Gives a booking's credentials a (new) signed token; `qrTokenHash` undefined keeps the legacy hash. */
export async function setSignedToken(
  db: Executor,
  tenantId: string,
  bookingId: string,
  values: {
    token_id: string;
    key_id: string;
    valid_from: Date;
    valid_until: Date;
    object_id: string;
    qr_token_hash?: null;
  },
): Promise<BookingCredentialRow> {
  return db
    .updateTable('booking_credentials')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('booking_id', '=', bookingId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertRevocation(
  db: Executor,
  values: {
    tenant_id: string;
    token_id: string;
    booking_id: string;
    revoked_at: Date;
    valid_from: Date | null;
    expires_at: Date;
  },
): Promise<void> {
  await db
    .insertInto('revoked_tokens')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The ids of a tenant's revoked tokens not yet expired at `notExpiredAt`, revoked at or after
 * `since`, oldest revocation first, as one text[] (empty when none): a subquery another statement
 * selects (the heartbeat's). The arguments go straight through as parameters (compiledOnce).
 */
export function revokedTokenIdsQuery(db: Executor, tenantId: string, since: Date, notExpiredAt: Date) {
  return db
    .selectFrom('revoked_tokens')
    .select(sql<string[]>`coalesce(array_agg(token_id ORDER BY revoked_at, token_id), '{}')`.as('ids'))
    .where('tenant_id', '=', tenantId)
    .where('expires_at', '>', notExpiredAt)
    .where('revoked_at', '>=', since);
}

export async function findOfflinePolicy(
  db: Executor,
  tenantId: string,
): Promise<{ max_offline_seconds: number } | undefined> {
  return db
    .selectFrom('door_offline_policies')
    .select('max_offline_seconds')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function upsertOfflinePolicy(
  db: Executor,
  tenantId: string,
  maxOfflineSeconds: number,
  now: Date,
): Promise<void> {
  await db
    .insertInto('door_offline_policies')
    .values({ tenant_id: tenantId, max_offline_seconds: maxOfflineSeconds, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ max_offline_seconds: maxOfflineSeconds, updated_at: now }))
    .execute();
}

/** The booking of each token id (current or revoked), for reported offline decisions. */
/** What the server knows of a token id: its booking and window, and its object (unknown once revoked). */
export interface KnownToken {
  bookingId: string;
  validFrom: Date | null;
  validUntil: Date;
  objectId: string | null;
}

/** The tenant's token ids among `tokenIds`, current or revoked (a current one wins). */
export async function knownTokens(
  db: Executor,
  tenantId: string,
  tokenIds: string[],
): Promise<Map<string, KnownToken>> {
  if (tokenIds.length === 0) return new Map();
  const current = await db
    .selectFrom('booking_credentials')
    .select(['token_id', 'booking_id', 'valid_from', 'valid_until', 'object_id'])
    .where('tenant_id', '=', tenantId)
    .where('token_id', 'in', tokenIds)
    .execute();
  const revoked = await db
    .selectFrom('revoked_tokens')
    .select(['token_id', 'booking_id', 'valid_from', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('token_id', 'in', tokenIds)
    .execute();
  const known = new Map<string, KnownToken>();
  for (const r of revoked)
    known.set(r.token_id, {
      bookingId: r.booking_id,
      validFrom: r.valid_from,
      validUntil: r.expires_at,
      objectId: null,
    });
  for (const r of current) {
    if (r.token_id && r.valid_until)
      known.set(r.token_id, {
        bookingId: r.booking_id,
        validFrom: r.valid_from,
        validUntil: r.valid_until,
        objectId: r.object_id,
      });
  }
  return known;
}

/** The doors a device drives, each with the objects it serves. */
export async function doorsOfDevice(
  db: Executor,
  tenantId: string,
  deviceId: string,
): Promise<Map<string, Set<string>>> {
  const rows = await db
    .selectFrom('device_doors as dd')
    .leftJoin('door_objects as o', (j) =>
      j.onRef('o.tenant_id', '=', 'dd.tenant_id').onRef('o.door_id', '=', 'dd.door_id'),
    )
    .select(['dd.door_id', 'o.object_id'])
    .where('dd.tenant_id', '=', tenantId)
    .where('dd.device_id', '=', deviceId)
    .execute();
  const doors = new Map<string, Set<string>>();
  for (const r of rows) {
    const objects = doors.get(r.door_id) ?? new Set<string>();
    if (r.object_id) objects.add(r.object_id);
    doors.set(r.door_id, objects);
  }
  return doors;
}
