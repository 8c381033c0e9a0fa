import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type {
  AccommodationRow,
  DoorRow,
  Metadata,
  ObjectRow,
  SpecialDateRow,
  WeeklySchedule,
} from '../../kernel/db/types.js';
import type { BookingRules } from './catalog.rules.js';

export async function insertAccommodation(
  db: Executor,
  values: { tenant_id: string; name: string; address: string; time_zone: string },
): Promise<AccommodationRow> {
  return db.insertInto('accommodations').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccommodation(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<{ name: string; address: string; time_zone: string }>,
): Promise<AccommodationRow | undefined> {
  if (Object.keys(values).length === 0) return findAccommodation(db, tenantId, id);
  return db
    .updateTable('accommodations')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findAccommodation(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<AccommodationRow | undefined> {
  return db
    .selectFrom('accommodations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listAccommodations(db: Executor, tenantId: string): Promise<AccommodationRow[]> {
  return db
    .selectFrom('accommodations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function deleteAccommodation(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('accommodations')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertObject(
  db: Executor,
  values: {
    tenant_id: string;
    accommodation_id: string;
    name: string;
    price_per_hour: number;
    opening_hours: WeeklySchedule;
    rules: BookingRules;
    metadata: Metadata;
  },
): Promise<ObjectRow> {
  const { rules, opening_hours, metadata, ...rest } = values;
  return db
    .insertInto('objects')
    .values({
      ...rest,
      opening_hours: JSON.stringify(opening_hours),
      metadata: JSON.stringify(metadata),
      ...rulesToColumns(rules),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function rulesToColumns(rules: BookingRules) {
  return {
    min_duration_minutes: rules.minDurationMinutes,
    max_duration_minutes: rules.maxDurationMinutes,
    slot_increment_minutes: rules.slotIncrementMinutes,
    min_advance_minutes: rules.minAdvanceMinutes,
    max_advance_days: rules.maxAdvanceDays,
    buffer_minutes: rules.bufferMinutes,
  };
}

export function rulesOf(row: ObjectRow): BookingRules {
  return {
    minDurationMinutes: row.min_duration_minutes,
    maxDurationMinutes: row.max_duration_minutes,
    slotIncrementMinutes: row.slot_increment_minutes,
    minAdvanceMinutes: row.min_advance_minutes,
    maxAdvanceDays: row.max_advance_days,
    bufferMinutes: row.buffer_minutes,
  };
}

export async function updateObject(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<{
    name: string;
    price_per_hour: number;
    opening_hours: WeeklySchedule;
    rules: BookingRules;
    metadata: Metadata;
  }>,
): Promise<ObjectRow | undefined> {
  const { rules, opening_hours, metadata, ...rest } = values;
  const set = {
    ...rest,
    ...(opening_hours ? { opening_hours: JSON.stringify(opening_hours) } : {}),
    ...(metadata ? { metadata: JSON.stringify(metadata) } : {}),
    ...(rules ? rulesToColumns(rules) : {}),
  };
  if (Object.keys(set).length === 0) return findObject(db, tenantId, id);
  return (
    db
      .updateTable('objects')
      // Any change counts (the updatedSince filter): the transaction's time, as created_at's default.
      .set({ ...set, updated_at: sql<Date>`now()` })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
  );
}

export async function findObject(db: Executor, tenantId: string, id: string): Promise<ObjectRow | undefined> {
  return db.selectFrom('objects').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** An object, row-locked until the transaction ends (a metadata merge reads and writes it). */
export async function findObjectForUpdate(db: Executor, tenantId: string, id: string): Promise<ObjectRow | undefined> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Marks an object changed (its special dates changed): updatedAt is now. */
export async function touchObject(db: Executor, tenantId: string, id: string): Promise<void> {
  await db
    .updateTable('objects')
    .set({ updated_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
}

/** The object filters of both listings: its accommodation, exact metadata pairs, changed since. */
export interface ObjectFilter {
  accommodationId?: string;
  metadata?: Metadata | null;
  updatedSince?: Date | null;
  /** Only published objects (the booking page's). */
  published?: boolean;
}

/** An object's place in the listing order (name, then id): what a cursor carries. */
export interface ObjectKey {
  name: string;
  id: string;
}

function filteredObjects(db: Executor, tenantId: string, filter: ObjectFilter) {
  let query = db.selectFrom('objects').where('tenant_id', '=', tenantId);
  if (filter.published) query = query.where('published', '=', true);
  if (filter.accommodationId) query = query.where('accommodation_id', '=', filter.accommodationId);
  if (filter.metadata && Object.keys(filter.metadata).length)
    query = query.where(sql<boolean>`metadata @> ${JSON.stringify(filter.metadata)}::jsonb`);
  if (filter.updatedSince) query = query.where('updated_at', '>=', filter.updatedSince);
  return query;
}

/** An object with its accommodation's IANA zone (`time_zone`), in one statement. */
export async function findObjectWithZone(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<(ObjectRow & { time_zone: string }) | undefined> {
  return db
    .selectFrom('objects as o')
    .innerJoin('accommodations as a', (join) =>
      join.onRef('a.id', '=', 'o.accommodation_id').onRef('a.tenant_id', '=', 'o.tenant_id'),
    )
    .selectAll('o')
    .select('a.time_zone')
    .where('o.tenant_id', '=', tenantId)
    .where('o.id', '=', id)
    .executeTakeFirst();
}

/** One page of the tenant's objects (optionally of one accommodation) by name, then id, and how many there are. */
export async function objectPage(
  db: Executor,
  tenantId: string,
  filter: ObjectFilter,
  page: { limit: number; offset: number; after?: ObjectKey | null },
): Promise<{ rows: ObjectRow[]; total: number }> {
  const query = filteredObjects(db, tenantId, filter);
  const [rows, counted] = await Promise.all([
    query
      .selectAll()
      .$if(page.after != null, (q) => q.where(afterObject(page.after)))
      .orderBy('name')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(counted.total) };
}

/** Rows after the key in (name, id) order, compared by the database (its collation orders the names). */
const afterObject = (key: ObjectKey | null | undefined) =>
  sql<boolean>`(name, id) > (${key?.name ?? ''}, ${key?.id ?? null}::uuid)`;

export async function listObjects(
  db: Executor,
  tenantId: string,
  accommodationId?: string,
  filter: Omit<ObjectFilter, 'accommodationId'> = {},
  /** A keyset page (cursor paging): the rows after `after`, at most `limit`. */
  page?: { after: ObjectKey | null; limit: number },
): Promise<ObjectRow[]> {
  return filteredObjects(db, tenantId, { ...filter, accommodationId })
    .selectAll()
    .$if(page?.after != null, (q) => q.where(afterObject(page?.after)))
    .orderBy('name')
    .orderBy('id')
    .$if(page !== undefined, (q) => q.limit(page?.limit ?? 0))
    .execute();
}

export async function deleteObject(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('objects')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countBookingsOfObjects(db: Executor, tenantId: string, objectIds: string[]): Promise<number> {
  if (objectIds.length === 0) return 0;
  const row = await db
    .selectFrom('bookings')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('object_id', 'in', objectIds)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function listSpecialDates(db: Executor, tenantId: string, objectId: string): Promise<SpecialDateRow[]> {
  return db
    .selectFrom('special_dates')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('object_id', '=', objectId)
    .orderBy('date')
    .execute();
}

export async function upsertSpecialDate(
  db: Executor,
  row: {
    tenant_id: string;
    object_id: string;
    date: string;
    closed: boolean;
    reason: string;
    open: string | null;
    close: string | null;
  },
): Promise<void> {
  await db
    .insertInto('special_dates')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'object_id', 'date'])
        .doUpdateSet({ closed: row.closed, reason: row.reason, open: row.open, close: row.close }),
    )
    .execute();
}

export async function deleteSpecialDate(
  db: Executor,
  tenantId: string,
  objectId: string,
  date: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('special_dates')
    .where('tenant_id', '=', tenantId)
    .where('object_id', '=', objectId)
    .where('date', '=', date)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertDoor(
  db: Executor,
  values: { tenant_id: string; name: string; gpio_pin: number; behavior: string; unlock_duration_seconds: number },
): Promise<DoorRow> {
  return db.insertInto('doors').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDoor(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<{ name: string; gpio_pin: number; behavior: string; unlock_duration_seconds: number }>,
): Promise<DoorRow | undefined> {
  if (Object.keys(values).length === 0) return findDoor(db, tenantId, id);
  return db
    .updateTable('doors')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findDoor(db: Executor, tenantId: string, id: string): Promise<DoorRow | undefined> {
  return db.selectFrom('doors').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listDoors(db: Executor, tenantId: string): Promise<DoorRow[]> {
  return db.selectFrom('doors').selectAll().where('tenant_id', '=', tenantId).orderBy('name').orderBy('id').execute();
}

export async function deleteDoor(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('doors').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replaceDoorObjects(
  db: Executor,
  tenantId: string,
  doorId: string,
  objectIds: string[],
): Promise<void> {
  await db.deleteFrom('door_objects').where('tenant_id', '=', tenantId).where('door_id', '=', doorId).execute();
  if (objectIds.length) {
    await db
      .insertInto('door_objects')
      .values(objectIds.map((object_id) => ({ tenant_id: tenantId, door_id: doorId, object_id })))
      .execute();
  }
}

export async function existingObjectIds(db: Executor, tenantId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('objects')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

// Batch reads for DataLoaders: keyed by id only, because the parent row was tenant-checked already.

export async function accommodationsByIds(db: Executor, ids: readonly string[]): Promise<AccommodationRow[]> {
  return db
    .selectFrom('accommodations')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export async function objectsByIds(db: Executor, ids: readonly string[]): Promise<ObjectRow[]> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export async function objectsByAccommodationIds(db: Executor, ids: readonly string[]): Promise<ObjectRow[]> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('accommodation_id', 'in', [...ids])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function specialDatesByObjectIds(db: Executor, ids: readonly string[]): Promise<SpecialDateRow[]> {
  return db
    .selectFrom('special_dates')
    .selectAll()
    .where('object_id', 'in', [...ids])
    .orderBy('date')
    .execute();
}

export async function doorObjectsByDoorIds(
  db: Executor,
  ids: readonly string[],
): Promise<{ door_id: string; object_id: string }[]> {
  return db
    .selectFrom('door_objects')
    .select(['door_id', 'object_id'])
    .where('door_id', 'in', [...ids])
    .orderBy('object_id')
    .execute();
}

/** Sets `published` on the tenant's objects among `ids` that differ; returns the rows it changed. */
export async function setObjectsPublished(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
  published: boolean,
  now: Date,
): Promise<ObjectRow[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('objects')
    .set({ published, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .where('published', '<>', published)
    .returningAll()
    .execute();
}

/** The tenant's objects among `ids` (any order). */
export async function findObjects(db: Executor, tenantId: string, ids: readonly string[]): Promise<ObjectRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('objects').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}
