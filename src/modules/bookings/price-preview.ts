import type { Executor } from '../../db/index.js';
import type { ObjectRow } from '../../db/types.js';
import { Validator, invalid, notFound } from '../../errors.js';
import { bookingWindowErrors } from './bookings.service.js';
import { isUuid, parseInstant } from '../../validation.js';
import * as catalog from '../catalog/index.js';
import { quoteBooking, type Quote } from '../pricing/index.js';

export interface PreviewInput {
  objectId?: unknown;
  startTime?: unknown;
  endTime?: unknown;
}

export interface PreviewRequest {
  object: ObjectRow;
  start: Date;
  end: Date;
}

/** A guard on the work one preview may cause; real bookings are far shorter (maxDurationMinutes). */
export const MAX_PREVIEW_DAYS = 366;

/**
 * The field-level checks of a price preview: ISO 8601 timestamps with an offset, start before end,
 * and an object of the key's tenant (404 otherwise). The booking-window rules — opening hours,
 * booking rules, advance limits — are shared with booking creation; previewPrice applies them to
 * the request these checks return, before pricing it.
 */
export async function checkPreviewFields(db: Executor, tenantId: string, input: PreviewInput): Promise<PreviewRequest> {
  const v = new Validator();
  v.check(isUuid(input.objectId), 'objectId', 'must be the id of a bookable object');
  const start = parseInstant(input.startTime);
  const end = parseInstant(input.endTime);
  v.check(start !== undefined, 'startTime', 'must be an ISO 8601 timestamp with a time zone offset');
  v.check(end !== undefined, 'endTime', 'must be an ISO 8601 timestamp with a time zone offset');
  if (start && end && v.check(start < end, 'endTime', 'must be later than startTime')) {
    v.check(end.getTime() - start.getTime() <= MAX_PREVIEW_DAYS * 86_400_000, 'endTime', `must be at most ${MAX_PREVIEW_DAYS} days after startTime`);
  }
  v.throwIfAny();
  const object = await catalog.findObject(db, tenantId, input.objectId as string);
  if (!object) throw notFound('Object', input.objectId as string);
  return { object, start: start!, end: end! };
}

/** What a booking of this object and time range, created at `now`, would cost. */
export async function previewPrice(db: Executor, tenantId: string, input: PreviewInput, now: Date): Promise<Quote> {
  const request = await checkPreviewFields(db, tenantId, input);
  const { time_zone: timeZone } = await catalog.accommodationOf(db, tenantId, request.object);
  const errors = await bookingWindowErrors(db, tenantId, request.object, timeZone, request.start, request.end, now);
  if (errors.length) throw invalid(errors, errors[0].code);
  return quoteBooking(db, tenantId, request.object, timeZone, request.start, request.end, now);
}
