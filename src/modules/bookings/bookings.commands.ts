import { Type, type StaticDecode } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { FormatRegistry } from '@sinclair/typebox';
import type { BookingStatus, Metadata, PaymentStatus } from '../../kernel/db/types.js';
import { metadataErrors, type MetadataPatch } from '../../kernel/metadata.js';
import {
  Boundary,
  Id,
  Instant,
  Nullable,
  OneOf,
  Text,
  commandErrors,
  fieldOf,
  parseCommand,
  refuse,
} from '../../kernel/commands.js';
import { parseInstant } from '../../kernel/validation.js';
import { invalidField } from '../../kernel/errors.js';
import { CONNECTION_PAGE, ISO_INSTANT, PAGE_SIZES, PageSize, UUID_PART, decodeCursor } from '../../kernel/paging.js';
import { BOOKING_STATUSES } from './transitions.js';

// The bookings module's commands (docs/architecture.md, "Typed commands"): checked where input
// enters (resolvers, the REST bridge through them, the catalog import); services trust them.

/** A booking status (PENDING, CONFIRMED, CANCELLED, COMPLETED). */
export const Status = (message: string) => OneOf(BOOKING_STATUSES, { message });

/** Metadata is checked by metadataErrors (src/kernel/metadata.ts), which names the key at fault. */
const MetadataField = () => Type.Optional(Type.Unknown({ message: 'see metadataErrors' }));

/** The errors of an input's `metadata` (absent or null: none); `nulls`: an update's deletions allowed. */
function metadataErrorsOf(input: unknown, nulls: boolean) {
  const value = fieldOf(input, 'metadata');
  return value == null ? [] : metadataErrors(value, 'metadata', nulls);
}

export const CreateBooking = Type.Object({
  objectId: Id({ message: 'must be the id of a bookable object' }),
  guestName: Text({ message: 'must be a non-empty string of at most 200 characters' }),
  guestEmail: Type.Transform(Type.String({ format: 'email', message: 'must be a valid email address' }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
  // E.164 once spaces, dashes, dots, slashes and brackets are taken out: + and 8 to 15 digits (SMS is sent to it).
  guestPhone: Nullable(Type.String({ maxLength: 32, pattern: '^\\+[1-9](?:[ ()\\-./]*[0-9]){7,14}[ ()\\-./]*$' }), {
    message: 'must be a phone number in international (E.164) form such as +49 30 1234567',
  }),
  startTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
  endTime: Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' }),
  metadata: MetadataField(),
  // A desk taking a booking over the counter confirms it at once; the other statuses need a booking first.
  status: Nullable(OneOf(['PENDING', 'CONFIRMED'] as const, { message: 'must be PENDING or CONFIRMED' })),
  // The guest's language for mails and SMS (GraphQL's Locale); left out: the venue's default.
  locale: Nullable(OneOf(['EN', 'DE'] as const, { message: 'must be EN or DE' })),
});
export type CreateBooking = Omit<StaticDecode<typeof CreateBooking>, 'metadata'> & { metadata?: MetadataPatch | null };

/** A booking to create: the fields and metadata, then the range (endTime after startTime). */
export function parseCreateBooking(input: unknown): CreateBooking {
  const errors = [...commandErrors(CreateBooking, input), ...metadataErrorsOf(input, true)];
  if (errors.length) refuse(CreateBooking, errors);
  const command = parseCommand(CreateBooking, input) as CreateBooking;
  if (!(command.startTime < command.endTime))
    throw invalidField('endTime', 'must be later than startTime', 'invalid_time_range');
  return command;
}

/** A booking's new times, and optionally another object of the tenant. */
export const RescheduleBooking = Type.Object({
  startTime: CreateBooking.properties.startTime,
  endTime: CreateBooking.properties.endTime,
  objectId: Nullable(Id({ message: 'must be the id of a bookable object' })),
});
export type RescheduleBooking = StaticDecode<typeof RescheduleBooking>;

/** A reschedule's fields, then the range (endTime after startTime). */
export function parseRescheduleBooking(input: unknown): RescheduleBooking {
  const command = parseCommand(RescheduleBooking, input);
  if (!(command.startTime < command.endTime))
    throw invalidField('endTime', 'must be later than startTime', 'invalid_time_range');
  return command;
}

const Given = (message: string) => Type.Not(Type.Union([Type.Null(), Type.Undefined()]), { message });

/** A PATCH that moves a booking names both of its new times. */
export const MoveTimes = Type.Object({
  startTime: Given('is required to reschedule (with endTime)'),
  endTime: Given('is required to reschedule (with startTime)'),
});

/** A guest's details to change: any of name, email and phone (a null phone removes it). */
export const UpdateBookingGuest = Type.Object({
  guestName: Type.Optional(CreateBooking.properties.guestName),
  guestEmail: Type.Optional(CreateBooking.properties.guestEmail),
  guestPhone: Type.Optional(CreateBooking.properties.guestPhone),
});
export type UpdateBookingGuest = StaticDecode<typeof UpdateBookingGuest>;

/** The guest fields to change; at least one, and a name or email cannot be removed. */
export function parseUpdateBookingGuest(input: {
  guestName?: unknown;
  guestEmail?: unknown;
  guestPhone?: unknown;
}): UpdateBookingGuest {
  const present = Object.fromEntries(
    Object.entries({ guestName: input.guestName, guestEmail: input.guestEmail, guestPhone: input.guestPhone }).filter(
      ([field, value]) => value !== undefined && (value !== null || field === 'guestPhone'),
    ),
  );
  if (input.guestName === null)
    throw invalidField('guestName', 'cannot be removed: give a name of 1–200 characters or leave it out');
  if (input.guestEmail === null)
    throw invalidField('guestEmail', 'cannot be removed: give an email address or leave it out');
  if (Object.keys(present).length === 0)
    throw invalidField('guestName', 'give at least one of guestName, guestEmail and guestPhone');
  return parseCommand(UpdateBookingGuest, present);
}

export const UpdateBookingStatus = Type.Object({
  status: Status('must be one of CONFIRMED, CANCELLED, COMPLETED'),
});
export type UpdateBookingStatus = StaticDecode<typeof UpdateBookingStatus>;
export const parseUpdateBookingStatus = (input: unknown): UpdateBookingStatus =>
  parseCommand(UpdateBookingStatus, input);

/** The longest search fragment: a guest name's maximum. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * Whether a search fragment is text PostgreSQL can compare: no NUL or other control character (a
 * text value cannot hold NUL) and no unpaired surrogate (it has no UTF-8 form).
 */
export const isSearchText = (value: unknown): value is string =>
  typeof value === 'string' &&
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  !/[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

FormatRegistry.Set('portier-search', isSearchText);

/** Part of a guest's name or email, trimmed; empty after trimming means no search. */
const SearchText = Type.Transform(
  Type.String({
    format: 'portier-search',
    maxLength: MAX_SEARCH_LENGTH,
    message: `must be text of at most ${MAX_SEARCH_LENGTH} characters without control characters`,
  }),
)
  .Decode((value) => value.trim() || null)
  .Encode((value) => value ?? '');
export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['UNPAID', 'PAID', 'REFUNDED', 'PARTIALLY_REFUNDED'];

const BOUNDARY =
  'must be an ISO 8601 date (YYYY-MM-DD, midnight UTC) or timestamp with an offset, such as 2026-11-20T10:00:00Z';

export const ListBookings = Type.Object({
  page: Nullable(Type.Integer({ minimum: 1 }), { message: 'must be a whole number ≥ 1' }),
  pageSize: PageSize(PAGE_SIZES.bookings),
  objectId: Nullable(Id({ message: 'must be an object id (uuid)' })),
  from: Nullable(Boundary({ message: BOUNDARY })),
  to: Nullable(Boundary({ message: BOUNDARY })),
  status: Nullable(Status(`must be one of ${BOOKING_STATUSES.join(', ')}`)),
  guestEmail: Nullable(Type.String({ message: 'must be a string' })),
  search: Nullable(SearchText),
  paymentStatus: Nullable(OneOf(PAYMENT_STATUSES, { message: `must be one of ${PAYMENT_STATUSES.join(', ')}` })),
  metadata: MetadataField(),
  updatedSince: Nullable(Instant({ message: 'must be an ISO 8601 timestamp with a time zone offset' })),
});
export type ListBookings = Omit<StaticDecode<typeof ListBookings>, 'metadata'> & { metadata?: Metadata | null };
/** A listing's filters and page; metadata holds exact key/value pairs (strings only). */
export function parseListBookings(input: unknown): ListBookings {
  const errors = [...commandErrors(ListBookings, input), ...metadataErrorsOf(input, false)];
  if (errors.length) refuse(ListBookings, errors);
  return parseCommand(ListBookings, input) as ListBookings;
}

/** A metadata update: keys with a string value are set, keys with null deleted. */
export const UpdateBookingMetadata = Type.Object({ metadata: MetadataField() });
export interface UpdateBookingMetadata {
  metadata: MetadataPatch;
}
export function parseUpdateBookingMetadata(input: unknown): UpdateBookingMetadata {
  if (fieldOf(input, 'metadata') == null)
    throw invalidField('metadata', 'is required: an object of keys to set or delete');
  const errors = metadataErrorsOf(input, true);
  if (errors.length) refuse(UpdateBookingMetadata, errors);
  return { metadata: fieldOf(input, 'metadata') as MetadataPatch };
}

export const BOOKING_CURSOR = 'booking';

/** A keyset page of bookings: `first` and the cursor `after`, and the listing's filters (but pages). */
export const BookingsConnection = Type.Object({
  first: PageSize(CONNECTION_PAGE),
  after: Nullable(Type.String({ message: 'is not a cursor this connection returned' })),
  status: ListBookings.properties.status,
  objectId: ListBookings.properties.objectId,
  from: ListBookings.properties.from,
  to: ListBookings.properties.to,
  guestEmail: ListBookings.properties.guestEmail,
  search: ListBookings.properties.search,
  metadata: ListBookings.properties.metadata,
  updatedSince: ListBookings.properties.updatedSince,
});

/** A page of the connection: its size, the cursor it follows and that cursor's sort key, the filters. */
export interface BookingsConnectionCommand {
  first: number;
  after: string | null;
  key: { startTime: Date; id: string } | null;
  filters: Pick<
    ListBookings,
    'status' | 'objectId' | 'from' | 'to' | 'guestEmail' | 'search' | 'metadata' | 'updatedSince'
  >;
}

/**
 * A cursor's sort key (start time, then id). Booking times are whole milliseconds (every write
 * path takes them as JavaScript Dates), so the ISO text is the exact key.
 */
/** The sort key of a booking cursor (the connection's and the REST list's: one order, one cursor). */
export function bookingKeyOf(cursor: string): NonNullable<BookingsConnectionCommand['key']> {
  const [startTime = '', id = ''] = decodeCursor(BOOKING_CURSOR, cursor, [ISO_INSTANT, UUID_PART]);
  const at = new Date(startTime);
  if (Number.isNaN(at.getTime())) throw invalidField('after', 'is not a cursor this connection returned');
  return { startTime: at, id };
}

export function parseBookingsConnection(input: unknown): BookingsConnectionCommand {
  const errors = [...commandErrors(BookingsConnection, input), ...metadataErrorsOf(input, false)];
  if (errors.length) refuse(BookingsConnection, errors);
  const { first, after, ...rest } = parseCommand(BookingsConnection, input);
  const filters = rest as BookingsConnectionCommand['filters'];
  return {
    first: first ?? CONNECTION_PAGE.default,
    after: after ?? null,
    key: after != null ? bookingKeyOf(after) : null,
    filters,
  };
}

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
