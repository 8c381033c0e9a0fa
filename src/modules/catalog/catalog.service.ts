import type { Executor } from '../../db/index.js';
import type { AccommodationRow, DayHours, DoorRow, ObjectRow, SpecialDateRow, WeeklySchedule } from '../../db/types.js';
import { Validator, conflict, notFound } from '../../errors.js';
import { isHhmm, isLocalDate, isNonEmptyString, isTimeZone, isUuid, minutesOfDay } from '../../validation.js';
import * as repo from './catalog.repository.js';
import { DEFAULT_BOOKING_RULES, DOOR_BEHAVIORS, mergeBookingRules, normalizeSchedule, validateSchedule, type BookingRules } from './catalog.rules.js';

// Every function takes the tenant already resolved from the principal (tenantOf) and the
// executor of the caller's transaction.

// Reads other modules use (the repository itself stays private to this module).
export { accommodationsByIds, existingObjectIds, findAccommodation, findObject, rulesOf } from './catalog.repository.js';

/** The accommodation of an object the caller already holds (every object has one: a foreign key). */
export async function accommodationOf(db: Executor, tenantId: string, object: ObjectRow): Promise<AccommodationRow> {
  const accommodation = await repo.findAccommodation(db, tenantId, object.accommodation_id);
  if (!accommodation) throw new Error(`accommodation ${object.accommodation_id} of object ${object.id} vanished`);
  return accommodation;
}

export interface AccommodationInput {
  name?: string | null;
  address?: string | null;
  timeZone?: string | null;
}

function checkAccommodation(v: Validator, input: AccommodationInput, partial: boolean): void {
  if (!partial || input.name != null) v.check(isNonEmptyString(input.name), 'name', 'must be a non-empty string of at most 200 characters');
  if (!partial || input.address != null) v.check(isNonEmptyString(input.address, 500), 'address', 'must be a non-empty string of at most 500 characters');
  if (!partial || input.timeZone != null) v.check(isTimeZone(input.timeZone), 'timeZone', `must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(input.timeZone)}`);
}

export async function createAccommodation(db: Executor, tenantId: string, input: AccommodationInput): Promise<AccommodationRow> {
  const v = new Validator();
  checkAccommodation(v, input, false);
  v.throwIfAny();
  return repo.insertAccommodation(db, { tenant_id: tenantId, name: input.name!.trim(), address: input.address!.trim(), time_zone: input.timeZone! });
}

export async function updateAccommodation(db: Executor, tenantId: string, id: string, input: AccommodationInput): Promise<AccommodationRow> {
  const v = new Validator();
  checkAccommodation(v, input, true);
  v.throwIfAny();
  const row = isUuid(id)
    ? await repo.updateAccommodation(db, tenantId, id, {
        ...(input.name != null ? { name: input.name.trim() } : {}),
        ...(input.address != null ? { address: input.address.trim() } : {}),
        ...(input.timeZone != null ? { time_zone: input.timeZone } : {}),
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
    throw conflict('has_bookings', `Accommodation ${id} has objects with bookings; cancel or keep them instead of deleting`);
  }
  return repo.deleteAccommodation(db, tenantId, id);
}

export interface ObjectInput {
  accommodationId?: string | null;
  name?: string | null;
  pricePerHour?: number | null;
  openingHours?: Record<string, DayHours | null | undefined> | null;
  bookingRules?: Partial<Record<keyof BookingRules, unknown>> | null;
}

const MAX_PRICE_PER_HOUR = 100_000_000;

function checkPrice(v: Validator, price: unknown): void {
  v.check(
    typeof price === 'number' && Number.isInteger(price) && price >= 0 && price <= MAX_PRICE_PER_HOUR,
    'pricePerHour',
    `must be a whole number of cents from 0 to ${MAX_PRICE_PER_HOUR}`,
  );
}

export async function createObject(db: Executor, tenantId: string, input: ObjectInput): Promise<ObjectRow> {
  const v = new Validator();
  v.check(isUuid(input.accommodationId), 'accommodationId', 'must be the id of an accommodation');
  v.check(isNonEmptyString(input.name), 'name', 'must be a non-empty string of at most 200 characters');
  checkPrice(v, input.pricePerHour);
  v.errors.push(...validateSchedule(input.openingHours));
  const { rules, errors } = mergeBookingRules(DEFAULT_BOOKING_RULES, input.bookingRules);
  v.errors.push(...errors);
  v.throwIfAny();
  if (!(await repo.findAccommodation(db, tenantId, input.accommodationId!))) {
    throw notFound('Accommodation', input.accommodationId!);
  }
  return repo.insertObject(db, {
    tenant_id: tenantId,
    accommodation_id: input.accommodationId!,
    name: input.name!.trim(),
    price_per_hour: input.pricePerHour!,
    opening_hours: normalizeSchedule(input.openingHours),
    rules,
  });
}

export async function getObject(db: Executor, tenantId: string, id: string): Promise<ObjectRow> {
  const row = isUuid(id) ? await repo.findObject(db, tenantId, id) : undefined;
  if (!row) throw notFound('Object', id);
  return row;
}

export const listObjects = (db: Executor, tenantId: string, accommodationId?: string | null) => {
  if (accommodationId != null && !isUuid(accommodationId)) return Promise.resolve([] as ObjectRow[]);
  return repo.listObjects(db, tenantId, accommodationId ?? undefined);
};

export async function updateObject(db: Executor, tenantId: string, id: string, input: { name?: string | null; pricePerHour?: number | null }): Promise<ObjectRow> {
  const v = new Validator();
  if (input.name != null) v.check(isNonEmptyString(input.name), 'name', 'must be a non-empty string of at most 200 characters');
  if (input.pricePerHour != null) checkPrice(v, input.pricePerHour);
  v.throwIfAny();
  await getObject(db, tenantId, id);
  const row = await repo.updateObject(db, tenantId, id, {
    ...(input.name != null ? { name: input.name.trim() } : {}),
    ...(input.pricePerHour != null ? { price_per_hour: input.pricePerHour } : {}),
  });
  return row!;
}

export async function deleteObject(db: Executor, tenantId: string, id: string): Promise<boolean> {
  await getObject(db, tenantId, id);
  if ((await repo.countBookingsOfObjects(db, tenantId, [id])) > 0) {
    throw conflict('has_bookings', `Object ${id} has bookings; it cannot be deleted`);
  }
  return repo.deleteObject(db, tenantId, id);
}

export interface OpeningHoursView {
  schedule: Record<keyof WeeklySchedule, DayHours | null>;
  specialDates: { date: string; closed: boolean; reason: string; open: string | null; close: string | null }[];
}

export function openingHoursView(object: ObjectRow, specialDates: SpecialDateRow[]): OpeningHoursView {
  const s = object.opening_hours;
  return {
    schedule: {
      monday: s.monday ?? null,
      tuesday: s.tuesday ?? null,
      wednesday: s.wednesday ?? null,
      thursday: s.thursday ?? null,
      friday: s.friday ?? null,
      saturday: s.saturday ?? null,
      sunday: s.sunday ?? null,
    },
    specialDates: specialDates.map((d) => ({ date: d.date, closed: d.closed, reason: d.reason, open: d.open, close: d.close })),
  };
}

export async function getOpeningHours(db: Executor, tenantId: string, objectId: string): Promise<OpeningHoursView> {
  const object = await getObject(db, tenantId, objectId);
  return openingHoursView(object, await repo.listSpecialDates(db, tenantId, objectId));
}

export async function setOpeningHours(db: Executor, tenantId: string, objectId: string, schedule: Record<string, DayHours | null | undefined>): Promise<OpeningHoursView> {
  const v = new Validator();
  v.errors.push(...validateSchedule(schedule, 'schedule'));
  v.throwIfAny();
  await getObject(db, tenantId, objectId);
  await repo.updateObject(db, tenantId, objectId, { opening_hours: normalizeSchedule(schedule) });
  return getOpeningHours(db, tenantId, objectId);
}

export interface SpecialDateInput {
  date: string;
  closed: boolean;
  reason?: string | null;
  open?: string | null;
  close?: string | null;
}

export function checkSpecialDate(v: Validator, input: SpecialDateInput, field = ''): void {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  v.check(isLocalDate(input.date), at('date'), 'must be a date YYYY-MM-DD');
  v.check(typeof input.closed === 'boolean', at('closed'), 'must be true or false');
  if (input.reason != null) v.check(typeof input.reason === 'string' && input.reason.length <= 500, at('reason'), 'must be a string of at most 500 characters');
  if (input.open != null || input.close != null) {
    if (input.closed) {
      v.add(at(input.open != null ? 'open' : 'close'), 'a closed date takes no hours');
    } else if (v.check(isHhmm(input.open), at('open'), 'must be a time HH:MM') && v.check(isHhmm(input.close, true), at('close'), 'must be a time HH:MM')) {
      v.check(minutesOfDay(input.open!) < minutesOfDay(input.close!), at('close'), `must be later than open (${input.open})`);
    }
  }
}

export async function setSpecialDate(db: Executor, tenantId: string, objectId: string, input: SpecialDateInput): Promise<OpeningHoursView> {
  const v = new Validator();
  checkSpecialDate(v, input);
  v.throwIfAny();
  await getObject(db, tenantId, objectId);
  await repo.upsertSpecialDate(db, {
    tenant_id: tenantId,
    object_id: objectId,
    date: input.date,
    closed: input.closed,
    reason: input.reason ?? '',
    open: input.closed ? null : (input.open ?? null),
    close: input.closed ? null : (input.close ?? null),
  });
  return getOpeningHours(db, tenantId, objectId);
}

export async function removeSpecialDate(db: Executor, tenantId: string, objectId: string, date: string): Promise<OpeningHoursView> {
  await getObject(db, tenantId, objectId);
  if (!isLocalDate(date) || !(await repo.deleteSpecialDate(db, tenantId, objectId, date))) throw notFound('Special date', date);
  return getOpeningHours(db, tenantId, objectId);
}

export async function getBookingRules(db: Executor, tenantId: string, objectId: string): Promise<BookingRules> {
  return repo.rulesOf(await getObject(db, tenantId, objectId));
}

export async function setBookingRules(db: Executor, tenantId: string, objectId: string, input: Partial<Record<keyof BookingRules, unknown>>): Promise<BookingRules> {
  const object = await getObject(db, tenantId, objectId);
  const { rules, errors } = mergeBookingRules(repo.rulesOf(object), input, 'rules');
  const v = new Validator();
  v.errors.push(...errors);
  v.throwIfAny();
  return repo.rulesOf((await repo.updateObject(db, tenantId, objectId, { rules }))!);
}

export interface DoorInput {
  name?: string | null;
  gpioPin?: number | null;
  behavior?: string | null;
  unlockDurationSeconds?: number | null;
  objectIds?: string[] | null;
}

async function checkDoor(db: Executor, tenantId: string, input: DoorInput, partial: boolean): Promise<void> {
  const v = new Validator();
  if (!partial || input.name != null) v.check(isNonEmptyString(input.name), 'name', 'must be a non-empty string of at most 200 characters');
  if (!partial || input.gpioPin != null) {
    v.check(typeof input.gpioPin === 'number' && Number.isInteger(input.gpioPin) && input.gpioPin >= 0 && input.gpioPin <= 63, 'gpioPin', 'must be a whole number from 0 to 63');
  }
  if (input.behavior != null) {
    v.check((DOOR_BEHAVIORS as readonly string[]).includes(input.behavior), 'behavior', `must be one of ${DOOR_BEHAVIORS.join(', ')}`);
  }
  if (input.unlockDurationSeconds != null) {
    v.check(
      Number.isInteger(input.unlockDurationSeconds) && input.unlockDurationSeconds >= 1 && input.unlockDurationSeconds <= 3600,
      'unlockDurationSeconds',
      'must be a whole number of seconds from 1 to 3600',
    );
  }
  if (input.objectIds != null) {
    if (v.check(Array.isArray(input.objectIds), 'objectIds', 'must be a list of object ids')) {
      const malformed = input.objectIds.filter((id) => !isUuid(id));
      if (v.check(malformed.length === 0, 'objectIds', `not object ids: ${malformed.join(', ')}`)) {
        const known = await repo.existingObjectIds(db, tenantId, input.objectIds);
        const unknown = input.objectIds.filter((id) => !known.has(id));
        v.check(unknown.length === 0, 'objectIds', `unknown objects: ${unknown.join(', ')}`);
      }
    }
  }
  v.throwIfAny();
}

export async function createDoor(db: Executor, tenantId: string, input: DoorInput): Promise<DoorRow> {
  await checkDoor(db, tenantId, input, false);
  const door = await repo.insertDoor(db, {
    tenant_id: tenantId,
    name: input.name!.trim(),
    gpio_pin: input.gpioPin!,
    behavior: input.behavior ?? 'unlock_per_scan',
    unlock_duration_seconds: input.unlockDurationSeconds ?? 5,
  });
  await repo.replaceDoorObjects(db, tenantId, door.id, [...new Set(input.objectIds ?? [])]);
  return door;
}

export async function getDoor(db: Executor, tenantId: string, id: string): Promise<DoorRow> {
  const row = isUuid(id) ? await repo.findDoor(db, tenantId, id) : undefined;
  if (!row) throw notFound('Door', id);
  return row;
}

export const listDoors = repo.listDoors;

export async function updateDoor(db: Executor, tenantId: string, id: string, input: DoorInput): Promise<DoorRow> {
  await getDoor(db, tenantId, id);
  await checkDoor(db, tenantId, input, true);
  const door = await repo.updateDoor(db, tenantId, id, {
    ...(input.name != null ? { name: input.name.trim() } : {}),
    ...(input.gpioPin != null ? { gpio_pin: input.gpioPin } : {}),
    ...(input.behavior != null ? { behavior: input.behavior } : {}),
    ...(input.unlockDurationSeconds != null ? { unlock_duration_seconds: input.unlockDurationSeconds } : {}),
  });
  if (input.objectIds != null) await repo.replaceDoorObjects(db, tenantId, id, [...new Set(input.objectIds)]);
  return door!;
}

export async function deleteDoor(db: Executor, tenantId: string, id: string): Promise<boolean> {
  await getDoor(db, tenantId, id);
  return repo.deleteDoor(db, tenantId, id);
}
