
/**
 * The documented REST routes, each bridged by SOFA to one root field. Paths are relative to
 * /api/v1; `:name` fills the field's argument of that name. Only these routes are reachable:
 * the HTTP host registers exactly this table, although SOFA itself would expose every root field.
 */
export interface RestRoute {
  field: `${'Query' | 'Mutation'}.${string}`;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  status?: 200 | 201 | 202 | 204;
  /** Scope the field requires (documentation and the security sweep). */
  summary: string;
}

export const REST_ROUTES: RestRoute[] = [
  { field: 'Query.bookingPage', method: 'GET', path: '/tenants/:tenantId/bookings', summary: 'List bookings' },
  { field: 'Query.bookingDetails', method: 'GET', path: '/tenants/:tenantId/bookings/:bookingId', summary: 'Get one booking' },
  { field: 'Mutation.createBooking', method: 'POST', path: '/tenants/:tenantId/bookings', status: 201, summary: 'Create a booking' },
  { field: 'Mutation.updateBookingStatus', method: 'PATCH', path: '/tenants/:tenantId/bookings/:bookingId', summary: 'Confirm, cancel or complete a booking' },
  { field: 'Query.webhookList', method: 'GET', path: '/tenants/:tenantId/webhooks', summary: 'List webhook subscriptions' },
  { field: 'Mutation.createWebhook', method: 'POST', path: '/tenants/:tenantId/webhooks', status: 201, summary: 'Create a webhook subscription' },
  { field: 'Query.webhookDetails', method: 'GET', path: '/tenants/:tenantId/webhooks/:webhookId', summary: 'Get one webhook subscription' },
  { field: 'Mutation.deleteWebhook', method: 'DELETE', path: '/tenants/:tenantId/webhooks/:webhookId', summary: 'Delete a webhook subscription' },
  { field: 'Mutation.testWebhook', method: 'POST', path: '/tenants/:tenantId/webhooks/:webhookId/test', summary: 'Send a test event to a subscription' },
  { field: 'Query.webhookDeliveries', method: 'GET', path: '/tenants/:tenantId/webhooks/:webhookId/deliveries', summary: 'Delivery log of a subscription' },
  { field: 'Mutation.redeliverWebhookEvent', method: 'POST', path: '/tenants/:tenantId/webhooks/:webhookId/events/:eventId/redeliver', status: 202, summary: 'Deliver one event to a subscription again' },
  { field: 'Query.objectAvailability', method: 'GET', path: '/tenants/:tenantId/objects/availability', summary: 'Available time slots for a date' },
  { field: 'Query.openingHours', method: 'GET', path: '/tenants/:tenantId/objects/:objectId/opening-hours', summary: 'Weekly schedule and special dates of an object' },
  { field: 'Query.bookingCredentials', method: 'GET', path: '/tenants/:tenantId/bookings/:bookingId/credentials', summary: 'QR and SMS access credentials of a booking' },
  { field: 'Mutation.createDeviceCommand', method: 'POST', path: '/tenants/:tenantId/devices/:deviceId/commands', status: 201, summary: 'Queue a command (unlock) for a device' },
  { field: 'Query.bookingRules', method: 'GET', path: '/tenants/:tenantId/objects/:objectId/booking-rules', summary: 'Booking rules of an object' },
  { field: 'Query.pricingRuleList', method: 'GET', path: '/tenants/:tenantId/pricing-rules', summary: 'List pricing rules' },
  { field: 'Mutation.createPricingRule', method: 'POST', path: '/tenants/:tenantId/pricing-rules', status: 201, summary: 'Create a pricing rule' },
  { field: 'Query.cancellationPolicyList', method: 'GET', path: '/tenants/:tenantId/cancellation-policies', summary: 'List cancellation policies' },
];

export function sofaRoutes(routes: RestRoute[] = REST_ROUTES) {
  return Object.fromEntries(
    routes.map((r) => [r.field, { method: r.method, path: r.path, responseStatus: r.status ?? 200, description: r.summary } as const]),
  );
}
