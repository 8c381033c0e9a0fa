import { Type, type StaticDecode } from '@sinclair/typebox';
import type { WeeklySchedule } from '../../db/types.js';
import type { FieldError } from '../../errors.js';
import { Flag, Id, Nullable, OneOf, Text, Whole, commandErrors, fieldOf, parseCommand, refuse } from '../../commands.js';
import { isHhmm, minutesOfDay } from '../../validation.js';
import { DEFAULT_BOOKING_RULES, DOOR_BEHAVIORS, mergeBookingRules, normalizeSchedule, validateSchedule, type BookingRules } from './catalog.rules.js';

// The catalog's write commands (docs/architecture.md, "Typed commands"): parsed by the resolvers
// and the catalog import; the service checks only what needs the database (that ids exist).

const NAME = 'must be a non-empty string of at most 200 characters';
const ADDRESS = 'must be a non-empty string of at most 500 characters';
const timeZoneMessage = (value: unknown) => `must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(value)}`;
const TimeZone = Type.String({ format: 'portier-time-zone', message: timeZoneMessage });

export const CreateAccommodation = Type.Object({
  name: Text({ message: NAME }),
  address: Text({ message: ADDRESS, maxLength: 500 }),
  timeZone: TimeZone,
});
export type CreateAccommodation = StaticDecode<typeof CreateAccommodation>;
export const parseCreateAccommodation = (input: unknown): CreateAccommodation => parseCommand(CreateAccommodation, input);

export const UpdateAccommodation = Type.Object({
  name: Nullable(Text({ message: NAME })),
  address: Nullable(Text({ message: ADDRESS, maxLength: 500 })),
  timeZone: Nullable(TimeZone),
});
export type UpdateAccommodation = StaticDecode<typeof UpdateAccommodation>;
export const parseUpdateAccommodation = (input: unknown): UpdateAccommodation => parseCommand(UpdateAccommodation, input);

export const MAX_PRICE_PER_HOUR = 100_000_000;
const Price = Whole(0, MAX_PRICE_PER_HOUR, { message: `must be a whole number of cents from 0 to ${MAX_PRICE_PER_HOUR}` });

const CreateObjectFields = Type.Object({
  accommodationId: Id({ message: 'must be the id of an accommodation' }),
  name: Text({ message: NAME }),
  pricePerHour: Price,
  // Checked by validateSchedule and mergeBookingRules (catalog.rules.ts), which name nested fields.
  openingHours: Type.Optional(Type.Unknown({ message: 'see validateSchedule' })),
  bookingRules: Type.Optional(Type.Unknown({ message: 'see mergeBookingRules' })),
});
export interface CreateObject {
  accommodationId: string;
  name: string;
  pricePerHour: number;
  openingHours: WeeklySchedule;
  rules: BookingRules;
}

export function parseCreateObject(input: unknown): CreateObject {
  const openingHours = fieldOf(input, 'openingHours');
  const merged = mergeBookingRules(DEFAULT_BOOKING_RULES, fieldOf(input, 'bookingRules') as Partial<Record<keyof BookingRules, unknown>> | null | undefined);
  const errors = [...commandErrors(CreateObjectFields, input), ...validateSchedule(openingHours), ...merged.errors];
  if (errors.length) refuse(CreateObjectFields, errors);
  const { accommodationId, name, pricePerHour } = parseCommand(CreateObjectFields, input);
  // validateSchedule accepted it: weekday keys holding {open, close} or null.
  const schedule = normalizeSchedule(openingHours as Parameters<typeof normalizeSchedule>[0]);
  return { accommodationId, name, pricePerHour, openingHours: schedule, rules: merged.rules };
}

export const UpdateObject = Type.Object({ name: Nullable(Text({ message: NAME })), pricePerHour: Nullable(Price) });
export type UpdateObject = StaticDecode<typeof UpdateObject>;
export const parseUpdateObject = (input: unknown): UpdateObject => parseCommand(UpdateObject, input);

const SpecialDateFields = Type.Object({
  date: Type.String({ format: 'portier-local-date', message: 'must be a date YYYY-MM-DD' }),
  closed: Flag(),
  reason: Nullable(Type.String({ maxLength: 500, message: 'must be a string of at most 500 characters' })),
  open: Type.Optional(Type.Unknown({ message: 'checked with close' })),
  close: Type.Optional(Type.Unknown({ message: 'checked with open' })),
});
export interface SpecialDate {
  date: string;
  closed: boolean;
  reason: string;
  /** Both null when closed or open all day as usual. */
  open: string | null;
  close: string | null;
}

/** Hours of a special date: none when closed; otherwise open before close, both HH:MM. */
function hoursOf(closed: unknown, open: unknown, close: unknown, errors: FieldError[]): { open: string; close: string } | null {
  if (open == null && close == null) return null;
  if (closed) {
    errors.push({ field: open != null ? 'open' : 'close', message: 'a closed date takes no hours' });
    return null;
  }
  if (!isHhmm(open)) {
    errors.push({ field: 'open', message: 'must be a time HH:MM' });
    return null;
  }
  if (!isHhmm(close, true)) {
    errors.push({ field: 'close', message: 'must be a time HH:MM' });
    return null;
  }
  if (minutesOfDay(open) >= minutesOfDay(close)) {
    errors.push({ field: 'close', message: `must be later than open (${open})` });
    return null;
  }
  return { open, close };
}

export function parseSpecialDate(input: unknown): SpecialDate {
  const errors = commandErrors(SpecialDateFields, input);
  const hours = hoursOf(fieldOf(input, 'closed'), fieldOf(input, 'open'), fieldOf(input, 'close'), errors);
  if (errors.length) refuse(SpecialDateFields, errors);
  const { date, closed, reason } = parseCommand(SpecialDateFields, input);
  return { date, closed, reason: reason ?? '', open: closed ? null : (hours?.open ?? null), close: closed ? null : (hours?.close ?? null) };
}

const DoorFields = {
  name: Text({ message: NAME }),
  gpioPin: Whole(0, 63, { message: 'must be a whole number from 0 to 63' }),
  behavior: Nullable(OneOf(DOOR_BEHAVIORS, { message: `must be one of ${DOOR_BEHAVIORS.join(', ')}` })),
  unlockDurationSeconds: Nullable(Whole(1, 3600, { message: 'must be a whole number of seconds from 1 to 3600' })),
  // Each id is checked against the tenant's objects by the service (it names the unknown ones).
  objectIds: Nullable(Type.Array(Type.String(), { message: 'must be a list of object ids' })),
};
export const CreateDoor = Type.Object(DoorFields);
export type CreateDoor = StaticDecode<typeof CreateDoor>;
export const parseCreateDoor = (input: unknown): CreateDoor => parseCommand(CreateDoor, input);

export const UpdateDoor = Type.Object({ ...DoorFields, name: Nullable(DoorFields.name), gpioPin: Nullable(DoorFields.gpioPin) });
export type UpdateDoor = StaticDecode<typeof UpdateDoor>;
export const parseUpdateDoor = (input: unknown): UpdateDoor => parseCommand(UpdateDoor, input);
