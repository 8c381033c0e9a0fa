import type { Executor } from '../../db/index.js';
import type { ObjectRow } from '../../db/types.js';
import { invalid, notFound } from '../../errors.js';
import type { PricePreview } from './bookings.commands.js';
import { bookingWindowErrors } from './bookings.service.js';
import * as catalog from '../catalog/index.js';
import { quoteBooking, type Quote } from '../pricing/index.js';

export interface PreviewRequest {
  object: ObjectRow;
  start: Date;
  end: Date;
}

/**
 * The price preview's request (parsePricePreview) with its object, which must be the key's
 * tenant's (404 otherwise). The booking-window rules — opening hours, booking rules, advance
 * limits — are shared with booking creation; previewPrice applies them before pricing.
 */
export async function checkPreviewFields(db: Executor, tenantId: string, command: PricePreview): Promise<PreviewRequest> {
  const object = await catalog.findObject(db, tenantId, command.objectId);
  if (!object) throw notFound('Object', command.objectId);
  return { object, start: command.startTime, end: command.endTime };
}

/** What a booking of this object and time range, created at `now`, would cost. */
export async function previewPrice(db: Executor, tenantId: string, command: PricePreview, now: Date): Promise<Quote> {
  const request = await checkPreviewFields(db, tenantId, command);
  const { time_zone: timeZone } = await catalog.accommodationOf(db, tenantId, request.object);
  const errors = await bookingWindowErrors(db, tenantId, request.object, timeZone, request.start, request.end, now);
  if (errors.length) throw invalid(errors, errors[0].code);
  return quoteBooking(db, tenantId, request.object, timeZone, request.start, request.end, now);
}
