import type { Scope } from '../../kernel/auth/scopes.js';

/**
 * The documented REST routes, each bridged to one root field (src/transport/rest/bridge.ts runs the
 * operation SOFA's conventions derive from the field). Paths are relative to /api/v1; `:name` fills
 * the field's argument of that name. Only these routes are reachable: each is one fastify route.
 */
export interface RestRoute {
  field: `${'Query' | 'Mutation'}.${string}`;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  status?: 200 | 201 | 202 | 204;
  /**
   * A scope the field requires (its @requiresScopes is the source of truth; a test checks the two
   * agree). The OpenAPI document and the security sweep read the directive itself.
   */
  scope?: Scope;
  summary: string;
}

export const REST_ROUTES: RestRoute[] = [
  {
    field: 'Query.bookingPage',
    method: 'GET',
    path: '/tenants/:tenantId/bookings',
    scope: 'bookings:read',
    summary: 'List bookings',
  },
  {
    field: 'Query.bookingDetails',
    method: 'GET',
    path: '/tenants/:tenantId/bookings/:bookingId',
    scope: 'bookings:read',
    summary: 'Get one booking',
  },
  {
    field: 'Mutation.createBooking',
    method: 'POST',
    path: '/tenants/:tenantId/bookings',
    status: 201,
    scope: 'bookings:write',
    summary: 'Create a booking',
  },
  {
    field: 'Mutation.updateBooking',
    method: 'PATCH',
    path: '/tenants/:tenantId/bookings/:bookingId',
    scope: 'bookings:write',
    summary: 'Confirm, cancel or complete a booking, or reschedule it (startTime, endTime, objectId)',
  },
  {
    field: 'Query.webhookList',
    method: 'GET',
    path: '/tenants/:tenantId/webhooks',
    scope: 'webhooks:read',
    summary: 'List webhook subscriptions',
  },
  {
    field: 'Mutation.createWebhook',
    method: 'POST',
    path: '/tenants/:tenantId/webhooks',
    status: 201,
    scope: 'webhooks:write',
    summary: 'Create a webhook subscription',
  },
  {
    field: 'Query.webhookDetails',
    method: 'GET',
    path: '/tenants/:tenantId/webhooks/:webhookId',
    scope: 'webhooks:read',
    summary: 'Get one webhook subscription',
  },
  {
    field: 'Mutation.deleteWebhook',
    method: 'DELETE',
    path: '/tenants/:tenantId/webhooks/:webhookId',
    scope: 'webhooks:write',
    summary: 'Delete a webhook subscription',
  },
  {
    field: 'Mutation.testWebhook',
    method: 'POST',
    path: '/tenants/:tenantId/webhooks/:webhookId/test',
    scope: 'webhooks:write',
    summary: 'Send a test event to a subscription',
  },
  {
    field: 'Query.webhookDeliveries',
    method: 'GET',
    path: '/tenants/:tenantId/webhooks/:webhookId/deliveries',
    scope: 'webhooks:read',
    summary: 'Delivery log of a subscription',
  },
  {
    field: 'Mutation.redeliverWebhookEvent',
    method: 'POST',
    path: '/tenants/:tenantId/webhooks/:webhookId/events/:eventId/redeliver',
    status: 202,
    scope: 'webhooks:write',
    summary: 'Deliver one event to a subscription again',
  },
  {
    field: 'Mutation.updateWebhook',
    method: 'PATCH',
    path: '/tenants/:tenantId/webhooks/:webhookId',
    scope: 'webhooks:write',
    summary: 'Change or re-enable a subscription',
  },
  {
    field: 'Mutation.rotateWebhookSecret',
    method: 'POST',
    path: '/tenants/:tenantId/webhooks/:webhookId/rotate-secret',
    scope: 'webhooks:write',
    summary: 'Rotate the signing secret (both sign for 24 hours)',
  },
  {
    field: 'Mutation.replayWebhookDeliveries',
    method: 'POST',
    path: '/tenants/:tenantId/webhooks/:webhookId/replay',
    status: 202,
    scope: 'webhooks:write',
    summary: 'Queue the failed deliveries since a time again',
  },
  {
    field: 'Query.eventFeed',
    method: 'GET',
    path: '/tenants/:tenantId/events',
    scope: 'webhooks:read',
    summary: 'The events feed: the envelopes webhooks carry, oldest first',
  },
  {
    field: 'Query.objectAvailability',
    method: 'GET',
    path: '/tenants/:tenantId/objects/availability',
    scope: 'bookings:read',
    summary: 'Available time slots for a date, or for each date from `from` to `to` (at most 31 days)',
  },
  {
    field: 'Query.objectPage',
    method: 'GET',
    path: '/tenants/:tenantId/objects',
    scope: 'catalog:read',
    summary: 'List bookable objects (with their accommodation and its time zone)',
  },
  {
    field: 'Query.openingHours',
    method: 'GET',
    path: '/tenants/:tenantId/objects/:objectId/opening-hours',
    scope: 'catalog:read',
    summary: 'Weekly schedule and special dates of an object',
  },
  {
    field: 'Query.bookingCredentials',
    method: 'GET',
    path: '/tenants/:tenantId/bookings/:bookingId/credentials',
    scope: 'bookings:read',
    summary: 'QR and SMS access credentials of a booking',
  },
  {
    field: 'Mutation.createDeviceCommand',
    method: 'POST',
    path: '/tenants/:tenantId/devices/:deviceId/commands',
    status: 201,
    scope: 'devices:write',
    summary: 'Queue a command (unlock) for a device',
  },
  {
    field: 'Query.bookingRules',
    method: 'GET',
    path: '/tenants/:tenantId/objects/:objectId/booking-rules',
    scope: 'catalog:read',
    summary: 'Booking rules of an object',
  },
  {
    field: 'Query.pricingRuleList',
    method: 'GET',
    path: '/tenants/:tenantId/pricing-rules',
    scope: 'pricing:read',
    summary: 'List pricing rules',
  },
  {
    field: 'Mutation.createPricingRule',
    method: 'POST',
    path: '/tenants/:tenantId/pricing-rules',
    status: 201,
    scope: 'pricing:write',
    summary: 'Create a pricing rule',
  },
  {
    field: 'Query.cancellationPolicyList',
    method: 'GET',
    path: '/tenants/:tenantId/cancellation-policies',
    scope: 'pricing:read',
    summary: 'List cancellation policies',
  },
];
