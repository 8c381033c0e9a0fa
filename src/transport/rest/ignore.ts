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
];
