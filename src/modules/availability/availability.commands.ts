import { Type, type StaticDecode } from '@sinclair/typebox';
import { Id, Nullable, commandErrors, parseCommand, refuse } from '../../kernel/commands.js';
import type { FieldError } from '../../kernel/errors.js';
import { daysFrom } from './dates.js';

// The availability module's queries (docs/architecture.md, "Typed commands"): checked in the
// resolvers (and so the REST bridge); the service trusts them.

const LOCAL_DATE = { format: 'portier-local-date', message: 'must be a date YYYY-MM-DD' } as const;

/** The caller's zone the slots are also shown in (Slot.localStart, Slot.localEnd): an IANA name. */
const CallerTimeZone = () =>
  Nullable(
    Type.String({
      format: 'portier-time-zone',
      maxLength: 100,
      message: (value: unknown) => `must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(value)}`,
    }),
  );

export const AvailabilityQuery = Type.Object({
  date: Type.String(LOCAL_DATE),
  objectId: Nullable(Id({ message: 'must be an object id (uuid)' })),
  accommodationId: Nullable(Id({ message: 'must be an accommodation id (uuid)' })),
  timeZone: CallerTimeZone(),
});
export type AvailabilityQuery = StaticDecode<typeof AvailabilityQuery>;
export const parseAvailabilityQuery = (input: unknown): AvailabilityQuery => parseCommand(AvailabilityQuery, input);

/** The most local dates one availability request may span (from and to inclusive). */
export const MAX_AVAILABILITY_DAYS = 31;

/** Availability over the local dates from `from` to `to`, inclusive (at most MAX_AVAILABILITY_DAYS). */
export const AvailabilityRangeQuery = Type.Object({
  from: Type.String(LOCAL_DATE),
  to: Type.String(LOCAL_DATE),
  objectId: Nullable(Id({ message: 'must be an object id (uuid)' })),
  accommodationId: Nullable(Id({ message: 'must be an accommodation id (uuid)' })),
  timeZone: CallerTimeZone(),
});
export type AvailabilityRangeQuery = StaticDecode<typeof AvailabilityRangeQuery>;

/** A single-date request, or a range one. */
export type AvailabilityRequest =
  ({ kind: 'date' } & AvailabilityQuery) | ({ kind: 'range' } & AvailabilityRangeQuery & { dates: string[] });

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * The REST availability request: `date` alone (the contract's form, checked exactly as before), or
 * `from` and `to` (both local dates, `to` not before `from`, at most 31 days). Mixing the two forms,
 * or giving one end of a range, is refused naming the field.
 */
export function parseAvailabilityRequest(input: {
  date?: unknown;
  from?: unknown;
  to?: unknown;
  objectId?: unknown;
  accommodationId?: unknown;
  timeZone?: unknown;
}): AvailabilityRequest {
  const { date, from, to, objectId, accommodationId, timeZone } = input;
  if (!given(from) && !given(to))
    return { kind: 'date', ...parseAvailabilityQuery({ date, objectId, accommodationId, timeZone }) };
  if (given(date)) {
    refuse(AvailabilityRangeQuery, [
      { field: given(from) ? 'from' : 'to', message: 'give either date, or from and to (not both forms)' },
    ]);
  }
  const range = { from, to, objectId, accommodationId, timeZone };
  const errors: FieldError[] = commandErrors(AvailabilityRangeQuery, range).map((e) =>
    (e.field === 'from' || e.field === 'to') && !given(range[e.field])
      ? { field: e.field, message: `is required with ${e.field === 'from' ? 'to' : 'from'} (a date YYYY-MM-DD)` }
      : e,
  );
  if (errors.length) refuse(AvailabilityRangeQuery, errors);
  const parsed = parseCommand(AvailabilityRangeQuery, range);
  const dates = daysFrom(parsed.from, parsed.to, MAX_AVAILABILITY_DAYS + 1);
  if (dates.length === 0) refuse(AvailabilityRangeQuery, [{ field: 'to', message: 'must not be before from' }]);
  if (dates.length > MAX_AVAILABILITY_DAYS) {
    refuse(AvailabilityRangeQuery, [
      {
        field: 'to',
        message: `must be at most ${MAX_AVAILABILITY_DAYS - 1} days after from (a range spans at most ${MAX_AVAILABILITY_DAYS} days)`,
      },
    ]);
  }
  return { kind: 'range', ...parsed, dates };
}
