import { Type, type StaticDecode } from '@sinclair/typebox';
import type { Metadata, WeeklySchedule } from '../../kernel/db/types.js';
import { metadataErrors, type MetadataPatch } from '../../kernel/metadata.js';
import type { FieldError } from '../../kernel/errors.js';
import {
  Flag,
  Id,
  Instant,
  Nullable,
  OneOf,
  Text,
  Whole,
  commandErrors,
  fieldOf,
  parseCommand,
  refuse,
} from '../../kernel/commands.js';
import { isHhmm, minutesOfDay } from '../../kernel/validation.js';
import { PAGE_SIZES, PageSize } from '../../kernel/paging.js';
import {
  DEFAULT_BOOKING_RULES,
  DOOR_BEHAVIORS,
  mergeBookingRules,
  normalizeSchedule,
  validateSchedule,
  type BookingRules,
} from './catalog.rules.js';

// The catalog's write commands (docs/architecture.md, "Typed commands"): parsed by the resolvers
// and the catalog import; the service checks only what needs the database (that ids exist).

const NAME = 'must be a non-empty string of at most 200 characters';
const ADDRESS = 'must be a non-empty string of at most 500 characters';
const timeZoneMessage = (value: unknown) =>
  `must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(value)}`;
const TimeZone = Type.String({ format: 'portier-time-zone', message: timeZoneMessage });

export const CreateAccommodation = Type.Object({
  name: Text({ message: NAME }),
  address: Text({ message: ADDRESS, maxLength: 500 }),
  timeZone: TimeZone,
});
export type CreateAccommodation = StaticDecode<typeof CreateAccommodation>;
export const parseCreateAccommodation = (input: unknown): CreateAccommodation =>
  parseCommand(CreateAccommodation, input);

export const UpdateAccommodation = Type.Object({
  name: Nullable(Text({ message: NAME })),
  address: Nullable(Text({ message: ADDRESS, maxLength: 500 })),
  timeZone: Nullable(TimeZone),
});
export type UpdateAccommodation = StaticDecode<typeof UpdateAccommodation>;
export const parseUpdateAccommodation = (input: unknown): UpdateAccommodation =>
  parseCommand(UpdateAccommodation, input);

export const MAX_PRICE_PER_HOUR = 100_000_000;
const Price = Whole(0, MAX_PRICE_PER_HOUR, {
  message: `must be a whole number of cents from 0 to ${MAX_PRICE_PER_HOUR}`,
});

/** Metadata is checked by metadataErrors (src/kernel/metadata.ts), which names the key at fault. */
const MetadataField = () => Type.Optional(Type.Unknown({ message: 'see metadataErrors' }));

/** The errors of an input's `metadata` (absent or null: none); `nulls`: an update's deletions allowed. */
function metadataErrorsOf(input: unknown, nulls: boolean): FieldError[] {
  const value = fieldOf(input, 'metadata');
  return value == null ? [] : metadataErrors(value, 'metadata', nulls);
}

/** The object filters both listings take: exact metadata pairs, changed since. */
const ObjectFilterFields = {
  metadata: MetadataField(),
  updatedSince: Nullable(Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' })),
};
export interface ObjectFilters {
  accommodationId?: string | null;
  metadata?: Metadata | null;
  updatedSince?: Date | null;
}
const ObjectFilterCommand = Type.Object({
  accommodationId: Nullable(Type.String({ message: 'must be an accommodation id (uuid)' })),
  ...ObjectFilterFields,
});
/** The filters of bookableObjects (an accommodation id that is not a uuid matches nothing there). */
export function parseObjectFilters(input: unknown): ObjectFilters {
  const errors = [...commandErrors(ObjectFilterCommand, input), ...metadataErrorsOf(input, false)];
  if (errors.length) refuse(ObjectFilterCommand, errors);
  return parseCommand(ObjectFilterCommand, input) as ObjectFilters;
}

/** A page of the tenant's objects (the REST listing): page from 1, pageSize 1–100, optionally one accommodation's. */
export const ListObjects = Type.Object({
  page: Nullable(Type.Integer({ minimum: 1 }), { message: 'must be a whole number ≥ 1' }),
  pageSize: PageSize(PAGE_SIZES.objects),
  accommodationId: Nullable(Id({ message: 'must be an accommodation id (uuid)' })),
  ...ObjectFilterFields,
});
type ListObjectsInput = StaticDecode<typeof ListObjects>;
export type ListObjects = Omit<ListObjectsInput, 'page' | 'pageSize' | 'metadata'> & {
  page: number;
  pageSize: number;
  metadata?: Metadata | null;
};
export const parseListObjects = (input: unknown): ListObjects => {
  const errors = [...commandErrors(ListObjects, input), ...metadataErrorsOf(input, false)];
  if (errors.length) refuse(ListObjects, errors);
  const command = parseCommand(ListObjects, input) as Omit<ListObjects, 'page' | 'pageSize'> & {
    page?: number | null;
    pageSize?: number | null;
  };
  return { ...command, page: command.page ?? 1, pageSize: command.pageSize ?? PAGE_SIZES.objects.default };
};

const CreateObjectFields = Type.Object({
  accommodationId: Id({ message: 'must be the id of an accommodation' }),
  name: Text({ message: NAME }),
  pricePerHour: Price,
  // Checked by validateSchedule and mergeBookingRules (catalog.rules.ts), which name nested fields.
  openingHours: Type.Optional(Type.Unknown({ message: 'see validateSchedule' })),
  bookingRules: Type.Optional(Type.Unknown({ message: 'see mergeBookingRules' })),
  metadata: MetadataField(),
});
export interface CreateObject {
  accommodationId: string;
  name: string;
  pricePerHour: number;
  openingHours: WeeklySchedule;
  rules: BookingRules;
  /** Null values are left out (there is nothing to delete yet). */
  metadata: MetadataPatch;
}

export function parseCreateObject(input: unknown): CreateObject {
  const openingHours = fieldOf(input, 'openingHours');
  const merged = mergeBookingRules(
    DEFAULT_BOOKING_RULES,
    fieldOf(input, 'bookingRules') as Partial<Record<keyof BookingRules, unknown>> | null | undefined,
  );
  const errors = [
    ...commandErrors(CreateObjectFields, input),
    ...validateSchedule(openingHours),
    ...merged.errors,
    ...metadataErrorsOf(input, true),
  ];
  if (errors.length) refuse(CreateObjectFields, errors);
  const { accommodationId, name, pricePerHour } = parseCommand(CreateObjectFields, input);
  // validateSchedule accepted it: weekday keys holding {open, close} or null.
  const schedule = normalizeSchedule(openingHours as Parameters<typeof normalizeSchedule>[0]);
  const metadata = (fieldOf(input, 'metadata') ?? {}) as MetadataPatch;
  return { accommodationId, name, pricePerHour, openingHours: schedule, rules: merged.rules, metadata };
}

export const UpdateObject = Type.Object({
  name: Nullable(Text({ message: NAME })),
  pricePerHour: Nullable(Price),
  metadata: MetadataField(),
});
/** `metadata`: keys to set (string values) or delete (null); absent or null: unchanged. */
export type UpdateObject = Omit<StaticDecode<typeof UpdateObject>, 'metadata'> & { metadata?: MetadataPatch | null };
export function parseUpdateObject(input: unknown): UpdateObject {
  const errors = [...commandErrors(UpdateObject, input), ...metadataErrorsOf(input, true)];
  if (errors.length) refuse(UpdateObject, errors);
  return parseCommand(UpdateObject, input) as UpdateObject;
}

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
function hoursOf(
  closed: unknown,
  open: unknown,
  close: unknown,
  errors: FieldError[],
): { open: string; close: string } | null {
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
  return {
    date,
    closed,
    reason: reason ?? '',
    open: closed ? null : (hours?.open ?? null),
    close: closed ? null : (hours?.close ?? null),
  };
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

export const UpdateDoor = Type.Object({
  ...DoorFields,
  name: Nullable(DoorFields.name),
  gpioPin: Nullable(DoorFields.gpioPin),
});
export type UpdateDoor = StaticDecode<typeof UpdateDoor>;
export const parseUpdateDoor = (input: unknown): UpdateDoor => parseCommand(UpdateDoor, input);
