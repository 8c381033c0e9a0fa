import type { Executor } from '../../kernel/db/index.js';
import type {
  AccommodationRow,
  DayHours,
  DoorRow,
  ObjectRow,
  SpecialDateRow,
  WeeklySchedule,
} from '../../kernel/db/types.js';
import { conflict, invalid, invalidField, notFound } from '../../kernel/errors.js';
import { isLocalDate, isUuid } from '../../kernel/validation.js';
import { TEXT_PART, UUID_PART, decodeListCursor, encodeListCursor, type CursorPage } from '../../kernel/paging.js';
import type {
  CreateAccommodation,
  CreateDoor,
  CreateObject,
  ListObjects,
  ObjectFilters,
  SpecialDate,
  UpdateAccommodation,
  UpdateDoor,
  UpdateObject,
} from './catalog.commands.js';
import * as repo from './catalog.repository.js';
export type { ObjectKey } from './catalog.repository.js';
import { mergeMetadata, metadataUnchanged } from '../../kernel/metadata.js';
import { mergeBookingRules, normalizeSchedule, validateSchedule, type BookingRules } from './catalog.rules.js';

// Every function takes the tenant already resolved from the principal (tenantOf) and the
// executor of the caller's transaction.

// Reads other modules use (the repository itself stays private to this module).
export {
  accommodationsByIds,
  existingObjectIds,
  findAccommodation,
  findObject,
  rulesOf,
} from './catalog.repository.js';

/** The accommodation of an object the caller already holds (every object has one: a foreign key). */
export async function accommodationOf(db: Executor, tenantId: string, object: ObjectRow): Promise<AccommodationRow> {
  const accommodation = await repo.findAccommodation(db, tenantId, object.accommodation_id);
  if (!accommodation) throw new Error(`accommodation ${object.accommodation_id} of object ${object.id} vanished`);
  return accommodation;
}

/** Creates the accommodation the caller parsed (parseCreateAccommodation). */
export async function createAccommodation(
  db: Executor,
  tenantId: string,
  command: CreateAccommodation,
): Promise<AccommodationRow> {
  return repo.insertAccommodation(db, {
    tenant_id: tenantId,
    name: command.name,
    address: command.address,
    time_zone: command.timeZone,
  });
}

export async function updateAccommodation(
  db: Executor,
  tenantId: string,
  id: string,
  command: UpdateAccommodation,
): Promise<AccommodationRow> {
  const row = isUuid(id)
    ? await repo.updateAccommodation(db, tenantId, id, {
        ...(command.name != null ? { name: command.name } : {}),
        ...(command.address != null ? { address: command.address } : {}),
        ...(command.timeZone != null ? { time_zone: command.timeZone } : {}),
      })
    : undefined;
  if (!row) throw notFound('Accommodation', id);
  return row;
}

export async function getAccommodation(db: Executor, tenantId: string, id: string): Promise<AccommodationRow> {
  const row = isUuid(id) ? await repo.findAccommodation(db, tenantId, id) : undefined;
  if (!row) throw notFound('Accommodation', id);
  return row;
}

export const listAccommodations = repo.listAccommodations;

export async function deleteAccommodation(db: Executor, tenantId: string, id: string): Promise<boolean> {
  await getAccommodation(db, tenantId, id);
  const objects = await repo.listObjects(db, tenantId, id);
  if (
    (await repo.countBookingsOfObjects(
      db,
      tenantId,
      objects.map((o) => o.id),
    )) > 0
  ) {
    throw conflict(
      'has_bookings',
      `Accommodation ${id} has objects with bookings; cancel or keep them instead of deleting`,
    );
  }
  return repo.deleteAccommodation(db, tenantId, id);
}

/** Creates the object the caller parsed (parseCreateObject) in one of the tenant's accommodations. */
export async function createObject(db: Executor, tenantId: string, command: CreateObject): Promise<ObjectRow> {
  if (!(await repo.findAccommodation(db, tenantId, command.accommodationId))) {
    throw notFound('Accommodation', command.accommodationId);
  }
  return repo.insertObject(db, {
    tenant_id: tenantId,
    accommodation_id: command.accommodationId,
    name: command.name,
    price_per_hour: command.pricePerHour,
    opening_hours: command.openingHours,
    rules: command.rules,
    metadata: mergeMetadata({}, command.metadata),
  });
}

export async function getObject(db: Executor, tenantId: string, id: string): Promise<ObjectRow> {
  const row = isUuid(id) ? await repo.findObject(db, tenantId, id) : undefined;
  if (!row) throw notFound('Object', id);
  return row;
}

export const listObjects = (db: Executor, tenantId: string, filters: ObjectFilters = {}) => {
  const { accommodationId, metadata, updatedSince } = filters;
  if (accommodationId != null && !isUuid(accommodationId)) return Promise.resolve([] as ObjectRow[]);
  return repo.listObjects(db, tenantId, accommodationId ?? undefined, { metadata, updatedSince });
};

/** One page of the tenant's objects (parseListObjects), by name, with the number of all that match. */
export async function objectPage(
  db: Executor,
  tenantId: string,
  command: ListObjects,
  /** Cursor paging (after, limit) instead of the page numbers. */
  cursor: CursorPage<repo.ObjectKey> | null = null,
): Promise<{
  objects: ObjectRow[];
  pagination: { page: number; pageSize: number; total: number };
  next: string | null;
}> {
  const page = cursor ? 1 : command.page;
  const pageSize = cursor ? cursor.limit : command.pageSize;
  const { rows, total } = await repo.objectPage(
    db,
    tenantId,
    {
      accommodationId: command.accommodationId ?? undefined,
      metadata: command.metadata,
      updatedSince: command.updatedSince,
    },
    cursor
      ? { limit: pageSize + 1, offset: 0, after: cursor.after }
      : { limit: pageSize, offset: (page - 1) * pageSize },
  );
  const last = rows.at(cursor ? pageSize - 1 : -1);
  const more = cursor ? rows.length > pageSize : (page - 1) * pageSize + rows.length < total;
  return {
    objects: rows.slice(0, pageSize),
    pagination: { page, pageSize, total },
    next: more && last ? objectCursor(last) : null,
  };
}

export const OBJECT_CURSOR = 'object';

/** An object's cursor: its place in the listing order (name, then id). */
export const objectCursor = (o: { name: string; id: string }, kind = OBJECT_CURSOR): string =>
  encodeListCursor(kind, [o.name, o.id]);

/** The sort key of an object cursor of the list `kind`; anything else is refused naming `after`. */
export function objectKeyOf(cursor: string, kind = OBJECT_CURSOR): repo.ObjectKey {
  const [name = '', id = ''] = decodeListCursor(kind, cursor, [TEXT_PART, UUID_PART]);
  return { name, id };
}

/** A keyset page of the tenant's published objects (the booking page's), by name then id. */
export const publishedObjectsPage = (
  db: Executor,
  tenantId: string,
  page: { after: repo.ObjectKey | null; limit: number },
) => repo.listObjects(db, tenantId, undefined, { published: true }, page);

/** Changes the given fields; `db` must be the caller's transaction (the row is locked for the metadata merge). */
export async function updateObject(
  db: Executor,
  tenantId: string,
  id: string,
  command: UpdateObject,
): Promise<ObjectRow> {
  // Locked: two metadata merges of one object must not lose each other's keys.
  const current = isUuid(id) ? await repo.findObjectForUpdate(db, tenantId, id) : undefined;
  if (!current) throw notFound('Object', id);
  const patch = command.metadata;
  const row = await repo.updateObject(db, tenantId, id, {
    ...(command.name != null ? { name: command.name } : {}),
    ...(command.pricePerHour != null ? { price_per_hour: command.pricePerHour } : {}),
    ...(patch != null && !metadataUnchanged(current.metadata, patch)
      ? { metadata: mergeMetadata(current.metadata, patch) }
      : {}),
  });
  if (!row) throw notFound('Object', id);
  return row;
}

export async function deleteObject(db: Executor, tenantId: string, id: string): Promise<boolean> {
  await getObject(db, tenantId, id);
  if ((await repo.countBookingsOfObjects(db, tenantId, [id])) > 0) {
    throw conflict('has_bookings', `Object ${id} has bookings; it cannot be deleted`);
  }
  return repo.deleteObject(db, tenantId, id);
}

export interface OpeningHoursView {
  /** The IANA zone of the object's accommodation. */
  timeZone: string;
  schedule: Record<keyof WeeklySchedule, DayHours | null>;
  specialDates: { date: string; closed: boolean; reason: string; open: string | null; close: string | null }[];
}

export function openingHoursView(
  object: ObjectRow,
  specialDates: SpecialDateRow[],
  timeZone: string,
): OpeningHoursView {
  const s = object.opening_hours;
  return {
    timeZone,
    schedule: {
      monday: s.monday ?? null,
      tuesday: s.tuesday ?? null,
      wednesday: s.wednesday ?? null,
      thursday: s.thursday ?? null,
      friday: s.friday ?? null,
      saturday: s.saturday ?? null,
      sunday: s.sunday ?? null,
    },
    specialDates: specialDates.map((d) => ({
      date: d.date,
      closed: d.closed,
      reason: d.reason,
      open: d.open,
      close: d.close,
    })),
  };
}

/** An object of the tenant with its accommodation's zone (`time_zone`); NOT_FOUND otherwise. */
async function getObjectWithZone(db: Executor, tenantId: string, id: string) {
  const row = isUuid(id) ? await repo.findObjectWithZone(db, tenantId, id) : undefined;
  if (!row) throw notFound('Object', id);
  return row;
}

export async function getOpeningHours(db: Executor, tenantId: string, objectId: string): Promise<OpeningHoursView> {
  const object = await getObjectWithZone(db, tenantId, objectId);
  return openingHoursView(object, await repo.listSpecialDates(db, tenantId, objectId), object.time_zone);
}

/** Booking rules with the IANA zone of the object's accommodation (the GraphQL and REST shape). */
export type BookingRulesView = BookingRules & { timeZone: string };

export async function setOpeningHours(
  db: Executor,
  tenantId: string,
  objectId: string,
  schedule: Record<string, DayHours | null | undefined>,
): Promise<OpeningHoursView> {
  const errors = validateSchedule(schedule, 'schedule');
  if (errors.length) throw invalid(errors);
  await getObject(db, tenantId, objectId);
  await repo.updateObject(db, tenantId, objectId, { opening_hours: normalizeSchedule(schedule) });
  return getOpeningHours(db, tenantId, objectId);
}

/** Sets the special date the caller parsed (parseSpecialDate). */
export async function setSpecialDate(
  db: Executor,
  tenantId: string,
  objectId: string,
  command: SpecialDate,
): Promise<OpeningHoursView> {
  await getObject(db, tenantId, objectId);
  await repo.upsertSpecialDate(db, { tenant_id: tenantId, object_id: objectId, ...command });
  await repo.touchObject(db, tenantId, objectId);
  return getOpeningHours(db, tenantId, objectId);
}

export async function removeSpecialDate(
  db: Executor,
  tenantId: string,
  objectId: string,
  date: string,
): Promise<OpeningHoursView> {
  await getObject(db, tenantId, objectId);
  if (!isLocalDate(date) || !(await repo.deleteSpecialDate(db, tenantId, objectId, date)))
    throw notFound('Special date', date);
  await repo.touchObject(db, tenantId, objectId);
  return getOpeningHours(db, tenantId, objectId);
}

export async function getBookingRules(db: Executor, tenantId: string, objectId: string): Promise<BookingRulesView> {
  const object = await getObjectWithZone(db, tenantId, objectId);
  return { ...repo.rulesOf(object), timeZone: object.time_zone };
}

export async function setBookingRules(
  db: Executor,
  tenantId: string,
  objectId: string,
  input: Partial<Record<keyof BookingRules, unknown>>,
): Promise<BookingRulesView> {
  const object = await getObjectWithZone(db, tenantId, objectId);
  const { rules, errors } = mergeBookingRules(repo.rulesOf(object), input, 'rules');
  if (errors.length) throw invalid(errors);
  const updated = await repo.updateObject(db, tenantId, objectId, { rules });
  if (!updated) throw notFound('Object', objectId);
  return { ...repo.rulesOf(updated), timeZone: object.time_zone };
}

/** The tenant's objects a door opens for: ids only (each checked), without repeats. */
async function checkDoorObjects(db: Executor, tenantId: string, objectIds: readonly string[]): Promise<string[]> {
  const malformed = objectIds.filter((id) => !isUuid(id));
  if (malformed.length) throw invalidField('objectIds', `not object ids: ${malformed.join(', ')}`);
  const known = await repo.existingObjectIds(db, tenantId, [...objectIds]);
  const unknown = objectIds.filter((id) => !known.has(id));
  if (unknown.length) throw invalidField('objectIds', `unknown objects: ${unknown.join(', ')}`);
  return [...new Set(objectIds)];
}

/** Creates the door the caller parsed (parseCreateDoor). */
export async function createDoor(db: Executor, tenantId: string, command: CreateDoor): Promise<DoorRow> {
  const objectIds = await checkDoorObjects(db, tenantId, command.objectIds ?? []);
  const door = await repo.insertDoor(db, {
    tenant_id: tenantId,
    name: command.name,
    gpio_pin: command.gpioPin,
    behavior: command.behavior ?? 'unlock_per_scan',
    unlock_duration_seconds: command.unlockDurationSeconds ?? 5,
  });
  await repo.replaceDoorObjects(db, tenantId, door.id, objectIds);
  return door;
}

export async function getDoor(db: Executor, tenantId: string, id: string): Promise<DoorRow> {
  const row = isUuid(id) ? await repo.findDoor(db, tenantId, id) : undefined;
  if (!row) throw notFound('Door', id);
  return row;
}

export const listDoors = repo.listDoors;

export async function updateDoor(db: Executor, tenantId: string, id: string, command: UpdateDoor): Promise<DoorRow> {
  await getDoor(db, tenantId, id);
  const objectIds = command.objectIds != null ? await checkDoorObjects(db, tenantId, command.objectIds) : null;
  const door = await repo.updateDoor(db, tenantId, id, {
    ...(command.name != null ? { name: command.name } : {}),
    ...(command.gpioPin != null ? { gpio_pin: command.gpioPin } : {}),
    ...(command.behavior != null ? { behavior: command.behavior } : {}),
    ...(command.unlockDurationSeconds != null ? { unlock_duration_seconds: command.unlockDurationSeconds } : {}),
  });
  if (!door) throw notFound('Door', id);
  if (objectIds) await repo.replaceDoorObjects(db, tenantId, id, objectIds);
  return door;
}

export async function deleteDoor(db: Executor, tenantId: string, id: string): Promise<boolean> {
  await getDoor(db, tenantId, id);
  return repo.deleteDoor(db, tenantId, id);
}

/**
 * Publishes (or withdraws) the tenant's objects `ids` on its booking page (docs/booking-page.md).
 * Every id must be one of the tenant's objects (else 404 naming the first that is not, and nothing
 * changes). Returns every named object as it now is, and those whose flag changed (to audit).
 */
export async function setObjectsPublished(
  trx: Executor,
  tenantId: string,
  ids: readonly string[],
  published: boolean,
  now: Date,
): Promise<{ objects: ObjectRow[]; changed: ObjectRow[] }> {
  const unique = [...new Set(ids)];
  const bad = unique.find((id) => !isUuid(id));
  if (bad !== undefined) throw notFound('Object', bad);
  const found = await repo.findObjects(trx, tenantId, unique);
  const missing = unique.find((id) => !found.some((o) => o.id === id));
  if (missing !== undefined) throw notFound('Object', missing);
  const changed = await repo.setObjectsPublished(trx, tenantId, unique, published, now);
  const byId = new Map([...found, ...changed].map((o) => [o.id, o]));
  return { objects: unique.flatMap((id) => byId.get(id) ?? []), changed };
}
