import type { Executor } from '../../kernel/db/index.js';
import type { BookingRow, BookingSeriesRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError, conflict, invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { mergeMetadata } from '../../kernel/metadata.js';
import {
  bookingContextOf,
  createBookingOfObject,
  rescheduleBooking,
  updateBookingStatus,
  type CreateBooking,
  type PreviousSlot,
  type RescheduleBooking,
} from '../bookings/index.js';
import { accommodationOf, getObject } from '../catalog/index.js';
import { domainOf, queueSeriesNotification } from '../notifications/index.js';
import { quoteWithRules } from '../pricing/index.js';
import { recordEvent } from '../webhooks/index.js';
import * as repo from './series.repository.js';
import { seriesInvite } from './series.invite.js';
import { RuleError, expandRule, formatRule, parseRule, type Occurrence } from './series.rules.js';
import type { CreateBookingSeries, SeriesScope } from './series.commands.js';

// Recurring bookings (docs/bookings.md, "Recurring bookings"). Every occurrence is created by the
// bookings service (createBookingOfObject: booking rules, price, credentials, booking.created, the
// exclusion constraint), each inside a savepoint of the caller's one transaction, so a refused
// occurrence (taken, closed) undoes only itself. The preview is the same run, rolled back.

/** An occurrence of the rule and what creating it gave: the booking, or the refusal. */
export interface OccurrenceOutcome {
  index: number;
  startTime: Date;
  endTime: Date;
  available: boolean;
  conflictCode: string | null;
  conflictMessage: string | null;
  totalPrice: number;
  currency: string;
  booking: BookingRow | null;
}

const CURRENCY = 'EUR';

/** Refusals that belong to one occurrence (its slot, its day's hours, its advance); others fail the whole call. */
function isOccurrenceRefusal(error: unknown): error is DomainError {
  return (
    error instanceof DomainError &&
    (error.kind === 'CONFLICT' || error.kind === 'BAD_USER_INPUT' || error.kind === 'UNPROCESSABLE')
  );
}

interface Plan {
  ruleText: string;
  timeZone: string;
  durationMinutes: number;
  occurrences: Occurrence[];
}

/** The rule read in the object's zone and expanded from the first range; a bad rule is a 400 naming its part. */
async function planOf(trx: Executor, tenantId: string, command: CreateBookingSeries): Promise<Plan> {
  const { booking } = command;
  const context = await bookingContextOf(trx, tenantId, booking.objectId, booking.startTime);
  const timeZone = context.time_zone;
  const durationMs = booking.endTime.getTime() - booking.startTime.getTime();
  if (durationMs % 60_000 !== 0) throw invalidField('endTime', 'must be a whole number of minutes after startTime');
  try {
    const rule = parseRule(command.rule, timeZone);
    const durationMinutes = durationMs / 60_000;
    return {
      ruleText: formatRule(rule),
      timeZone,
      durationMinutes,
      occurrences: expandRule(rule, booking.startTime, durationMinutes, timeZone),
    };
  } catch (error) {
    if (error instanceof RuleError) throw invalidField('rule', error.message, 'invalid_rule');
    throw error;
  }
}

/** Creates each occurrence in its own savepoint; a refused one is rolled back and priced for the answer. */
async function bookOccurrences(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  base: CreateBooking,
  plan: Plan,
  seriesId: string | null,
): Promise<OccurrenceOutcome[]> {
  const outcomes: OccurrenceOutcome[] = [];
  for (const occurrence of plan.occurrences) {
    const command: CreateBooking = { ...base, startTime: occurrence.start, endTime: occurrence.end };
    try {
      const booking = await repo.inSavepoint(trx, async () => {
        const created = await createBookingOfObject(trx, deps, tenantId, command, {
          ...(seriesId ? { series: { id: seriesId, start: occurrence.start } } : {}),
        });
        if (base.status !== 'CONFIRMED') return created.booking;
        // No confirmation of its own: a created series sends the guest one mail (queueSeriesMail).
        const confirmed = await updateBookingStatus(
          trx,
          deps,
          tenantId,
          created.booking.id,
          { status: 'CONFIRMED' },
          { guestMessage: false },
        );
        return confirmed.booking;
      });
      outcomes.push({
        index: occurrence.index,
        startTime: occurrence.start,
        endTime: occurrence.end,
        available: true,
        conflictCode: null,
        conflictMessage: null,
        totalPrice: booking.total_price,
        currency: booking.currency,
        booking,
      });
    } catch (error) {
      if (!isOccurrenceRefusal(error)) throw error;
      const context = await bookingContextOf(trx, tenantId, base.objectId, occurrence.start);
      const quote = quoteWithRules(
        context.pricing_rules,
        context,
        context.time_zone,
        occurrence.start,
        occurrence.end,
        deps.now(),
      );
      outcomes.push({
        index: occurrence.index,
        startTime: occurrence.start,
        endTime: occurrence.end,
        available: false,
        conflictCode: error.code,
        conflictMessage: error.message,
        totalPrice: quote.totalPrice,
        currency: CURRENCY,
        booking: null,
      });
    }
  }
  return outcomes;
}

export interface SeriesPreview {
  rule: string;
  timeZone: string;
  occurrences: OccurrenceOutcome[];
  availableCount: number;
  conflictCount: number;
  totalPrice: number;
}

function summary(plan: Plan, occurrences: OccurrenceOutcome[]): SeriesPreview {
  const free = occurrences.filter((o) => o.available);
  return {
    rule: plan.ruleText,
    timeZone: plan.timeZone,
    occurrences,
    availableCount: free.length,
    conflictCount: occurrences.length - free.length,
    totalPrice: free.reduce((sum, o) => sum + o.totalPrice, 0),
  };
}

class PreviewDone extends Error {
  constructor(readonly preview: SeriesPreview) {
    super('preview rolled back');
  }
}

/**
 * What createBookingSeries would do now: the same run in a transaction of its own that is always
 * rolled back, so free/conflict and each price are exactly creation's. `db` must not be inside a
 * transaction (PGlite: the root handle, with no transaction of the caller open).
 */
export async function previewBookingSeries(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreateBookingSeries,
): Promise<SeriesPreview> {
  try {
    await db.transaction().execute(async (trx) => {
      const plan = await planOf(trx, tenantId, command);
      throw new PreviewDone(summary(plan, await bookOccurrences(trx, deps, tenantId, command.booking, plan, null)));
    });
  } catch (error) {
    if (error instanceof PreviewDone) return error.preview;
    throw error;
  }
  throw new Error('previewBookingSeries: the preview transaction committed');
}

/** The series as its events carry it. */
export function seriesEventData(series: BookingSeriesRow): Record<string, unknown> {
  return {
    id: series.id,
    objectId: series.object_id,
    rule: series.rule,
    timeZone: series.time_zone,
    startTime: series.first_start.toISOString(),
    durationMinutes: series.duration_minutes,
    guestName: series.guest_name,
    guestEmail: series.guest_email,
    status: series.status,
    metadata: series.metadata,
    createdAt: series.created_at.toISOString(),
    updatedAt: series.updated_at.toISOString(),
  };
}

const occurrenceData = (o: OccurrenceOutcome) => ({
  index: o.index,
  startTime: o.startTime.toISOString(),
  endTime: o.endTime.toISOString(),
  ...(o.booking ? { bookingId: o.booking.id } : { conflictCode: o.conflictCode }),
});

export interface CreatedSeries {
  series: BookingSeriesRow;
  bookings: BookingRow[];
  conflicts: OccurrenceOutcome[];
}

/**
 * Creates a series and books its free occurrences in the caller's transaction `trx`; the
 * conflicting ones are listed (or, with failOnConflict, the whole call is refused: CONFLICT
 * series_conflicts). A series none of whose occurrences can be booked is refused too.
 */
export async function createBookingSeries(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreateBookingSeries,
): Promise<CreatedSeries> {
  const plan = await planOf(trx, tenantId, command);
  const { booking } = command;
  const now = deps.now();
  const series = await repo.insertSeries(trx, {
    tenant_id: tenantId,
    object_id: booking.objectId,
    rule: plan.ruleText,
    time_zone: plan.timeZone,
    first_start: booking.startTime,
    duration_minutes: plan.durationMinutes,
    guest_name: booking.guestName,
    guest_email: booking.guestEmail,
    guest_phone: booking.guestPhone ?? null,
    metadata: mergeMetadata({}, booking.metadata ?? {}),
    created_at: now,
  });
  const outcomes = await bookOccurrences(trx, deps, tenantId, booking, plan, series.id);
  const conflicts = outcomes.filter((o) => !o.available);
  const bookings = outcomes.flatMap((o) => (o.booking ? [o.booking] : []));
  if (bookings.length === 0 || (command.failOnConflict && conflicts.length > 0)) {
    const listed = conflicts
      .slice(0, 10)
      .map((o) => `${o.startTime.toISOString()} (${o.conflictCode ?? 'refused'})`)
      .join(', ');
    throw conflict(
      'series_conflicts',
      `${conflicts.length} of ${outcomes.length} occurrences cannot be booked${bookings.length === 0 ? ' (none can)' : ''}: ${listed}${conflicts.length > 10 ? ', …' : ''}`,
    );
  }
  await recordEvent(trx, tenantId, 'series.created', {
    series: seriesEventData(series),
    occurrences: outcomes.map(occurrenceData),
  });
  if (booking.status === 'CONFIRMED') await queueSeriesMail(trx, deps, series, bookings, plan, conflicts);
  return { series, bookings, conflicts };
}

/**
 * The guest's one mail of a series created confirmed (issue #43), queued in the series'
 * transaction for the notification sender: the booked dates, the skipped ones, the total and the
 * recurring invite (EXDATE for each skipped start). The occurrences sent no confirmation of their own.
 */
async function queueSeriesMail(
  trx: Executor,
  deps: AppDeps,
  series: BookingSeriesRow,
  bookings: BookingRow[],
  plan: Plan,
  conflicts: OccurrenceOutcome[],
): Promise<void> {
  const object = await getObject(trx, series.tenant_id, series.object_id);
  const accommodation = await accommodationOf(trx, series.tenant_id, object);
  // The invite's organizer as BookingSeries.invite writes it (the installation's sender).
  const from = deps.env.mail?.from ?? `bookings@${new URL(deps.env.publicUrl).hostname}`;
  const invite = seriesInvite(
    series,
    bookings,
    plan.occurrences.map((o) => o.start),
    {
      objectName: object.name,
      accommodationName: accommodation.name,
      accommodationAddress: accommodation.address,
      organizerEmail: from,
      domain: domainOf(from),
    },
    deps.now(),
  );
  await queueSeriesNotification(trx, deps, {
    bookings,
    skipped: conflicts.map((o) => ({ startTime: o.startTime, endTime: o.endTime })),
    series: { id: series.id, rule: series.rule, guestName: series.guest_name, guestEmail: series.guest_email },
    objectName: object.name,
    accommodation,
    invite,
  });
}

export async function getSeries(db: Executor, tenantId: string, id: string): Promise<BookingSeriesRow> {
  const series = isUuid(id) ? await repo.findSeries(db, tenantId, id) : undefined;
  if (!series) throw notFound('Booking series', id);
  return series;
}

const LIVE = new Set(['PENDING', 'CONFIRMED']);

/** The occurrence `bookingId` of the series, or a 400 naming `field`. */
function occurrenceOf(occurrences: BookingRow[], bookingId: string | null | undefined, field: string): BookingRow {
  if (bookingId == null) throw invalidField(field, 'is required for the scopes THIS and FOLLOWING');
  const found = occurrences.find((b) => b.id === bookingId);
  if (!found) throw invalidField(field, `booking ${bookingId} is not an occurrence of this series`, 'not_in_series');
  return found;
}

/**
 * Cancels occurrences (THIS, FOLLOWING from fromBookingId by rule start, or ALL) through
 * updateBookingStatus (refunds, booking.cancelled, revoked credentials, the guest's mail), then one
 * series.updated, or series.cancelled when no occurrence is left to take place.
 */
export async function cancelBookingSeries(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  id: string,
  scope: SeriesScope,
  fromBookingId?: string | null,
): Promise<{ series: BookingSeriesRow; cancelled: BookingRow[] }> {
  const series = isUuid(id) ? await repo.findSeries(trx, tenantId, id, true) : undefined;
  if (!series) throw notFound('Booking series', id);
  const occurrences = await repo.occurrencesOf(trx, tenantId, id);
  let targets: BookingRow[];
  if (scope === 'ALL') targets = occurrences.filter((b) => LIVE.has(b.status));
  else {
    const from = occurrenceOf(occurrences, fromBookingId, 'fromBookingId');
    if (scope === 'THIS') targets = [from];
    else {
      const fromStart = (from.series_start ?? from.start_time).getTime();
      targets = occurrences.filter(
        (b) => LIVE.has(b.status) && (b.id === from.id || (b.series_start ?? b.start_time).getTime() >= fromStart),
      );
    }
  }
  if (scope !== 'THIS' && targets.length === 0) {
    throw conflict('invalid_transition', 'No occurrence of this series in that scope can still be cancelled');
  }
  const cancelled: BookingRow[] = [];
  // THIS cancels one occurrence as updateBookingStatus does (a cancelled or completed one is a 409).
  for (const booking of targets) {
    cancelled.push((await updateBookingStatus(trx, deps, tenantId, booking.id, { status: 'CANCELLED' })).booking);
  }
  const cancelledIds = new Set(cancelled.map((b) => b.id));
  const remaining = occurrences.filter((b) => LIVE.has(b.status) && !cancelledIds.has(b.id));
  const ended = scope === 'ALL' || remaining.length === 0;
  const updated = await repo.touchSeries(trx, tenantId, id, deps.now(), ended ? 'CANCELLED' : undefined);
  await recordEvent(trx, tenantId, ended ? 'series.cancelled' : 'series.updated', {
    series: seriesEventData(updated),
    change: 'cancelled',
    scope,
    bookingIds: cancelled.map((b) => b.id),
  });
  return { series: updated, cancelled };
}

/**
 * Moves one occurrence (rescheduleBooking: rules, price, credentials, booking.rescheduled); it
 * keeps its series_start, so it becomes an exception of the rule (the invite's RECURRENCE-ID).
 */
export async function rescheduleSeriesOccurrence(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  id: string,
  bookingId: string,
  command: RescheduleBooking,
): Promise<{ booking: BookingRow; previous: PreviousSlot }> {
  const series = isUuid(id) ? await repo.findSeries(trx, tenantId, id, true) : undefined;
  if (!series) throw notFound('Booking series', id);
  const occurrences = await repo.occurrencesOf(trx, tenantId, id);
  occurrenceOf(occurrences, bookingId, 'bookingId');
  const moved = await rescheduleBooking(trx, deps, tenantId, bookingId, { ...command, objectId: null });
  const updated = await repo.touchSeries(trx, tenantId, id, deps.now());
  await recordEvent(trx, tenantId, 'series.updated', {
    series: seriesEventData(updated),
    change: 'rescheduled',
    bookingId,
    previous: {
      startTime: moved.previous.startTime.toISOString(),
      endTime: moved.previous.endTime.toISOString(),
    },
    startTime: moved.booking.start_time.toISOString(),
    endTime: moved.booking.end_time.toISOString(),
  });
  return moved;
}
