// The webhooks module's public face: what other modules and the HTTP/GraphQL layers may use.
export { createSender, DELIVERY_TIMEOUT_MS, type Sender, type SendResult } from './sender.js';
export { WebhookDispatcher, dispatcherOptionsOf, type DispatcherOptions, type DispatcherSweep } from './dispatcher.js';
export { recordEvent, EVENT_TYPES, type EventType } from './outbox.js';
export { createWebhookLoaders } from './webhooks.loaders.js';
export { webhookResolvers } from './webhooks.resolvers.js';
export * from './webhooks.service.js';
export * from './webhooks.operations.js';
export { MAX_URL_LENGTH } from './subscription.rules.js';
export { tenantsSubscribedTo } from './webhooks.repository.js';
export { API_VERSION, SECRET_MAX_LENGTH, SECRET_MIN_LENGTH } from './signing.js';
