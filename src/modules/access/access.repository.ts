import type { Insertable } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.js';
import { activeKeyIdOf } from './door-credentials.repository.js';
import { microsecondKey, olderThan } from '../../kernel/db/keyset.js';
import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type {
  AccessLogRow,
  BookingCredentialRow,
  BookingStatus,
  CredentialType,
  DB,
  DoorRow,
  AccessLogTable,
} from '../../kernel/db/types.js';

/**
 * Inserts a booking's credentials; undefined when a unique key (booking, QR hash or SMS hash) is
 * taken. `key_id` is read in the same statement: the tenant's active key, or NULL in the row
 * returned when the tenant has none yet (the caller then signs with a key it makes).
 */
export async function insertCredentials(
  db: Executor,
  values: NewCredentials,
): Promise<BookingCredentialRow | undefined> {
  return credentialsInsert(db, values).returningAll().executeTakeFirst();
}

export type NewCredentials = Omit<BookingCredentialRow, 'created_at' | 'key_id'> & { created_at: Date };

/** insertCredentials' statement without its RETURNING, not yet run (for a booking's own statement). */
export function credentialsInsert(db: Executor, values: NewCredentials) {
  return db
    .insertInto('booking_credentials')
    .values({ ...values, key_id: activeKeyIdOf(db, values.tenant_id) })
    .onConflict((oc) => oc.doNothing());
}

export async function findCredentials(
  db: Executor,
  tenantId: string,
  bookingId: string,
): Promise<BookingCredentialRow | undefined> {
  return db
    .selectFrom('booking_credentials')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

/** A booking's object and window (the claims of its signed token). */
export async function findBookingWindow(
  db: Executor,
  tenantId: string,
  bookingId: string,
): Promise<{ object_id: string; start_time: Date; end_time: Date }> {
  return db
    .selectFrom('bookings')
    .select(['object_id', 'start_time', 'end_time'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();
}

export interface CredentialBooking {
  id: string;
  object_id: string;
  start_time: Date;
  end_time: Date;
  object_name: string;
  accommodation_name: string;
  time_zone: string;
}

/** What the credentials view shows of a booking: its times and where it is. */
export async function findCredentialBooking(
  db: Executor,
  tenantId: string,
  bookingId: string,
): Promise<CredentialBooking | undefined> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('objects as o', (j) => j.onRef('o.tenant_id', '=', 'b.tenant_id').onRef('o.id', '=', 'b.object_id'))
    .innerJoin('accommodations as a', (j) =>
      j.onRef('a.tenant_id', '=', 'o.tenant_id').onRef('a.id', '=', 'o.accommodation_id'),
    )
    .select([
      'b.id',
      'b.object_id',
      'b.start_time',
      'b.end_time',
      'o.name as object_name',
      'a.name as accommodation_name',
      'a.time_zone',
    ])
    .where('b.tenant_id', '=', tenantId)
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}

export interface AccessLookup {
  door: Pick<DoorRow, 'id' | 'behavior' | 'unlock_duration_seconds'>;
  /** Present when the token matched a booking's credential. */
  booking?: { id: string; status: BookingStatus; start_time: Date; end_time: Date; door_serves_object: boolean };
}

/**
 * Everything an access check needs in one round trip: the door (only if this device drives it)
 * and the booking whose credential hash matches, with whether the door serves its object.
 * Undefined when the device does not drive the door.
 */
function accessLookupBy(by: 'qr' | 'sms' | 'signed') {
  const credentialParams = by === 'signed' ? (['bookingId', 'tokenId'] as const) : (['hash'] as const);
  return compiledOnce(
    ['tenantId', 'deviceId', 'doorId', ...credentialParams],
    (db, p: Record<'tenantId' | 'deviceId' | 'doorId' | 'hash' | 'bookingId' | 'tokenId', never>) =>
      db
        .selectFrom('device_doors as dd')
        .innerJoin('doors as d', (j) => j.onRef('d.tenant_id', '=', 'dd.tenant_id').onRef('d.id', '=', 'dd.door_id'))
        .leftJoin('booking_credentials as c', (j) => {
          const sameTenant = j.onRef('c.tenant_id', '=', 'dd.tenant_id');
          if (by === 'signed') return sameTenant.on('c.booking_id', '=', p.bookingId).on('c.token_id', '=', p.tokenId);
          return sameTenant.on(by === 'qr' ? 'c.qr_token_hash' : 'c.sms_code_hash', '=', p.hash);
        })
        .leftJoin('bookings as b', (j) => j.onRef('b.tenant_id', '=', 'c.tenant_id').onRef('b.id', '=', 'c.booking_id'))
        .select([
          'd.id',
          'd.behavior',
          'd.unlock_duration_seconds',
          'b.id as booking_id',
          'b.status',
          'b.start_time',
          'b.end_time',
        ])
        .select(
          sql<boolean>`EXISTS (SELECT 1 FROM door_objects o WHERE o.tenant_id = dd.tenant_id AND o.door_id = dd.door_id AND o.object_id = b.object_id)`.as(
            'door_serves_object',
          ),
        )
        .where('dd.tenant_id', '=', p.tenantId)
        .where('dd.device_id', '=', p.deviceId)
        .where('dd.door_id', '=', p.doorId),
  );
}
const lookups = { qr: accessLookupBy('qr'), sms: accessLookupBy('sms'), signed: accessLookupBy('signed') };

/** What a token matched: the hash of an opaque QR token or SMS code, or a verified signed token's booking and id. */
export type CredentialKey =
  { type: CredentialType; hash: string } | { type: 'signed'; bookingId: string; tokenId: string };

export async function lookupAccess(
  db: Executor,
  q: { tenantId: string; deviceId: string; doorId: string; credential?: CredentialKey },
): Promise<AccessLookup | undefined> {
  const c = q.credential;
  // Values of names a variant's query does not use are ignored.
  const base = {
    tenantId: q.tenantId,
    deviceId: q.deviceId,
    doorId: q.doorId,
    hash: null,
    bookingId: null,
    tokenId: null,
  };
  const [row] =
    c?.type === 'signed'
      ? await lookups.signed(db, { ...base, bookingId: c.bookingId, tokenId: c.tokenId })
      : await lookups[c?.type ?? 'qr'](db, { ...base, hash: c?.hash ?? '' });
  if (!row) return undefined;
  const door = { id: row.id, behavior: row.behavior, unlock_duration_seconds: row.unlock_duration_seconds };
  if (!row.booking_id || !row.status || !row.start_time || !row.end_time) return { door };
  return {
    door,
    booking: {
      id: row.booking_id,
      status: row.status,
      start_time: row.start_time,
      end_time: row.end_time,
      door_serves_object: row.door_serves_object,
    },
  };
}

/** One access-log row to write (its id comes from the database). */
export type AccessLogEntry = Omit<Insertable<AccessLogTable>, 'id'>;

/**
 * Appends a batch of access-log entries in one statement, with asynchronous commit: nothing waits
 * for a WAL flush. A PostgreSQL crash can lose the last fraction of a second of log entries; it
 * never leaves the database inconsistent.
 */
export async function insertAccessLogBatch(
  db: Kysely<DB>,
  entries: (AccessLogEntry & { id?: string })[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL synchronous_commit = off`.execute(trx);
    await trx.insertInto('access_log').values(entries).execute();
  });
}

export interface AccessLogFilters {
  deviceId?: string | null;
  doorId?: string | null;
  bookingId?: string | null;
  before?: Date | null;
}

export async function listAccessLog(
  db: Executor,
  tenantId: string,
  f: AccessLogFilters,
  limit: number,
): Promise<AccessLogRow[]> {
  let q = db.selectFrom('access_log').selectAll().where('tenant_id', '=', tenantId);
  if (f.deviceId) q = q.where('device_id', '=', f.deviceId);
  if (f.doorId) q = q.where('door_id', '=', f.doorId);
  if (f.bookingId) q = q.where('booking_id', '=', f.bookingId);
  if (f.before) q = q.where('checked_at', '<', f.before);
  return q.orderBy('checked_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** An access check's place in the log's order (newest first, then id): what a cursor carries. */
export interface AccessLogKey {
  /** checked_at to the microsecond (src/kernel/db/keyset.ts). */
  at: string;
  id: string;
}

export type AccessLogPageRow = AccessLogRow & { sort_at: string };

function accessLogMatching(db: Executor, tenantId: string, f: AccessLogFilters) {
  let q = db.selectFrom('access_log').where('tenant_id', '=', tenantId);
  if (f.deviceId) q = q.where('device_id', '=', f.deviceId);
  if (f.doorId) q = q.where('door_id', '=', f.doorId);
  if (f.bookingId) q = q.where('booking_id', '=', f.bookingId);
  return q;
}

/** A keyset page of the log (newest first, then id) after `after`, on access_log_tenant_idx / access_log_device_idx. */
export async function accessLogPage(
  db: Executor,
  tenantId: string,
  f: AccessLogFilters,
  after: AccessLogKey | null,
  limit: number,
): Promise<AccessLogPageRow[]> {
  return accessLogMatching(db, tenantId, f)
    .selectAll()
    .select(microsecondKey('checked_at').as('sort_at'))
    .$if(after !== null, (q) => q.where(olderThan('checked_at', 'id', after ?? { at: '', id: '' }, 'uuid')))
    .orderBy('checked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** How many checks match the filters (every page's totalCount). */
export async function countAccessLog(db: Executor, tenantId: string, f: AccessLogFilters): Promise<number> {
  return (
    await accessLogMatching(db, tenantId, f)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}
