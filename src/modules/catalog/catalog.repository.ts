import { sql } from 'kysely';
import type { Executor } from '../../db/index.js';
import type { AccommodationRow, DoorRow, ObjectRow, SpecialDateRow, WeeklySchedule } from '../../db/types.js';
import type { BookingRules } from './catalog.rules.js';

export async function insertAccommodation(db: Executor, values: { tenant_id: string; name: string; address: string; time_zone: string }): Promise<AccommodationRow> {
  return db.insertInto('accommodations').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccommodation(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<{ name: string; address: string; time_zone: string }>,
): Promise<AccommodationRow | undefined> {
  if (Object.keys(values).length === 0) return findAccommodation(db, tenantId, id);
  return db.updateTable('accommodations').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function findAccommodation(db: Executor, tenantId: string, id: string): Promise<AccommodationRow | undefined> {
  return db.selectFrom('accommodations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listAccommodations(db: Executor, tenantId: string): Promise<AccommodationRow[]> {
  return db.selectFrom('accommodations').selectAll().where('tenant_id', '=', tenantId).orderBy('name').orderBy('id').execute();
}

export async function deleteAccommodation(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('accommodations').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertObject(
  db: Executor,
  values: { tenant_id: string; accommodation_id: string; name: string; price_per_hour: number; opening_hours: WeeklySchedule; rules: BookingRules },
): Promise<ObjectRow> {
  const { rules, opening_hours, ...rest } = values;
  return db
    .insertInto('objects')
    .values({ ...rest, opening_hours: JSON.stringify(opening_hours), ...rulesToColumns(rules) })
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
  values: Partial<{ name: string; price_per_hour: number; opening_hours: WeeklySchedule; rules: BookingRules }>,
): Promise<ObjectRow | undefined> {
  const { rules, opening_hours, ...rest } = values;
  const set = {
    ...rest,
    ...(opening_hours ? { opening_hours: JSON.stringify(opening_hours) } : {}),
    ...(rules ? rulesToColumns(rules) : {}),
  };
  if (Object.keys(set).length === 0) return findObject(db, tenantId, id);
  return db.updateTable('objects').set(set).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function findObject(db: Executor, tenantId: string, id: string): Promise<ObjectRow | undefined> {
  return db.selectFrom('objects').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listObjects(db: Executor, tenantId: string, accommodationId?: string): Promise<ObjectRow[]> {
  let query = db.selectFrom('objects').selectAll().where('tenant_id', '=', tenantId);
  if (accommodationId) query = query.where('accommodation_id', '=', accommodationId);
  return query.orderBy('name').orderBy('id').execute();
}

export async function deleteObject(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('objects').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
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
  return db.selectFrom('special_dates').selectAll().where('tenant_id', '=', tenantId).where('object_id', '=', objectId).orderBy('date').execute();
}

export async function upsertSpecialDate(
  db: Executor,
  row: { tenant_id: string; object_id: string; date: string; closed: boolean; reason: string; open: string | null; close: string | null },
): Promise<void> {
  await db
    .insertInto('special_dates')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'object_id', 'date']).doUpdateSet({ closed: row.closed, reason: row.reason, open: row.open, close: row.close }))
    .execute();
}

export async function deleteSpecialDate(db: Executor, tenantId: string, objectId: string, date: string): Promise<boolean> {
  const result = await db.deleteFrom('special_dates').where('tenant_id', '=', tenantId).where('object_id', '=', objectId).where('date', '=', date).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertDoor(db: Executor, values: { tenant_id: string; name: string; gpio_pin: number; behavior: string; unlock_duration_seconds: number }): Promise<DoorRow> {
  return db.insertInto('doors').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDoor(
  db: Executor,
  tenantId: string,
  id: string,
  values: Partial<{ name: string; gpio_pin: number; behavior: string; unlock_duration_seconds: number }>,
): Promise<DoorRow | undefined> {
  if (Object.keys(values).length === 0) return findDoor(db, tenantId, id);
  return db.updateTable('doors').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();
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

export async function replaceDoorObjects(db: Executor, tenantId: string, doorId: string, objectIds: string[]): Promise<void> {
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
  const rows = await db.selectFrom('objects').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
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

export async function doorObjectsByDoorIds(db: Executor, ids: readonly string[]): Promise<{ door_id: string; object_id: string }[]> {
  return db
    .selectFrom('door_objects')
    .select(['door_id', 'object_id'])
    .where('door_id', 'in', [...ids])
    .orderBy('object_id')
    .execute();
}
