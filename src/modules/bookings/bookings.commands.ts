import { Type, type StaticDecode } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { BookingStatus } from '../../db/types.js';
import { Boundary, Id, Instant, Nullable, OneOf, Text, commandErrors, fieldOf, parseCommand, refuse } from '../../commands.js';
import { parseInstant } from '../../validation.js';
import { invalidField } from '../../errors.js';
import { PAGE_SIZES, PageSize } from '../../paging.js';
import { BOOKING_STATUSES } from './transitions.js';

// The bookings module's commands (docs/architecture.md, "Typed commands"): checked where input
// enters (resolvers, the REST bridge through them, the catalog import); services trust them.

/** A booking status (PENDING, CONFIRMED, CANCELLED, COMPLETED). */
export const Status = (message: string) => OneOf(BOOKING_STATUSES, { message });

export const CreateBooking = Type.Object({
  objectId: Id({ message: 'must be the id of a bookable object' }),
  guestName: Text({ message: 'must be a non-empty string of at most 200 characters' }),
  guestEmail: Type.Transform(Type.String({ format: 'email', message: 'must be a valid email address' }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
  guestPhone: Nullable(Type.String({ pattern: '^\\+?[0-9 ()\\-./]{3,32}$' }), { message: 'must be a phone number such as +49 30 1234567' }),
  startTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
  endTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
});
export type CreateBooking = StaticDecode<typeof CreateBooking>;

/** A booking to create: the fields, then the range (endTime after startTime). */
export function parseCreateBooking(input: unknown): CreateBooking {
  const command = parseCommand(CreateBooking, input);
  if (!(command.startTime < command.endTime)) throw invalidField('endTime', 'must be later than startTime', 'invalid_time_range');
  return command;
}

export const UpdateBookingStatus = Type.Object({
  status: Status('must be one of CONFIRMED, CANCELLED, COMPLETED'),
});
export type UpdateBookingStatus = StaticDecode<typeof UpdateBookingStatus>;
export const parseUpdateBookingStatus = (input: unknown): UpdateBookingStatus => parseCommand(UpdateBookingStatus, input);

const BOUNDARY = 'must be an ISO 8601 date (YYYY-MM-DD, midnight UTC) or timestamp with an offset, such as 2026-11-20T10:00:00Z';

export const ListBookings = Type.Object({
  page: Nullable(Type.Integer({ minimum: 1 }), { message: 'must be a whole number ≥ 1' }),
  pageSize: PageSize(PAGE_SIZES.bookings),
  objectId: Nullable(Id({ message: 'must be an object id (uuid)' })),
  from: Nullable(Boundary({ message: BOUNDARY })),
  to: Nullable(Boundary({ message: BOUNDARY })),
  status: Nullable(Status(`must be one of ${BOOKING_STATUSES.join(', ')}`)),
  guestEmail: Nullable(Type.String({ message: 'must be a string' })),
});
export type ListBookings = StaticDecode<typeof ListBookings>;
export const parseListBookings = (input: unknown): ListBookings => parseCommand(ListBookings, input);

const AnyStatus = Status(`must be one of ${BOOKING_STATUSES.join(', ')}`);
export const isBookingStatus = (value: unknown): value is BookingStatus => Value.Check(AnyStatus, value);

/** A guard on the work one preview may cause; real bookings are far shorter (maxDurationMinutes). */
export const MAX_PREVIEW_DAYS = 366;

export const PricePreview = Type.Object({
  objectId: Id({ message: 'must be the id of a bookable object' }),
  startTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
  endTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
});
export type PricePreview = StaticDecode<typeof PricePreview>;

/** A price preview's fields: timestamps with an offset, start before end, at most MAX_PREVIEW_DAYS apart. */
export function parsePricePreview(input: unknown): PricePreview {
  const errors = commandErrors(PricePreview, input);
  const start = parseInstant(fieldOf(input, 'startTime'));
  const end = parseInstant(fieldOf(input, 'endTime'));
  if (start && end) {
    if (!(start < end)) errors.push({ field: 'endTime', message: 'must be later than startTime' });
    else if (end.getTime() - start.getTime() > MAX_PREVIEW_DAYS * 86_400_000)
      errors.push({ field: 'endTime', message: `must be at most ${MAX_PREVIEW_DAYS} days after startTime` });
  }
  if (errors.length) refuse(PricePreview, errors);
  return parseCommand(PricePreview, input);
}
