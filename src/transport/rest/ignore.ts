/**
 * SOFA treats a type with a list and a by-id query as a "model" and cuts nested references to it
 * down to {id}. These payload fields return whole objects instead.
 */
export const sofaIgnore: string[] = [
  'BookingPage.bookings',
  'BookingPayload.booking',
  'UpdateBookingPayload.booking',
  'WebhookList.webhooks',
  'WebhookPayload.webhook',
  'ObjectPage.objects',
  'ObjectPayload.object',
  'BookingSeriesPayload.series',
  'CreateBookingSeriesPayload.series',
  'CreateBookingSeriesPayload.bookings',
  'CancelBookingSeriesPayload.series',
  'CancelBookingSeriesPayload.cancelled',
  'RescheduleBookingPayload.booking',
  'CustomerList.customers',
  'CustomerPayload.customer',
  'CustomerMerge.customer',
];

/**
 * Types the REST answers treat as models although SOFA's naming rule (a plural list query) does
 * not find them: a booking's `series` is cut to {id} in every booking of a REST answer, so a
 * listing never expands each booking's series (its occurrences and invite).
 */
export const sofaExtraModels: string[] = ['BookingSeries'];
