import type { Insertable, InsertQueryBuilder, InsertResult } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.js';
import { activeKeyIdOf } from './door-credentials.repository.js';
import { microsecondKey, olderThan } from '../../kernel/db/keyset.js';
import { CompiledQuery, sql, type Kysely } from 'kysely';
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

/** The opt-in event of each access decision (docs/webhooks.md, "access.decided"). */
export const ACCESS_DECIDED = 'access.decided';

/** An access.decided event's data, from the access_log row `l` (the accessDecided subscription's fields). */
const ACCESS_DECIDED_DATA = `jsonb_build_object(
    'id', l.id, 'deviceId', l.device_id, 'doorId', l.door_id, 'bookingId', l.booking_id,
    'credentialType', l.credential_type, 'allowed', l.allowed, 'reason', l.reason,
    'checkedAt', to_char(l.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'mode', l.mode, 'tokenId', l.token_id)`;

/** Whether row `l`'s tenant has an active subscription to access.decided. */
const ACCESS_DECIDED_SUBSCRIBED = `EXISTS (SELECT 1 FROM webhooks w WHERE w.tenant_id = l.tenant_id AND w.active AND '${ACCESS_DECIDED}' = ANY (w.events))`;

/** The columns a batch writes, in the order of ACCESS_LOG_BATCH's arrays. */
const BATCH_COLUMNS = [
  'id',
  'tenant_id',
  'device_id',
  'door_id',
  'booking_id',
  'credential_type',
  'allowed',
  'reason',
  'checked_at',
  'mode',
  'token_id',
] as const;

/**
 * The access log's batch as one statement of fixed text with one array per column: prepared once
 * per connection (src/kernel/db/prepared.ts), built once per process, one round trip per batch.
 * It commits asynchronously (set_config(…, true) lasts until the statement's own commit), writes
 * the rows and, in the same statement, their opt-in access.decided events
 * (insertWithAccessDecidedEvents says why).
 */
const ACCESS_LOG_BATCH = `WITH log AS (
  INSERT INTO access_log (${BATCH_COLUMNS.join(', ')})
  SELECT coalesce(u.id, gen_random_uuid()), u.tenant_id, u.device_id, u.door_id, u.booking_id, u.credential_type,
    u.allowed, u.reason, u.checked_at, coalesce(u.mode, 'online'), u.token_id
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::boolean[], $8::text[],
    $9::timestamptz[], $10::text[], $11::text[]) AS u(${BATCH_COLUMNS.join(', ')})
  CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit
  RETURNING ${BATCH_COLUMNS.join(', ')}
)
INSERT INTO events (tenant_id, type, data)
SELECT l.tenant_id, '${ACCESS_DECIDED}', ${ACCESS_DECIDED_DATA}
FROM log l
WHERE ${ACCESS_DECIDED_SUBSCRIBED}
ORDER BY l.checked_at, l.id`;

/**
 * Appends a batch of access-log entries in one statement, with asynchronous commit: nothing waits
 * for a WAL flush. A PostgreSQL crash can lose the last fraction of a second of log entries; it
 * never leaves the database inconsistent.
 */
export async function insertAccessLogBatch(
  db: Kysely<DB>,
  entries: (AccessLogEntry & { id?: string })[],
): Promise<void> {
  const columns: unknown[][] = BATCH_COLUMNS.map(() => new Array<unknown>(entries.length));
  entries.forEach((e, i) => {
    const checkedAt = e.checked_at instanceof Date ? e.checked_at.toISOString() : e.checked_at;
    const row = [
      e.id ?? null,
      e.tenant_id,
      e.device_id,
      e.door_id,
      e.booking_id ?? null,
      e.credential_type ?? null,
      e.allowed,
      e.reason ?? null,
      checkedAt,
      e.mode ?? null,
      e.token_id ?? null,
    ];
    row.forEach((value, c) => {
      const column = columns[c];
      if (column) column[i] = value;
    });
  });
  await db.executeQuery(CompiledQuery.raw(ACCESS_LOG_BATCH, columns));
}

/**
 * Runs an insert into access_log and, in the same statement, writes one access.decided event per
 * inserted row whose tenant has an active webhook subscribed to it (opt-in: nobody else pays for
 * one event per scan). The events' trigger wakes the dispatchers only when it wrote some
 * (migration 202612030600), so a fleet nobody subscribes costs no notification per batch.
 */
export async function insertWithAccessDecidedEvents(
  trx: Executor,
  insert: InsertQueryBuilder<DB, 'access_log', InsertResult>,
): Promise<void> {
  await trx
    .with('log', () =>
      insert.returning([
        'id',
        'tenant_id',
        'device_id',
        'door_id',
        'booking_id',
        'credential_type',
        'allowed',
        'reason',
        'checked_at',
        'mode',
        'token_id',
      ]),
    )
    .insertInto('events')
    .columns(['tenant_id', 'type', 'data'])
    .expression((eb) =>
      eb
        .selectFrom('log as l')
        .select([
          'l.tenant_id',
          sql<string>`${ACCESS_DECIDED}::text`.as('type'),
          sql<string>`${sql.raw(ACCESS_DECIDED_DATA)}`.as('data'),
        ])
        .where(sql<boolean>`${sql.raw(ACCESS_DECIDED_SUBSCRIBED)}`)
        .orderBy('l.checked_at')
        .orderBy('l.id'),
    )
    .execute();
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
