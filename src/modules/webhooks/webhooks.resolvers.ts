import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../auth/principal.js';
import { connectionSelection, inTransaction } from '../../graphql/helpers.js';
import * as webhooks from './webhooks.service.js';
import { replayDeliveries, rotateSecret, updateWebhook } from './webhooks.operations.js';

export const webhookResolvers: Resolvers = {
  Query: {
    webhooks: (_, a, ctx) => webhooks.listWebhooks(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    webhook: (_, a, ctx) => webhooks.getWebhook(ctx.db, tenantOf(ctx.principal), a.id),
    webhookList: async (_, a, ctx) => ({ webhooks: await webhooks.listWebhooks(ctx.db, tenantOf(ctx.principal, a.tenantId)) }),
    webhookDetails: async (_, a, ctx) => ({ webhook: await webhooks.getWebhook(ctx.db, tenantOf(ctx.principal, a.tenantId), a.webhookId) }),
    bookingWebhookDeliveries: async (_, a, ctx) => ({
      deliveries: await webhooks.listBookingDeliveries(ctx.db, tenantOf(ctx.principal, a.tenantId), a.bookingId, a),
    }),
    webhookDeliveriesConnection: (_, a, ctx, info) => webhooks.deliveriesConnection(ctx.db, tenantOf(ctx.principal, a.tenantId), a, connectionSelection(info).totalCount),
    webhookDeliveries: async (_, a, ctx) => ({
      deliveries: await webhooks.listDeliveries(ctx.db, tenantOf(ctx.principal, a.tenantId), a.webhookId, a),
    }),
  },
  Mutation: {
    // No transaction around creation and test: both wait on the network (DNS, the receiver).
    createWebhook: async (_, a, ctx) => ({ webhook: await webhooks.createWebhook(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a) }),
    deleteWebhook: (_, a, ctx) => webhooks.deleteWebhook(ctx.db, tenantOf(ctx.principal, a.tenantId), a.webhookId),
    testWebhook: (_, a, ctx) => webhooks.testWebhook(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.webhookId),
    redeliverWebhookEvent: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return { delivery: await inTransaction(ctx, (trx) => webhooks.redeliver(trx, ctx.deps, tenantId, a.webhookId, a.eventId)) };
    },
    // No transaction: a new url's host is resolved first.
    updateWebhook: async (_, a, ctx) => ({ webhook: await updateWebhook(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.webhookId, a) }),
    rotateWebhookSecret: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => rotateSecret(trx, ctx.deps, tenantId, a.webhookId, a));
    },
    replayWebhookDeliveries: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => replayDeliveries(trx, ctx.deps, tenantId, a.webhookId, a));
    },
  },
  Webhook: {
    createdAt: (row) => row.created_at,
  },
  WebhookDelivery: {
    webhookId: (row) => row.webhook_id,
    eventId: (row) => row.event_id,
    eventType: (row) => row.event_type,
    status: (row) => row.status.toUpperCase() as 'PENDING' | 'SUCCEEDED' | 'FAILED',
    attemptCount: (row) => row.attempt_count,
    lastStatusCode: (row) => row.last_status_code,
    lastError: (row) => row.last_error,
    lastAttemptAt: (row) => row.last_attempt_at,
    nextAttemptAt: (row) => row.next_attempt_at,
    createdAt: (row) => row.created_at,
    completedAt: (row) => row.completed_at,
    attempts: (row, _, ctx) => ctx.loaders.attemptsByDelivery.load(row.id),
  },
  WebhookAttempt: {
    attemptedAt: (row) => row.attempted_at,
    statusCode: (row) => row.status_code,
    durationMs: (row) => row.duration_ms,
  },
};
