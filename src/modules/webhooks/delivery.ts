import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../kernel/db/types.js';
import type { ServerSecret } from '../../kernel/crypto.js';
import * as deliveries from './deliveries.repository.js';
import type { DeliveryJob } from './deliveries.repository.js';
import { nextAttemptAt } from './retry.js';
import type { Sender, SendResult } from './sender.js';
import * as webhooks from './webhooks.repository.js';
import { signedRequest } from './signing.js';
import { recordEvent } from './outbox.js';
import type { SuccessWriter } from './success-writer.js';
import type { Executor } from '../../kernel/db/index.js';
import type { DeliveryOutcome, Metrics } from '../../kernel/metrics.js';
import { inSpan, SpanKind, SpanStatusCode, type Span, type Tracing } from '../../kernel/tracing.js';

// One attempt of one delivery: sign, send (outside any transaction: a slow receiver must never
// hold the database), then record the outcome in one short transaction.

export interface DeliveryContext {
  db: Kysely<DB>;
  secret: ServerSecret;
  send: Sender;
  now: () => Date;
  log: Logger;
  /** Counts each attempt's outcome (portier_webhook_delivery_attempts_total); absent, nothing is counted. */
  metrics?: Metrics;
  /** Traces each attempt and sends its `traceparent` (docs/operations.md#traces); absent, nothing is traced. */
  tracing?: Tracing;
  /** Writes successes in groups (the dispatcher's); absent, each success is written on its own. */
  successes?: SuccessWriter;
}

export interface AttemptOutcome extends SendResult {
  deliveryId: string;
  eventId: string;
  success: boolean;
  /** When the delivery is tried again (a failure with retries left), else null. */
  nextAttemptAt: Date | null;
}

const GONE = 410;

type AttemptOptions = { retry: boolean; evenIfInactive?: boolean };

/** Sends a claimed delivery once and records the attempt; `retry: false` makes a failure final. */
export function attemptDelivery(
  ctx: DeliveryContext,
  job: DeliveryJob,
  options: AttemptOptions,
): Promise<AttemptOutcome | null> {
  const tracing = ctx.tracing;
  if (!tracing) return attempt(ctx, job, options, undefined);
  // A CLIENT span around the attempt: the receiver gets its context as `traceparent`, and the
  // statements recording the outcome are its children.
  return inSpan(
    tracing.tracer,
    'webhook delivery',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        ...serverOf(job.url),
        'portier.tenant.id': job.delivery.tenant_id,
        'portier.webhook.id': job.delivery.webhook_id,
        'portier.webhook.delivery.id': job.delivery.id,
        'portier.event.id': job.delivery.event_id,
        'portier.event.type': job.eventType,
      },
    },
    (span) => attempt(ctx, job, options, { span, tracing }),
  );
}

/** The receiver's host and port, for the span (never the URL's credentials, path or query). */
function serverOf(url: string): Record<string, string | number> {
  try {
    const target = new URL(url);
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    return { 'server.address': target.hostname.replace(/^\[|\]$/g, ''), 'server.port': port };
  } catch {
    return {};
  }
}

async function attempt(
  ctx: DeliveryContext,
  job: DeliveryJob,
  options: AttemptOptions,
  traced: { span: Span; tracing: Tracing } | undefined,
): Promise<AttemptOutcome | null> {
  const { delivery } = job;
  if (!job.active && !options.evenIfInactive) {
    await deliveries.failPending(
      ctx.db,
      delivery.tenant_id,
      { deliveryId: delivery.id },
      'subscription is inactive',
      ctx.now(),
    );
    traced?.span.setAttribute('portier.delivery.outcome', 'subscription_inactive');
    return null;
  }
  const secrets: string[] = [];
  try {
    secrets.push(ctx.secret.unseal(job.secretSealed));
    // During a rotation the replaced secret signs too, so receivers still holding it verify.
    if (job.previousSecretSealed && job.previousSecretExpiresAt && job.previousSecretExpiresAt > ctx.now())
      secrets.push(ctx.secret.unseal(job.previousSecretSealed));
  } catch {
    ctx.log.error(
      { webhookId: delivery.webhook_id },
      'webhook signing secret cannot be unsealed; was PORTIER_SECRET changed?',
    );
    await deliveries.failPending(
      ctx.db,
      delivery.tenant_id,
      { deliveryId: delivery.id },
      'signing secret unavailable',
      ctx.now(),
    );
    traced?.span.setStatus({ code: SpanStatusCode.ERROR, message: 'signing secret unavailable' });
    return null;
  }

  const attemptedAt = ctx.now();
  const { body, headers } = signedRequest(
    secrets,
    {
      id: delivery.event_id,
      type: job.eventType,
      timestamp: job.eventCreatedAt,
      tenantId: delivery.tenant_id,
      data: job.eventData,
      livemode: job.livemode,
    },
    attemptedAt,
  );
  // The attempt's own span context, so the receiver can join its trace; not signed (the signature
  // covers the id, the timestamp and the body).
  traced?.tracing.inject(headers);
  const result = await ctx.send(job.url, headers, body);
  const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const { outcome, nextAttemptAt } = await recordAttempt(
    ctx,
    job,
    attemptedAt,
    { requestHeaders: headers, ...result },
    body,
    success,
    options.retry,
  );
  ctx.metrics?.observeWebhookDelivery(outcome);
  if (traced) {
    if (result.statusCode !== null) traced.span.setAttribute('http.response.status_code', result.statusCode);
    traced.span.setAttribute('portier.delivery.outcome', outcome);
    if (!success) traced.span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? 'delivery failed' });
  }
  ctx.log.info(
    {
      webhookId: delivery.webhook_id,
      deliveryId: delivery.id,
      eventId: delivery.event_id,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
    },
    success ? 'webhook delivered' : 'webhook delivery failed',
  );
  return { ...result, deliveryId: delivery.id, eventId: delivery.event_id, success, nextAttemptAt };
}

interface Recorded {
  /** The outcome as the metrics count it. */
  outcome: DeliveryOutcome;
  nextAttemptAt: Date | null;
}

/** Records the attempt; returns its outcome and the next attempt's time. */
async function recordAttempt(
  ctx: DeliveryContext,
  job: DeliveryJob,
  attemptedAt: Date,
  result: SendResult,
  requestBody: string,
  success: boolean,
  retry: boolean,
): Promise<Recorded> {
  const { delivery } = job;
  const tenantId = delivery.tenant_id;
  const done = (outcome: DeliveryOutcome, nextAttemptAt: Date | null = null): Recorded => ({ outcome, nextAttemptAt });
  const record = {
    tenantId,
    deliveryId: delivery.id,
    attemptedAt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error,
    requestHeaders: result.requestHeaders,
    requestBody,
    responseHeaders: result.responseHeaders,
    responseBody: result.responseBody,
    responseBodyTruncated: result.responseBodyTruncated,
  };
  if (success) {
    // One statement; the dispatcher groups those ending together. Traced, each is its own, so it
    // is a child of its attempt's span.
    if (ctx.successes && !ctx.tracing) await ctx.successes.write(record);
    else await deliveries.recordSuccesses(ctx.db, [record]);
    return done('success');
  }
  return ctx.db.transaction().execute(async (trx): Promise<Recorded> => {
    // The subscription may have been deleted meanwhile (its deliveries with it): nothing to record.
    const current = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'retry_step'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', delivery.id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return done('given_up');
    const finishedAt = ctx.now();
    await deliveries.insertAttempt(trx, record);
    if (result.statusCode === GONE) {
      const reason = 'the receiver answered 410 Gone';
      await deliveries.settleDelivery(trx, record, {
        status: 'failed',
        nextAttemptAt: null,
        retryStep: current.retry_step + 1,
      });
      await webhooks.deactivateWebhook(trx, tenantId, delivery.webhook_id, reason, finishedAt);
      await deliveries.failPending(
        trx,
        tenantId,
        { webhookId: delivery.webhook_id },
        `subscription deactivated: ${reason}`,
        finishedAt,
      );
      return done('given_up');
    }
    const failures = current.retry_step + 1;
    const next = retry ? nextAttemptAt(failures, finishedAt, result.retryAfter) : null;
    await deliveries.settleDelivery(trx, record, {
      status: next ? 'pending' : 'failed',
      nextAttemptAt: next,
      retryStep: failures,
    });
    const disabled = await disableIfFailingTooLong(trx, tenantId, delivery.webhook_id, finishedAt);
    return next && !disabled ? done('failure', next) : done('given_up');
  });
}

/** A subscription whose attempts have all failed for this long is disabled (docs/webhooks.md). */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * Disables the subscription when every attempt has failed for DISABLE_AFTER_MS: it becomes
 * inactive, its pending deliveries fail with the reason (its delivery log shows it), and a
 * webhook.disabled event goes to the tenant's other subscriptions that take it. Returns whether the
 * subscription is now inactive (its pending deliveries, this one included, failed).
 */
async function disableIfFailingTooLong(
  trx: Executor,
  tenantId: string,
  webhookId: string,
  now: Date,
): Promise<boolean> {
  const subscription = await webhooks.findWebhook(trx, tenantId, webhookId);
  if (subscription && !subscription.active) {
    // Disabled while this attempt was in flight: it is not retried either.
    await deliveries.failPending(
      trx,
      tenantId,
      { webhookId },
      `subscription disabled: ${subscription.deactivated_reason ?? 'inactive'}`,
      now,
    );
    return true;
  }
  const since = await deliveries.failingSince(trx, tenantId, webhookId);
  if (!since || now.getTime() - since.getTime() < DISABLE_AFTER_MS) return false;
  const reason = `every delivery failed since ${since.toISOString()} (5 days)`;
  const disabled = await webhooks.deactivateWebhook(trx, tenantId, webhookId, reason, now);
  if (!disabled) return false;
  await deliveries.failPending(trx, tenantId, { webhookId }, `subscription disabled: ${reason}`, now);
  await recordEvent(trx, tenantId, 'webhook.disabled', {
    webhook: {
      id: disabled.id,
      url: disabled.url,
      events: disabled.events,
      active: false,
      createdAt: disabled.created_at.toISOString(),
    },
    reason,
    failingSince: since.toISOString(),
  });
  return true;
}
