import { connectionOf, type Connection } from '../../kernel/paging.js';
import type { Executor } from '../../kernel/db/index.js';
import type { AuditLogRow } from '../../kernel/db/types.js';
import type { Principal } from '../../kernel/auth/principal.js';
import { encodeAuditCursor, type AuditLogPage } from './audit.commands.js';
import * as repo from './audit.repository.js';

/** What the audit log records. */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  'session.signed_out_everywhere',
  'user.created',
  'user.removed',
  'user.role_changed',
  'user.password_changed',
  'user.password_reset',
  'user.invited',
  'user.invitation_revoked',
  'api_key.created',
  'api_key.revoked',
  'api_key.updated',
  'device.registered',
  'device.activated',
  'device.revoked',
  'booking.guest_updated',
  'device.doors_changed',
  'device.command_created',
  'oauth.consent_allowed',
  'oauth.consent_denied',
  'oauth_app.created',
  'oauth_app.secret_rotated',
  'oauth_app.deleted',
  'connected_app.revoked',
  'door.created',
  'door.updated',
  'door.deleted',
  'door.offline_policy_changed',
  'door.signing_key_rotated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'booking.marked_paid',
  'tenant_settings.updated',
  'accommodation.created',
  'accommodation.updated',
  'accommodation.deleted',
  'object.created',
  'object.updated',
  'object.deleted',
  'object.opening_hours_changed',
  'object.special_date_set',
  'object.special_date_removed',
  'object.booking_rules_changed',
  'notification_settings.updated',
  'notification.resent',
  'notification.test_email_sent',
  'payment.amount_mismatch',
  'payment.discrepancy',
  'payment.repaired',
  'refund.failed',
  'booking_page.updated',
  'object.published',
  'object.unpublished',
  'booking.guest_created',
  'booking.guest_cancelled',
  'booking.guest_rescheduled',
  'booking.guest_link_revoked',
  'refund.retried',
  'payment_issue.acknowledged',
  'provider_credentials.updated',
  'provider_credentials.cleared',
  'booking.no_show_marked',
  'booking.cancelled',
  'customer.updated',
  'customer.merged',
  'customer.erased',
  'customer.data_exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditActor {
  type: AuditLogRow['actor_type'];
  id: string | null;
  label: string;
}

export interface AuditEvent {
  tenantId: string;
  actor: AuditActor;
  action: AuditAction;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
  ip?: string | null;
  at: Date;
}

export async function recordAudit(db: Executor, event: AuditEvent): Promise<void> {
  await repo.insertAuditEntry(db, {
    tenant_id: event.tenantId,
    occurred_at: event.at,
    actor_type: event.actor.type,
    actor_id: event.actor.id,
    actor_label: event.actor.label,
    action: event.action,
    target_type: event.target?.type ?? null,
    target_id: event.target?.id ?? null,
    details: event.details ?? {},
    ip: event.ip ?? null,
  });
}

/** How many entries of `action` the tenant's log has since `since` (a limit counted on the log itself). */
export async function countAuditActionsSince(
  db: Executor,
  tenantId: string,
  action: AuditAction,
  since: Date,
): Promise<number> {
  return repo.countAuditActionsSince(db, tenantId, action, since);
}

export const userActor = (user: { id: string; email: string }): AuditActor => ({
  type: 'user',
  id: user.id,
  label: user.email,
});
export const CLI_ACTOR: AuditActor = { type: 'cli', id: null, label: 'command line' };
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, label: 'Portier' };
/** A client that has not signed in (a failed sign-in's target is the user whose email was tried). */
export const ANONYMOUS_ACTOR: AuditActor = { type: 'anonymous', id: null, label: 'not signed in' };

/**
 * The guest of a booking acting through its manage link (/b/{token}, src/modules/guest): named by the
 * booking, never by the link's token (which would let whoever reads the log act as the guest).
 */
export const guestActor = (booking: { id: string; guest_name: string }): AuditActor => ({
  type: 'guest',
  id: booking.id,
  label: `guest ${booking.guest_name} (manage link)`,
});

/** Who acts through a principal: the signed-in user, the OAuth app for a user, or the API key. */
export async function actorOf(db: Executor, principal: Principal | null): Promise<AuditActor> {
  if (!principal || principal.kind !== 'apiKey') return SYSTEM_ACTOR;
  const via = principal.via;
  if (via?.type === 'session')
    return { type: 'user', id: via.userId, label: (await repo.userEmail(db, via.userId)) ?? via.userId };
  if (via?.type === 'oauth') {
    const email = (await repo.userEmail(db, via.userId)) ?? via.userId;
    return { type: 'oauth', id: via.userId, label: `${email} through OAuth app ${via.clientId}` };
  }
  const name = await repo.apiKeyName(db, principal.keyId);
  return { type: 'apiKey', id: principal.keyId, label: name ? `API key "${name}"` : `API key ${principal.keyId}` };
}

export type AuditPage = Connection<AuditLogRow>;

/** Newest first, `first` entries after the cursor `after` (`page`: parseListAuditLog); the total when asked (a second statement). */
export async function listAuditLog(
  db: Executor,
  tenantId: string,
  page: AuditLogPage,
  withTotal = false,
): Promise<AuditPage> {
  const { first: size, after, beforeId } = page;
  const [rows, total] = await Promise.all([
    repo.listAuditEntries(db, tenantId, size + 1, beforeId),
    withTotal ? repo.countAuditEntries(db, tenantId) : null,
  ]);
  return connectionOf(rows, size, after, (node) => encodeAuditCursor(node.id), total);
}
