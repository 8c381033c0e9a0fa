import { atPath, keyedItems, resolveKey, type ImportContext } from '../../kernel/import-helpers.js';
import { invalidField } from '../../kernel/errors.js';
import { BOOKING_STATUSES } from './transitions.js';
import { createBooking } from './bookings.service.js';
import { isBookingStatus, parseCreateBooking } from './bookings.commands.js';

const BOOKING_FIELDS = ['key', 'object', 'guestName', 'guestEmail', 'guestPhone', 'startTime', 'endTime', 'status'];

/**
 * The catalog file's `bookings` (DESIGN section 6): `object` is an object key of the same file;
 * each booking keeps its status (default PENDING) and times, may lie in the past, skips opening
 * hours and booking rules, emits no event, and still obeys the no-overlap rule.
 */
export async function importBookings(ctx: ImportContext, value: unknown): Promise<void> {
  for (const { key, item, path } of keyedItems('bookings', value)) {
    const unknown = Object.keys(item).filter((k) => !BOOKING_FIELDS.includes(k));
    if (unknown.length)
      throw invalidField(
        `${path}.${unknown[0]}`,
        `is not a known field; expected ${BOOKING_FIELDS.join(', ')}`,
        'import_invalid',
      );
    const objectId = resolveKey(ctx.result.objects, 'object', item.object, `${path}.object`);
    const status = item.status ?? 'PENDING';
    if (!isBookingStatus(status)) {
      throw invalidField(`${path}.status`, `must be one of ${BOOKING_STATUSES.join(', ')}`, 'import_invalid');
    }
    const booking = await atPath(path, () => {
      const command = parseCreateBooking({
        objectId,
        guestName: item.guestName,
        guestEmail: item.guestEmail,
        guestPhone: item.guestPhone,
        startTime: item.startTime,
        endTime: item.endTime,
      });
      return createBooking(ctx.trx, ctx.deps, ctx.tenantId, command, { imported: { status } });
    });
    ctx.result.bookings[key] = booking.id;
  }
}
