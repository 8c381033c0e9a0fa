import { sql, type InsertQueryBuilder, type Kysely, type RawBuilder } from 'kysely';
import { activePricingRules, type PricingRule } from '../pricing/index.js';
import { referenceOfSearch } from './reference.js';
import type { Locale } from '../../kernel/i18n.js';
import type { DB, Executor } from '../../kernel/db/index.js';
import { compiledOnce } from '../../kernel/db/compiled-once.js';
import {
  BOOKING_VIEW_COLUMNS,
  type AccommodationRow,
  type BookingRow,
  type BookingStatus,
  type CancellationReasonCode,
  type BookingView,
  type Metadata,
  type PaymentStatus,
  type ObjectRow,
} from '../../kernel/db/types.js';

export interface NewBooking {
  tenant_id: string;
  object_id: string;
  guest_name: string;
  guest_email: string;
  guest_phone: string | null;
  start_time: Date;
  end_time: Date;
  blocked_until: Date;
  status: BookingStatus;
  total_price: number;
  /** The column's default (EUR) when not given. */
  currency?: string;
  created_at?: Date;
  updated_at?: Date;
  /** The metadata as JSON text. */
  metadata?: string;
  /** The last `data.sequence` of the booking's events (0, the default, when none is written with it). */
  event_sequence?: number;
  /** The guest's language (en|de); null: the venue's default. The reference is the trigger's. */
  guest_locale?: Locale | null;
  /** The series of an occurrence (src/modules/series) and the start its rule gave it; both null otherwise. */
  series_id?: string | null;
  series_start?: Date | null;
  /** The customer the guest was matched to (src/modules/customers). */
  customer_id?: string | null;
}

/** Another module's insert that a booking's statement runs with it, returning one row (or none: DO NOTHING). */
type CompanionInsert<T extends keyof DB, O> = InsertQueryBuilder<DB, T, O>;

/**
 * Inserts a booking (its id given) and, in the same statement as data-modifying CTEs, its first
 * event and its credentials: one round trip where three were, all or nothing (an overlap's
 * exclusion violation fails the whole statement). Foreign keys are checked at the statement's end,
 * so the credentials may name the booking inserted beside them. Returns the booking and what the
 * credentials' insert returned (undefined when it inserted nothing).
 */
export async function insertBookingWith(
  db: Executor,
  values: NewBooking & { id: string },
  event: CompanionInsert<'events', { id: string }>,
  credentials: CompanionInsert<'booking_credentials', { key_id: string | null }>,
): Promise<{ booking: BookingRow; credentials: { key_id: string | null } | undefined }> {
  const { credentials_key_id, credentials_written, ...booking } = await db
    .with('new_booking', () => db.insertInto('bookings').values(values).returningAll())
    // Never referenced: PostgreSQL runs every data-modifying CTE to completion all the same.
    .with('new_event', () => event)
    .with('new_credentials', () => credentials)
    .selectFrom('new_booking')
    .selectAll('new_booking')
    .select((eb) => [
      eb.exists(eb.selectFrom('new_credentials').select(sql.lit(1).as('one'))).as('credentials_written'),
      eb.selectFrom('new_credentials').select('key_id').as('credentials_key_id'),
    ])
    .executeTakeFirstOrThrow();
  return {
    booking,
    credentials: credentials_written ? { key_id: credentials_key_id } : undefined,
  };
}

export async function insertBooking(db: Executor, values: NewBooking): Promise<BookingRow> {
  return db.insertInto('bookings').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findBooking(db: Executor, tenantId: string, id: string): Promise<BookingRow | undefined> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findBookingForUpdate(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<BookingRow | undefined> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateBookingStatus(
  db: Executor,
  tenantId: string,
  id: string,
  status: BookingStatus,
  refundAmount: number | null,
  now: Date,
  reason: { code: CancellationReasonCode; text: string | null } | null = null,
): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({
      status,
      refund_amount: refundAmount,
      updated_at: now,
      ...(reason ? { cancellation_reason_code: reason.code, cancellation_reason: reason.text } : {}),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks a booking a no-show at `now`. */
export async function setNoShow(db: Executor, tenantId: string, id: string, now: Date): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({ no_show_at: now, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets a booking's guest columns (those given). */
export async function updateGuest(
  db: Executor,
  tenantId: string,
  id: string,
  set: { guest_name?: string | null; guest_email?: string | null; guest_phone?: string | null },
  now: Date,
): Promise<BookingRow> {
  const { guest_name, guest_email, guest_phone } = set;
  return db
    .updateTable('bookings')
    .set({
      ...(guest_name != null ? { guest_name } : {}),
      ...(guest_email != null ? { guest_email } : {}),
      ...('guest_phone' in set ? { guest_phone: guest_phone ?? null } : {}),
      updated_at: now,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BookingFilters {
  status?: BookingStatus | null;
  objectId?: string | null;
  from?: Date | null;
  to?: Date | null;
  guestEmail?: string | null;
  /**
   * Part of the guest's name or email, case-insensitive (bookings_guest_search_tenant_idx: the tenant,
   * then trigrams), or the booking's reference with or without PRT- (bookings_tenant_reference_key).
   */
  search?: string | null;
  paymentStatus?: PaymentStatus | null;
  /** Exact key/value pairs the metadata must hold (containment, on bookings_metadata_idx). */
  metadata?: Metadata | null;
  /** Changed at or after this instant. */
  updatedSince?: Date | null;
}

/** A search fragment as a LIKE pattern matching it anywhere: %, _ and the escape character are literal. */
export const containsPattern = (fragment: string): string => `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function filtered(db: Executor, tenantId: string, f: BookingFilters) {
  let q = db.selectFrom('bookings as b').where('b.tenant_id', '=', tenantId);
  if (f.status) q = q.where('b.status', '=', f.status);
  if (f.objectId) q = q.where('b.object_id', '=', f.objectId);
  if (f.from) q = q.where('b.start_time', '>=', f.from);
  if (f.to) q = q.where('b.start_time', '<', f.to);
  if (f.guestEmail) q = q.where(sql`lower(b.guest_email)`, '=', f.guestEmail.toLowerCase());
  if (f.search) {
    const pattern = containsPattern(f.search);
    // A fragment that can be a reference also finds the booking of that reference (its unique index).
    const reference = referenceOfSearch(f.search);
    q = q.where((eb) =>
      eb.or([
        eb('b.guest_name', 'ilike', pattern),
        eb('b.guest_email', 'ilike', pattern),
        ...(reference ? [eb('b.reference', '=', reference)] : []),
      ]),
    );
  }
  if (f.paymentStatus) q = q.where('b.payment_status', '=', f.paymentStatus);
  if (f.metadata && Object.keys(f.metadata).length)
    q = q.where(sql<boolean>`b.metadata @> ${JSON.stringify(f.metadata)}::jsonb`);
  if (f.updatedSince) q = q.where('b.updated_at', '>=', f.updatedSince);
  return q;
}

/** Whether booking_counts answers the filters' count: none given, or the status alone. */
const countedByStatus = (f: BookingFilters): boolean =>
  !f.objectId &&
  !f.from &&
  !f.to &&
  !f.guestEmail &&
  !f.search &&
  !f.paymentStatus &&
  !(f.metadata && Object.keys(f.metadata).length) &&
  !f.updatedSince;

/**
 * How many of the tenant's bookings the filters match, as a scalar (int) for a select list. With no
 * filter or the status alone, it is the maintained count (migration 202611300101_booking_counts: the
 * folded n plus the deltas not folded yet), exact in the statement's snapshot; otherwise the
 * matching rows are counted. Its values are passed straight through (compiledOnce may use it).
 */
export function totalMatching(db: Executor, tenantId: string, f: BookingFilters): RawBuilder<number> {
  if (!countedByStatus(f))
    return sql<number>`(${filtered(db, tenantId, f).select(sql<number>`count(*)::int`.as('n'))})`;
  const status = f.status ? sql` AND status = ${f.status}` : sql``;
  return sql<number>`((SELECT coalesce(sum(n), 0) FROM booking_counts WHERE tenant_id = ${tenantId}${status})
    + (SELECT coalesce(sum(delta), 0) FROM booking_count_deltas WHERE tenant_id = ${tenantId}${status}))::int`;
}

/** How many of the tenant's bookings the filters match, as a query (one row: `n`). */
export const countMatching = (db: Executor, tenantId: string, f: BookingFilters) =>
  db.selectNoFrom(totalMatching(db, tenantId, f).as('n'));

/** The advisory lock that makes folding the counts one process at a time. */
const FOLD_COUNTS_LOCK = 3_011_300_101;

/**
 * Folds booking_count_deltas into booking_counts (a dispatcher sweep): the deltas it deletes and the
 * sums it adds commit in one statement, so a count read at any moment stays exact. One process folds
 * at a time; another finding the lock taken skips this turn. Returns the deltas folded.
 * Not in a transaction: it ends with a VACUUM of the deltas.
 */
export async function foldBookingCounts(db: Kysely<DB>): Promise<number> {
  const folded = await db.transaction().execute(async (trx) => {
    const { rows: lock } = await sql<{
      taken: boolean;
    }>`SELECT pg_try_advisory_xact_lock(${FOLD_COUNTS_LOCK}) AS taken`.execute(trx);
    if (!lock[0]?.taken) return 0;
    const { rows } = await sql<{ folded: number }>`
      WITH moved AS (DELETE FROM booking_count_deltas RETURNING tenant_id, status, delta),
      summed AS (SELECT tenant_id, status, sum(delta) AS n, count(*) AS c FROM moved GROUP BY tenant_id, status),
      added AS (
        INSERT INTO booking_counts (tenant_id, status, n)
        SELECT tenant_id, status, n FROM summed
        ON CONFLICT (tenant_id, status) DO UPDATE SET n = booking_counts.n + excluded.n
      )
      SELECT coalesce(sum(c), 0)::int AS folded FROM summed`.execute(trx);
    return rows[0]?.folded ?? 0;
  });
  // The folded deltas are dead rows now. Without a vacuum (autovacuum may be off, and PGlite has
  // none) they pile up, and the counts' read of the deltas walks them; the table is small, so this
  // is quick. SKIP_LOCKED: another process vacuuming it already does the job.
  if (folded > 0) await sql`VACUUM (ANALYZE, SKIP_LOCKED) booking_count_deltas`.execute(db);
  return folded;
}

export interface BookingListPage {
  rows: BookingView[];
  /** The objects and accommodations of the page's bookings, fetched in the same query. */
  objects: ObjectRow[];
  accommodations: AccommodationRow[];
  total: number;
}

type JsonRow = Record<string, unknown> & { created_at: string };
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the row type the JSON aggregate holds
const withDate = <T>(row: JsonRow): T =>
  ({
    ...row,
    created_at: new Date(row.created_at),
    ...(typeof row.updated_at === 'string' ? { updated_at: new Date(row.updated_at) } : {}),
  }) as T;

/** A booking's place in the listing order (start time, then id): what a cursor carries. */
export interface BookingKey {
  startTime: Date;
  id: string;
}

export type BookingViewColumn = (typeof BOOKING_VIEW_COLUMNS)[number];

/** What a listing reads, planned from what its caller shows (a GraphQL selection set). */
export interface ListPlan {
  /** The view columns the rows carry (`id` always does); every view column when absent. */
  columns?: readonly BookingViewColumn[];
  /** Whether the page's objects and accommodations come along (default: yes). */
  related?: boolean;
}

/**
 * One page (ordered by start time, then id, so pages are stable) with its objects and
 * accommodations joined in, and the total when asked: one round trip for the whole listing. The
 * rows carry only `plan.columns` (then typed wider than they are: the caller reads no other field).
 */
export async function listBookings(
  db: Executor,
  tenantId: string,
  f: BookingFilters,
  limit: number,
  offset: number,
  withTotal = true,
  plan: ListPlan = {},
  after: BookingKey | null = null,
): Promise<BookingListPage> {
  const columns: readonly BookingViewColumn[] = plan.columns
    ? [...new Set<BookingViewColumn>(['id', ...plan.columns])]
    : BOOKING_VIEW_COLUMNS;
  const related = plan.related ?? true;
  // The page CTE also carries what ordering and the related rows need.
  const pageColumns = [...new Set<BookingViewColumn>([...columns, 'start_time', 'object_id'])];
  // The page is cut first (index order, with the total when asked); its distinct objects
  // and their accommodations ride along once, as JSON on the page's first row.
  // A keyset page (`after`): the rows after the key in (start_time, id) order, on
  // bookings_tenant_start_idx; rows added before the key meanwhile cannot shift the page.
  const base = db.with('page', () =>
    filtered(db, tenantId, f)
      .$if(after !== null, (q) =>
        q.where(
          sql<boolean>`(b.start_time, b.id) > (${after?.startTime ?? null}::timestamptz, ${after?.id ?? null}::uuid)`,
        ),
      )
      .select(pageColumns.map((c) => `b.${c}` as const))
      // The total as an uncorrelated subquery, computed once (totalMatching), where a window
      // count would read every matching row in full.
      .select(withTotal ? totalMatching(db, tenantId, f).as('total_count') : sql<number>`0`.as('total_count'))
      .orderBy('b.start_time')
      .orderBy('b.id')
      .limit(limit)
      .offset(offset),
  );
  const rows = related
    ? await base
        .with('page_objects', (q) =>
          q
            .selectFrom('objects as o')
            .selectAll('o')
            .where('o.tenant_id', '=', tenantId)
            .where('o.id', 'in', (sub) => sub.selectFrom('page').select('page.object_id')),
        )
        .with('page_accommodations', (q) =>
          q
            .selectFrom('accommodations as a')
            .selectAll('a')
            .where('a.tenant_id', '=', tenantId)
            .where('a.id', 'in', (sub) => sub.selectFrom('page_objects').select('page_objects.accommodation_id')),
        )
        .selectFrom('page as b')
        .select([...columns.map((c) => `b.${c}` as const), 'b.total_count'])
        .select([
          sql<
            JsonRow[] | null
          >`CASE WHEN row_number() OVER (ORDER BY b.start_time, b.id) = 1 THEN (SELECT jsonb_agg(to_jsonb(po)) FROM page_objects po) END`.as(
            'objects_json',
          ),
          sql<
            JsonRow[] | null
          >`CASE WHEN row_number() OVER (ORDER BY b.start_time, b.id) = 1 THEN (SELECT jsonb_agg(to_jsonb(pa)) FROM page_accommodations pa) END`.as(
            'accommodations_json',
          ),
        ])
        .orderBy('b.start_time')
        .orderBy('b.id')
        .execute()
    : await base
        .selectFrom('page as b')
        .select([...columns.map((c) => `b.${c}` as const), 'b.total_count'])
        .select([sql<JsonRow[] | null>`NULL`.as('objects_json'), sql<JsonRow[] | null>`NULL`.as('accommodations_json')])
        .orderBy('b.start_time')
        .orderBy('b.id')
        .execute();
  const first = rows[0];
  const bookings = rows.map(({ objects_json: _o, accommodations_json: _a, total_count: _t, ...booking }) => booking);
  let total = first?.total_count ?? 0;
  if (withTotal && rows.length === 0 && (offset > 0 || after !== null)) {
    // A page past the end: the window count is unavailable, count separately.
    total = (await countMatching(db, tenantId, f).executeTakeFirstOrThrow()).n;
  }
  return {
    rows: bookings,
    objects: (first?.objects_json ?? []).map((o) => withDate<ObjectRow>(o)),
    accommodations: (first?.accommodations_json ?? []).map((a) => withDate<AccommodationRow>(a)),
    total,
  };
}

/**
 * The object a booking is being created for, row-locked until the transaction ends. The exclusion
 * constraint alone is what forbids overlaps; the lock only queues concurrent creations for the same
 * object, because concurrent conflicting inserts can otherwise wait on each other's index entries
 * and end in a deadlock (40P01) instead of a clean 23P01. FOR NO KEY UPDATE leaves foreign-key
 * checks of other rows referencing the object unblocked.
 */
/** A special date's opening, as the booking-window rules read it. */
export interface SpecialDateOpening {
  date: string;
  closed: boolean;
  reason: string;
  open: string | null;
  close: string | null;
}

export interface BookingContextRow extends ObjectRow {
  time_zone: string;
  /** The tenant's active pricing rules, in quote order (the pricing module's activePricingRules). */
  pricing_rules: PricingRule[];
  /** The object's special dates from the UTC day before `start` to the day after (its local date lies among them in any zone). */
  special_dates: SpecialDateOpening[];
}

const utcDay = (instant: Date, days: number) =>
  new Date(instant.getTime() + days * 86_400_000).toISOString().slice(0, 10);

function bookingContextQuery(lock: boolean) {
  return compiledOnce(['tenantId', 'objectId', 'fromDay', 'toDay'], (db, p) => {
    const query = db
      .selectFrom('objects as o')
      .innerJoin('accommodations as a', (join) =>
        join.onRef('a.id', '=', 'o.accommodation_id').on('a.tenant_id', '=', p.tenantId),
      )
      .selectAll('o')
      .select('a.time_zone')
      .select(
        sql<
          SpecialDateOpening[]
        >`coalesce((select json_agg(json_build_object('date', sd.date, 'closed', sd.closed, 'reason', sd.reason, 'open', sd.open, 'close', sd.close))
          from special_dates sd where sd.tenant_id = o.tenant_id and sd.object_id = o.id and sd.date between ${p.fromDay}::date and ${p.toDay}::date), '[]'::json)`.as(
          'special_dates',
        ),
      )
      .select(activePricingRules(sql.ref('o.tenant_id')).as('pricing_rules'))
      .where('o.tenant_id', '=', p.tenantId)
      .where('o.id', '=', p.objectId);
    return lock ? query.forNoKeyUpdate('o') : query;
  });
}
const bookingContext = { locked: bookingContextQuery(true), read: bookingContextQuery(false) };

/**
 * What pricing and the booking-window rules read about an object, in one statement compiled once:
 * its row (locked against concurrent bookings of it when `lock`), its accommodation's zone, its
 * special dates around `start` and the tenant's active pricing rules.
 */
export async function readBookingContext(
  db: Executor,
  tenantId: string,
  objectId: string,
  start: Date,
  lock: boolean,
): Promise<BookingContextRow | undefined> {
  const rows = await (lock ? bookingContext.locked : bookingContext.read)(db, {
    tenantId,
    objectId,
    fromDay: utcDay(start, -1),
    toDay: utcDay(start, 1),
  });
  return rows[0];
}

export interface BookingMove {
  object_id: string;
  start_time: Date;
  end_time: Date;
  blocked_until: Date;
  total_price: number;
}

/** Moves a booking to another object or time; the exclusion constraint still refuses an overlap. */
export async function moveBooking(
  db: Executor,
  tenantId: string,
  id: string,
  move: BookingMove,
  now: Date,
): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({ ...move, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets a booking's metadata (the merged map). */
export async function setBookingMetadata(
  db: Executor,
  tenantId: string,
  id: string,
  metadata: Metadata,
  now: Date,
): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({ metadata: JSON.stringify(metadata), updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The next data.sequence of the booking's events; the row stays locked until the transaction ends. */
export async function nextEventSequence(db: Executor, tenantId: string, id: string): Promise<number> {
  const row = await db
    .updateTable('bookings')
    .set((eb) => ({ event_sequence: eb('event_sequence', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning('event_sequence')
    .executeTakeFirstOrThrow();
  return row.event_sequence;
}
