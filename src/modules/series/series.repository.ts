import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow, BookingSeriesRow, Metadata } from '../../kernel/db/types.js';

// The series module's table (booking_series) and its reads of the occurrences' bookings rows
// (bookings.series_id, bookings.series_start: migration 202612030200).

export interface NewSeries {
  tenant_id: string;
  object_id: string;
  rule: string;
  time_zone: string;
  first_start: Date;
  duration_minutes: number;
  guest_name: string;
  guest_email: string;
  guest_phone: string | null;
  metadata: Metadata;
  created_at: Date;
}

export async function insertSeries(db: Executor, values: NewSeries): Promise<BookingSeriesRow> {
  return db
    .insertInto('booking_series')
    .values({ ...values, metadata: JSON.stringify(values.metadata), updated_at: values.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSeries(
  db: Executor,
  tenantId: string,
  id: string,
  forUpdate = false,
): Promise<BookingSeriesRow | undefined> {
  let query = db.selectFrom('booking_series').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findSeriesByIds(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<BookingSeriesRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('booking_series')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function touchSeries(
  db: Executor,
  tenantId: string,
  id: string,
  now: Date,
  status?: 'ACTIVE' | 'CANCELLED',
): Promise<BookingSeriesRow> {
  return db
    .updateTable('booking_series')
    .set({ updated_at: now, ...(status ? { status } : {}) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every occurrence of a series (any status) by rule start, then start time and id. */
export async function occurrencesOf(db: Executor, tenantId: string, seriesId: string): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('series_id', '=', seriesId)
    .orderBy('series_start')
    .orderBy('start_time')
    .orderBy('id')
    .execute();
}

/** A page of a series' occurrences by start time, then id, after the keyset `key`; one row more than `size`. */
export async function occurrencePage(
  db: Executor,
  tenantId: string,
  seriesId: string,
  size: number,
  key: { startTime: Date; id: string } | null,
): Promise<BookingRow[]> {
  let query = db.selectFrom('bookings').selectAll().where('tenant_id', '=', tenantId).where('series_id', '=', seriesId);
  if (key) query = query.where(sql<boolean>`(start_time, id) > (${key.startTime}, ${key.id}::uuid)`);
  return query
    .orderBy('start_time')
    .orderBy('id')
    .limit(size + 1)
    .execute();
}

export async function countOccurrences(db: Executor, tenantId: string, seriesId: string): Promise<number> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('series_id', '=', seriesId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Runs `work` inside a savepoint of the caller's transaction: a failure undoes only what `work` wrote. */
export async function inSavepoint<T>(trx: Executor, work: () => Promise<T>): Promise<T> {
  await sql`SAVEPOINT portier_series_occurrence`.execute(trx);
  try {
    const result = await work();
    await sql`RELEASE SAVEPOINT portier_series_occurrence`.execute(trx);
    return result;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT portier_series_occurrence`.execute(trx);
    throw error;
  }
}
