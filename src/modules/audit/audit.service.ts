import { PAGE_SIZES, connectionOf, pageSizeOf, type Connection } from '../../paging.js';
import type { Executor } from '../../db/index.js';
import type { AuditLogRow } from '../../db/types.js';
import type { Principal } from '../../auth/principal.js';
import { invalidField } from '../../errors.js';
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
  'api_key.created',
  'api_key.revoked',
  'device.registered',
  'device.revoked',
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

export const userActor = (user: { id: string; email: string }): AuditActor => ({ type: 'user', id: user.id, label: user.email });
export const CLI_ACTOR: AuditActor = { type: 'cli', id: null, label: 'command line' };
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, label: 'Portier' };
/** A client that has not signed in (a failed sign-in's target is the user whose email was tried). */
export const ANONYMOUS_ACTOR: AuditActor = { type: 'anonymous', id: null, label: 'not signed in' };

/** Who acts through a principal: the signed-in user, the OAuth app for a user, or the API key. */
export async function actorOf(db: Executor, principal: Principal | null): Promise<AuditActor> {
  if (!principal || principal.kind !== 'apiKey') return SYSTEM_ACTOR;
  const via = principal.via;
  if (via?.type === 'session') return { type: 'user', id: via.userId, label: (await repo.userEmail(db, via.userId)) ?? via.userId };
  if (via?.type === 'oauth') {
    const email = (await repo.userEmail(db, via.userId)) ?? via.userId;
    return { type: 'oauth', id: via.userId, label: `${email} through OAuth app ${via.clientId}` };
  }
  const name = await repo.apiKeyName(db, principal.keyId);
  return { type: 'apiKey', id: principal.keyId, label: name ? `API key "${name}"` : `API key ${principal.keyId}` };
}

const encodeCursor = (id: string) => Buffer.from(`audit:${id}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const match = /^audit:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw invalidField('after', 'is not a cursor this list returned');
  return match[1];
}

export type AuditPage = Connection<AuditLogRow>;

/** Newest first, `first` entries after the cursor `after`; the total when asked (a second statement). */
export async function listAuditLog(db: Executor, tenantId: string, first: number | null | undefined, after: string | null | undefined, withTotal = false): Promise<AuditPage> {
  const size = pageSizeOf(PAGE_SIZES.auditLog, first);
  const before = after ? decodeCursor(after) : null;
  const [rows, total] = await Promise.all([repo.listAuditEntries(db, tenantId, size + 1, before), withTotal ? repo.countAuditEntries(db, tenantId) : null]);
  return connectionOf(rows, size, after, (node) => encodeCursor(node.id), total);
}
