import type { BookingViewColumn, ListPlan } from '../bookings.repository.js';

// Fast path 1: the selection→columns map. The general resolvers read every view column and the
// related objects; with fast paths on, a `bookings`/`bookingsConnection` selection reads only the
// columns its fields need (`{ id }` reads one column and joins nothing).

/** The columns each Booking field reads; `object` and `objectName` also need the related rows. */
export const COLUMNS_OF_FIELD: Record<string, readonly BookingViewColumn[]> = {
  __typename: [],
  id: ['id'],
  objectId: ['object_id'],
  objectName: ['object_id'],
  object: ['object_id'],
  guestName: ['guest_name'],
  guestEmail: ['guest_email'],
  guestPhone: ['guest_phone'],
  startTime: ['start_time'],
  endTime: ['end_time'],
  status: ['status'],
  totalPrice: ['total_price'],
  currency: ['currency'],
  createdAt: ['created_at'],
  paymentUrl: ['id'],
  refundAmount: ['refund_amount'],
  metadata: ['metadata'],
  updatedAt: ['updated_at'],
  reference: ['reference'],
  noShowAt: ['no_show_at'],
  cancellationReasonCode: ['cancellation_reason_code'],
  cancellationReason: ['cancellation_reason'],
  guestLocale: ['guest_locale'],
  // The principal's mode (test mode): no column.
  livemode: [],
  seriesId: ['series_id'],
  customerId: ['customer_id'],
};

/**
 * The plan for a set of selected Booking fields. `null` (an unreadable selection) or a field this
 * map does not know reads everything, as the general path does.
 */
export function listPlanOf(names: Set<string> | null): ListPlan {
  if (!names) return {};
  const columns: BookingViewColumn[] = [];
  for (const name of names) {
    const needs = COLUMNS_OF_FIELD[name] as readonly BookingViewColumn[] | undefined;
    if (!needs) return {};
    columns.push(...needs);
  }
  return { columns, related: names.has('object') || names.has('objectName') };
}
