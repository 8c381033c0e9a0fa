import { defineModule } from '../../kernel/module.js';
import { webhookResolvers } from './webhooks.resolvers.js';
import { createWebhookLoaders } from './webhooks.loaders.js';
import { WebhookDispatcher, dispatcherOptionsOf, type DispatcherSweep } from './dispatcher.js';
import type { Sender } from './sender.js';
// The webhooks module's public face: what other modules and the HTTP/GraphQL layers may use.
export { createSender, DELIVERY_TIMEOUT_MS, type Sender, type SendResult } from './sender.js';
export { WebhookDispatcher, dispatcherOptionsOf, type DispatcherOptions, type DispatcherSweep } from './dispatcher.js';
export { eventInsert, recordEvent, EVENT_TYPES, type EventType } from './outbox.js';
export { outboxTail } from './event-tail.js';
export { createWebhookLoaders } from './webhooks.loaders.js';
export { webhookResolvers } from './webhooks.resolvers.js';
export * from './webhooks.service.js';
export * from './webhooks.operations.js';
export { MAX_URL_LENGTH } from './subscription.rules.js';
export { tenantsSubscribedTo } from './webhooks.repository.js';
export { EventFeed, EventsConnection } from './event-feed.commands.js';
export { API_VERSION, SECRET_MAX_LENGTH, SECRET_MIN_LENGTH } from './signing.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createWebhookLoaders> {}
  interface Collaborators {
    /** Sends one webhook request (the synchronous test event); the dispatcher gets its own from its options. */
    webhookSender: Sender;
    /** What every webhook dispatcher pass runs before fan-out (the device presence sweep, wired in src/app/deps.ts). */
    dispatcherSweeps: DispatcherSweep[];
  }
}

/** The webhooks module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const webhooksModule = defineModule({
  name: 'webhooks',
  dependsOn: ['audit'],
  typeDefs: ['webhooks.graphql', 'events.graphql'],
  resolvers: webhookResolvers,
  loaders: createWebhookLoaders,
  jobs: [
    {
      name: 'webhook dispatcher',
      start: (deps) => {
        const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(deps));
        dispatcher.start();
        return { stop: () => dispatcher.stop() };
      },
    },
  ],
});
