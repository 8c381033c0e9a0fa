import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../kernel/deps.js';
import type { Executor } from '../../kernel/db/index.js';
import type { WebhookRow } from '../../kernel/db/types.js';
import { conflict, invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { hostRefusal, systemResolver, type Resolver } from './address-guard.js';
import * as deliveries from './deliveries.repository.js';
import type { ReplayWebhookDeliveries, RotateWebhookSecret, UpdateWebhook } from './webhooks.commands.js';
import * as repo from './webhooks.repository.js';

// Operating a subscription (docs/webhooks.md): change it, rotate its secret, replay its failures.

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Changes url, events and active. Re-enabling (active: true) a subscription that was disabled —
 * by failures or a 410 — takes it back into fan-out for new events. `db` must not be an open
 * transaction: a new url's host is resolved first (the SSRF check).
 */
export async function updateWebhook(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  webhookId: string,
  input: UpdateWebhook,
  resolver: Resolver = systemResolver,
): Promise<WebhookRow> {
  const current = isUuid(webhookId) ? await repo.findWebhook(db, tenantId, webhookId) : undefined;
  if (!current) throw notFound('Webhook', webhookId);
  if (input.url !== undefined && !deps.env.webhookAllowPrivateNetworks) {
    const refusal = await hostRefusal(new URL(input.url).hostname, resolver);
    if (refusal)
      throw invalidField('url', `${refusal}; webhook receivers must be public internet addresses`, 'url_not_allowed');
  }
  const active = typeof input.active === 'boolean' ? input.active : current.active;
  const reactivated = active && !current.active;
  const row = await repo.updateWebhook(db, tenantId, current.id, {
    url: input.url ?? current.url,
    events: input.events ?? current.events,
    active,
    ...(reactivated ? { deactivated_at: null, deactivated_reason: null } : {}),
    ...(!active && current.active ? { deactivated_at: deps.now(), deactivated_reason: 'deactivated by PATCH' } : {}),
  });
  if (!row) throw notFound('Webhook', webhookId);
  return row;
}

export interface RotationResult {
  webhook: WebhookRow;
  /** The new secret when Portier generated it (shown this once); null when the caller chose it. */
  secret: string | null;
  /** Until when the replaced secret signs too. */
  previousSecretExpiresAt: Date;
}

/**
 * Replaces the signing secret. For SECRET_OVERLAP_MS every delivery carries signatures under both
 * (space-separated in webhook-signature), then only under the new one. Without `secret` a
 * `whsec_` secret of 32 random bytes is generated and returned once.
 */
export async function rotateSecret(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  webhookId: string,
  input: RotateWebhookSecret,
): Promise<RotationResult> {
  const current = isUuid(webhookId) ? await repo.findWebhookForUpdate(trx, tenantId, webhookId) : undefined;
  if (!current) throw notFound('Webhook', webhookId);
  const secret = input.secret ?? `whsec_${randomBytes(32).toString('base64')}`;
  const generated = input.secret == null ? secret : null;
  const now = deps.now();
  const previousSecretExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
  const webhook = await repo.updateWebhook(trx, tenantId, current.id, {
    secret_sealed: deps.secret.seal(secret),
    previous_secret_sealed: current.secret_sealed,
    previous_secret_expires_at: previousSecretExpiresAt,
  });
  if (!webhook) throw notFound('Webhook', webhookId);
  return { webhook, secret: generated, previousSecretExpiresAt };
}

/** Queues every FAILED delivery of the subscription created at or after `since` again, due now. */
export async function replayDeliveries(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  webhookId: string,
  { since }: ReplayWebhookDeliveries,
): Promise<{ webhookId: string; queued: number }> {
  const webhook = isUuid(webhookId) ? await repo.findWebhookForUpdate(trx, tenantId, webhookId) : undefined;
  if (!webhook) throw notFound('Webhook', webhookId);
  if (!webhook.active) {
    throw conflict(
      'webhook_inactive',
      `Webhook ${webhookId} is inactive (${webhook.deactivated_reason ?? 'deactivated'}); re-enable it with PATCH {"active": true} first`,
    );
  }
  const queued = await deliveries.requeueFailedSince(trx, tenantId, webhook.id, since, deps.now());
  return { webhookId: webhook.id, queued };
}
