import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { TRUNC_UNIT, type ReportPeriod, type ReportRange } from './reports.rules.js';

// The reports' SQL (docs/reports.md): every number is an aggregate PostgreSQL computes over one
// tenant's rows, read through bookings_tenant_start_report_idx (bookings by start, covering what
// the reports add up) and payments_tenant_created_idx (migration 202612030401). Days, weeks, months
// and hours are cut in the report's zone with date_trunc(unit, instant, zone), so DST days have
// their 23 or 25 hours. Group keys are positional (GROUP BY 1, 2): the zone is a parameter, and
// PostgreSQL cannot tell that two placeholders of the same value are one expression.

/** Statuses whose bookings count as booked (a no-show stays CONFIRMED and counts). */
const BOOKED = ['CONFIRMED', 'COMPLETED'] as const;

/** The longest booking (booking rules allow 7 days): how far before the range an overlapping booking may start. */
const LONGEST_BOOKING = sql`interval '7 days'`;

const localDate = (instant: RawBuilder<unknown>, zone: string) =>
  sql<string>`to_char(${instant} at time zone ${zone}, 'YYYY-MM-DD')`;

/** The tenant's zone: its first accommodation's (by creation); null when it has none. */
export async function tenantZone(db: Executor, tenantId: string): Promise<string | null> {
  const row = await db
    .selectFrom('accommodations')
    .select('time_zone')
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.time_zone ?? null;
}

/** The tenant's objects (those asked for, or all), by name: id and name. */
export async function reportObjects(db: Executor, tenantId: string, objectIds: readonly string[]) {
  return db
    .selectFrom('objects')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .$if(objectIds.length > 0, (q) => q.where('id', 'in', objectIds))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export interface MinutesCell {
  object_id: string;
  weekday: number;
  hour: number;
  minutes: string;
}

/**
 * Minutes per object and local hour of the week (in `zone`) of the spans a `spans(object_id, s, e)`
 * CTE gives (instants, s < e). Spans with no clock change inside (the local span is as long as the
 * real one) that start on the same local weekday and time and last as long split into the same
 * hours: each such group is split once and counted n times, so a year of daily slots costs a few
 * thousand rows, not one per span and hour. The others (a DST night inside) are split instant by
 * instant, each local hour read in `zone` (a 25-hour day's repeated hour counts twice).
 */
function minutesPerHour(zone: string) {
  return sql`, local as (
      select object_id, s, e, s at time zone ${zone} as ls, e at time zone ${zone} as le from spans where e > s
    ), regular as (
      select object_id, min(ls) as ls, le - ls as len, count(*) as n
      from local where le - ls = e - s
      group by object_id, extract(isodow from ls), ls::time, le - ls
    ), hours as (
      select r.object_id, extract(isodow from h.at)::int as weekday, extract(hour from h.at)::int as hour,
        r.n * extract(epoch from least(r.ls + r.len, h.at + interval '1 hour') - greatest(r.ls, h.at)) as seconds
      from regular r
      cross join lateral generate_series(date_trunc('hour', r.ls), r.ls + r.len - interval '1 microsecond', interval '1 hour') as h(at)
      union all
      select l.object_id, extract(isodow from h.at at time zone ${zone})::int, extract(hour from h.at at time zone ${zone})::int,
        extract(epoch from least(l.e, h.at + interval '1 hour') - greatest(l.s, h.at))
      from local l
      cross join lateral generate_series(date_trunc('hour', l.s, ${zone}), l.e - interval '1 microsecond', interval '1 hour') as h(at)
      where l.le - l.ls <> l.e - l.s
    )
    select object_id, weekday, hour, sum(seconds) / 60 as minutes from hours group by 1, 2, 3`;
}

/** Booked minutes (CONFIRMED, COMPLETED) per object and local hour of the week, clipped to the range. */
export async function bookedMinutes(db: Executor, tenantId: string, range: ReportRange): Promise<MinutesCell[]> {
  const { start, end, timeZone: zone, objectIds } = range;
  const objectFilter = objectIds.length ? sql`and b.object_id in (${sql.join(objectIds)})` : sql``;
  const result = await sql<MinutesCell>`
    with spans as (
      select b.object_id, greatest(b.start_time, ${start}::timestamptz) as s, least(b.end_time, ${end}::timestamptz) as e
      from bookings b
      where b.tenant_id = ${tenantId}
        and b.start_time >= ${start}::timestamptz - ${LONGEST_BOOKING}
        and b.start_time < ${end}::timestamptz
        and b.end_time > ${start}::timestamptz
        and b.status in (${sql.join([...BOOKED])})
        ${objectFilter}
    ) ${minutesPerHour(zone)}`.execute(db);
  return result.rows;
}

/**
 * Open minutes per object and local hour of the week (of the report's zone) inside the range: each
 * object's day in its accommodation's zone opens as its opening hours say, or as its special date
 * says (closed, or other hours). The days are taken one wider on each side, since the object's zone
 * may differ from the report's; the spans are clipped to the range.
 */
export async function openMinutes(db: Executor, tenantId: string, range: ReportRange): Promise<MinutesCell[]> {
  const { start, end, timeZone: zone, objectIds, from, to } = range;
  const objectFilter = objectIds.length ? sql`and o.id in (${sql.join(objectIds)})` : sql``;
  const result = await sql<MinutesCell>`
    with days as (
      select o.id as object_id, a.time_zone as zone, d.day,
        o.opening_hours -> ((array['monday','tuesday','wednesday','thursday','friday','saturday','sunday'])[extract(isodow from d.day)::int]) as hours
      from objects o
      join accommodations a on a.tenant_id = o.tenant_id and a.id = o.accommodation_id
      cross join lateral (select g::date as day from generate_series(${from}::date - 1, ${to}::date + 1, interval '1 day') g) d
      where o.tenant_id = ${tenantId} ${objectFilter}
    ), spans as (
      select days.object_id,
        greatest((days.day + coalesce(sd.open, days.hours ->> 'open')::interval) at time zone days.zone, ${start}::timestamptz) as s,
        least((days.day + coalesce(sd.close, days.hours ->> 'close')::interval) at time zone days.zone, ${end}::timestamptz) as e
      from days
      left join special_dates sd on sd.tenant_id = ${tenantId} and sd.object_id = days.object_id and sd.date = days.day
      where not coalesce(sd.closed, false) and coalesce(sd.open, days.hours ->> 'open') is not null
    ) ${minutesPerHour(zone)}`.execute(db);
  return result.rows;
}

export interface RevenueRowSql {
  period_start: string;
  currency: string;
  bookings: string;
  revenue: string;
}

/** Booked revenue per period (local start date) and currency. */
export async function revenueByPeriod(
  db: Executor,
  tenantId: string,
  range: ReportRange,
  period: ReportPeriod,
): Promise<RevenueRowSql[]> {
  const zone = range.timeZone;
  return db
    .selectFrom('bookings as b')
    .select([
      localDate(sql`date_trunc(${TRUNC_UNIT[period]}, b.start_time, ${zone})`, zone).as('period_start'),
      'b.currency',
      sql<string>`count(*)`.as('bookings'),
      sql<string>`sum(b.total_price)`.as('revenue'),
    ])
    .where('b.tenant_id', '=', tenantId)
    .where('b.start_time', '>=', range.start)
    .where('b.start_time', '<', range.end)
    .where('b.status', 'in', BOOKED)
    .$if(range.objectIds.length > 0, (q) => q.where('b.object_id', 'in', range.objectIds))
    .groupBy(sql`1, 2`)
    .orderBy(sql`1, 2`)
    .execute();
}

export interface ObjectRevenueSql {
  object_id: string;
  object_name: string;
  currency: string;
  bookings: string;
  revenue: string;
}

/** Booked revenue per object and currency. */
export async function revenueByObject(db: Executor, tenantId: string, range: ReportRange): Promise<ObjectRevenueSql[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('objects as o', (j) => j.onRef('o.id', '=', 'b.object_id').on('o.tenant_id', '=', tenantId))
    .select([
      'b.object_id',
      'o.name as object_name',
      'b.currency',
      sql<string>`count(*)`.as('bookings'),
      sql<string>`sum(b.total_price)`.as('revenue'),
    ])
    .where('b.tenant_id', '=', tenantId)
    .where('b.start_time', '>=', range.start)
    .where('b.start_time', '<', range.end)
    .where('b.status', 'in', BOOKED)
    .$if(range.objectIds.length > 0, (q) => q.where('b.object_id', 'in', range.objectIds))
    .groupBy(['b.object_id', 'o.name', 'b.currency'])
    .orderBy(sql`sum(b.total_price)`, 'desc')
    .orderBy('o.name')
    .orderBy('b.object_id')
    .execute();
}

export interface LedgerRowSql {
  period_start: string;
  currency: string;
  payments: string;
  payment_count: string;
  refunds: string;
  refund_count: string;
  online: string;
  online_count: string;
  at_venue: string;
  at_venue_count: string;
  refunds_online: string;
  refunds_at_venue: string;
}

/** The payments ledger per period (local) and currency: payments and refunds, by provider too. */
export async function ledgerByPeriod(
  db: Executor,
  tenantId: string,
  range: ReportRange,
  period: ReportPeriod,
): Promise<LedgerRowSql[]> {
  const zone = range.timeZone;
  const sumOf = (kind: 'payment' | 'refund', provider?: 'stripe' | 'venue') =>
    provider
      ? sql<string>`coalesce(sum(p.amount) filter (where p.kind = ${kind} and p.provider = ${provider}), 0)`
      : sql<string>`coalesce(sum(p.amount) filter (where p.kind = ${kind}), 0)`;
  const countOf = (kind: 'payment' | 'refund', provider?: 'stripe' | 'venue') =>
    provider
      ? sql<string>`count(*) filter (where p.kind = ${kind} and p.provider = ${provider})`
      : sql<string>`count(*) filter (where p.kind = ${kind})`;
  return db
    .selectFrom('payments as p')
    .select([
      localDate(sql`date_trunc(${TRUNC_UNIT[period]}, p.created_at, ${zone})`, zone).as('period_start'),
      'p.currency',
      sumOf('payment').as('payments'),
      countOf('payment').as('payment_count'),
      sumOf('refund').as('refunds'),
      countOf('refund').as('refund_count'),
      sumOf('payment', 'stripe').as('online'),
      countOf('payment', 'stripe').as('online_count'),
      sumOf('payment', 'venue').as('at_venue'),
      countOf('payment', 'venue').as('at_venue_count'),
      sumOf('refund', 'stripe').as('refunds_online'),
      sumOf('refund', 'venue').as('refunds_at_venue'),
    ])
    .where('p.tenant_id', '=', tenantId)
    .where('p.created_at', '>=', range.start)
    .where('p.created_at', '<', range.end)
    .$if(range.objectIds.length > 0, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('bookings as b')
            .select(sql`1`.as('one'))
            .where('b.tenant_id', '=', tenantId)
            .whereRef('b.id', '=', 'p.booking_id')
            .where('b.object_id', 'in', range.objectIds),
        ),
      ),
    )
    .groupBy(sql`1, 2`)
    .orderBy(sql`1, 2`)
    .execute();
}

export interface NoShowSql {
  object_id: string;
  object_name: string;
  bookings: string;
  no_shows: string;
}

/** CONFIRMED and COMPLETED bookings that started in the range before `now`, and their no-shows, per object. */
export async function noShowsByObject(
  db: Executor,
  tenantId: string,
  range: ReportRange,
  now: Date,
): Promise<NoShowSql[]> {
  const until = now < range.end ? now : range.end;
  return db
    .selectFrom('bookings as b')
    .innerJoin('objects as o', (j) => j.onRef('o.id', '=', 'b.object_id').on('o.tenant_id', '=', tenantId))
    .select([
      'b.object_id',
      'o.name as object_name',
      sql<string>`count(*)`.as('bookings'),
      sql<string>`count(b.no_show_at)`.as('no_shows'),
    ])
    .where('b.tenant_id', '=', tenantId)
    .where('b.start_time', '>=', range.start)
    .where('b.start_time', '<', until)
    .where('b.status', 'in', BOOKED)
    .$if(range.objectIds.length > 0, (q) => q.where('b.object_id', 'in', range.objectIds))
    .groupBy(['b.object_id', 'o.name'])
    .execute();
}
