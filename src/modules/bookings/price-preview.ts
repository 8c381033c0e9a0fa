import type { Executor } from '../../kernel/db/index.js';
import { invalid, notFound } from '../../kernel/errors.js';
import type { PricePreview } from './bookings.commands.js';
import { bookingWindowErrors } from './bookings.service.js';
import { readBookingContext } from './bookings.repository.js';
import { quoteWithRules, type Quote } from '../pricing/index.js';

/** What a booking of this object and time range, created at `now`, would cost; an object of another tenant is 404. */
export async function previewPrice(db: Executor, tenantId: string, command: PricePreview, now: Date): Promise<Quote> {
  const context = await readBookingContext(db, tenantId, command.objectId, command.startTime, false);
  if (!context) throw notFound('Object', command.objectId);
  const errors = bookingWindowErrors(context, command.startTime, command.endTime, now);
  const [first] = errors;
  if (first) throw invalid(errors, first.code);
  return quoteWithRules(context.pricing_rules, context, context.time_zone, command.startTime, command.endTime, now);
}
