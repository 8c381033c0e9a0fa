import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { WebhookAttemptRow } from '../../kernel/db/types.js';
import { tenantOf, livemodeOf } from '../../kernel/auth/principal.js';
import { connectionSelection, inTransaction } from '../../kernel/graphql-helpers.js';
import * as webhooks from './webhooks.service.js';
import { PAGE_SIZES, REST_CURSOR_PAGE, cursorPageOf } from '../../kernel/paging.js';
import {
  deliveryKeyOf,
  parseCreateWebhook,
  parseDeliveriesConnection,
  parseListBookingDeliveries,
  parseListDeliveries,
  parseReplayWebhookDeliveries,
  parseRotateWebhookSecret,
  parseUpdateWebhook,
} from './webhooks.commands.js';
import { replayDeliveries, rotateSecret, updateWebhook } from './webhooks.operations.js';
import { eventFeed, eventsConnection, feedEvent } from './event-feed.service.js';
import { parseEventFeed, parseEventsConnection } from './event-feed.commands.js';
import { auditRequest as audit } from '../audit/index.js';

/** A delivery's latest attempt (through the same per-request loader as `attempts`). */
async function lastAttempt(ctx: GraphQLContext, deliveryId: string): Promise<WebhookAttemptRow | undefined> {
  const attempts = await ctx.loaders.attemptsByDelivery.load(deliveryId);
  return attempts.at(-1);
}

/** Stored headers as a list sorted by name; null when none were kept. */
function headerList(headers: Record<string, string> | null | undefined): { name: string; value: string }[] | null {
  if (!headers) return null;
  return Object.entries(headers)
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The principal's tenant and its mode (the feed's envelopes carry livemode; docs/test-mode.md). */
const feedTenant = (ctx: GraphQLContext, tenantId: string) => ({ id: tenantId, livemode: livemodeOf(ctx.principal) });

export const webhookResolvers: Resolvers = {
  Query: {
    webhooks: (_, a, ctx) => webhooks.listWebhooks(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    webhook: (_, a, ctx) => webhooks.getWebhook(ctx.db, tenantOf(ctx.principal), a.id),
    webhookList: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, webhooks.WEBHOOK_CURSOR.keyOf);
      if (!cursor) return { webhooks: await webhooks.listWebhooks(ctx.db, tenantId), next: null };
      const { items, next } = await webhooks.webhookPage(ctx.db, tenantId, cursor);
      return { webhooks: items, next };
    },
    webhookDetails: async (_, a, ctx) => ({
      webhook: await webhooks.getWebhook(ctx.db, tenantOf(ctx.principal, a.tenantId), a.webhookId),
    }),
    bookingWebhookDeliveries: async (_, a, ctx) => ({
      deliveries: await webhooks.listBookingDeliveries(
        ctx.db,
        tenantOf(ctx.principal, a.tenantId),
        parseListBookingDeliveries({ bookingId: a.bookingId, first: a.first }),
      ),
      next: null,
    }),
    webhookDeliveriesConnection: (_, a, ctx, info) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return webhooks.deliveriesConnection(
        ctx.db,
        tenantId,
        parseDeliveriesConnection(a),
        connectionSelection(info).totalCount,
      );
    },
    events: (_, a, ctx, info) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      // eventTypes (WebhookEventType values, whose internal values are the type strings) widen types.
      const types = a.eventTypes ? [...(a.types ?? []), ...a.eventTypes] : a.types;
      const command = parseEventsConnection({ first: a.first, after: a.after, types });
      return eventsConnection(ctx.db, feedTenant(ctx, tenantId), command, connectionSelection(info).totalCount);
    },
    eventFeed: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return eventFeed(
        ctx.db,
        feedTenant(ctx, tenantId),
        parseEventFeed({ after: a.after, types: a.types, limit: a.limit }),
      );
    },
    event: (_, a, ctx) => feedEvent(ctx.db, feedTenant(ctx, tenantOf(ctx.principal, a.tenantId)), a.id),
    eventDetails: async (_, a, ctx) => ({
      event: await feedEvent(ctx.db, feedTenant(ctx, tenantOf(ctx.principal, a.tenantId)), a.eventId),
    }),
    webhookDeliveries: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { first, status } = parseListDeliveries({ first: a.first, status: a.status });
      // `limit` is cursor paging's name for `first`; `first` may go with `after`, `limit` may not go with `first`.
      const cursor = cursorPageOf(
        { after: a.after, limit: a.limit ?? a.first },
        a.limit != null ? { first: a.first } : {},
        PAGE_SIZES.webhookDeliveries,
        deliveryKeyOf,
      ) ?? { after: null, limit: first };
      const { items, next } = await webhooks.deliveryLogPage(ctx.db, tenantId, a.webhookId, status, cursor);
      return { deliveries: items, next };
    },
  },
  Mutation: {
    // No transaction around creation and test: both wait on the network (DNS, the receiver).
    createWebhook: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const webhook = await webhooks.createWebhook(
        ctx.db,
        ctx.deps,
        tenantId,
        parseCreateWebhook({ url: a.url, events: a.events, secret: a.secret }),
      );
      await audit(
        ctx,
        ctx.db,
        tenantId,
        'webhook.created',
        { type: 'webhook', id: webhook.id },
        { url: webhook.url, events: webhook.events },
      );
      return { webhook };
    },
    deleteWebhook: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const deleted = await webhooks.deleteWebhook(trx, tenantId, a.webhookId);
        await audit(ctx, trx, tenantId, 'webhook.deleted', { type: 'webhook', id: a.webhookId });
        return deleted;
      });
    },
    testWebhook: (_, a, ctx) =>
      webhooks.testWebhook(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.webhookId),
    redeliverWebhookEvent: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return {
        delivery: await inTransaction(ctx, (trx) =>
          webhooks.redeliver(trx, ctx.deps, tenantId, a.webhookId, a.eventId),
        ),
      };
    },
    // No transaction: a new url's host is resolved first.
    updateWebhook: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const webhook = await updateWebhook(
        ctx.db,
        ctx.deps,
        tenantId,
        a.webhookId,
        parseUpdateWebhook({ url: a.url, events: a.events, active: a.active }),
      );
      await audit(
        ctx,
        ctx.db,
        tenantId,
        'webhook.updated',
        { type: 'webhook', id: webhook.id },
        { url: webhook.url, events: webhook.events, active: webhook.active },
      );
      return { webhook };
    },
    rotateWebhookSecret: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseRotateWebhookSecret({ secret: a.secret });
      return inTransaction(ctx, async (trx) => {
        const rotated = await rotateSecret(trx, ctx.deps, tenantId, a.webhookId, command);
        await audit(
          ctx,
          trx,
          tenantId,
          'webhook.secret_rotated',
          { type: 'webhook', id: a.webhookId },
          { generated: a.secret == null },
        );
        return rotated;
      });
    },
    replayWebhookDeliveries: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseReplayWebhookDeliveries({ since: a.since });
      return inTransaction(ctx, (trx) => replayDeliveries(trx, ctx.deps, tenantId, a.webhookId, command));
    },
  },
  Webhook: {
    livemode: (_, __, ctx) => livemodeOf(ctx.principal),
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
    requestHeaders: async (row, _, ctx) => headerList((await lastAttempt(ctx, row.id))?.request_headers),
    requestBody: async (row, _, ctx) => (await lastAttempt(ctx, row.id))?.request_body ?? null,
    responseStatus: (row) => row.last_status_code,
    responseHeaders: async (row, _, ctx) => headerList((await lastAttempt(ctx, row.id))?.response_headers),
    responseBody: async (row, _, ctx) => (await lastAttempt(ctx, row.id))?.response_body ?? null,
  },
  WebhookAttempt: {
    attemptedAt: (row) => row.attempted_at,
    statusCode: (row) => row.status_code,
    durationMs: (row) => row.duration_ms,
    requestHeaders: (row) => headerList(row.request_headers),
    requestBody: (row) => row.request_body,
    responseHeaders: (row) => headerList(row.response_headers),
    responseBody: (row) => row.response_body,
    responseBodyTruncated: (row) => row.response_body_truncated,
  },
};
