import type { Executor } from '../../kernel/db/index.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { ImportContext } from '../../kernel/deps.js';
import { actorOf, recordAudit, type AuditAction } from './audit.service.js';

/** Records what a GraphQL request's principal did; pass the transaction that did it. */
export async function auditRequest(
  ctx: GraphQLContext,
  db: Executor,
  tenantId: string,
  action: AuditAction,
  target: { type: string; id: string },
  details?: Record<string, unknown>,
): Promise<void> {
  await recordAudit(db, {
    tenantId,
    actor: await actorOf(db, ctx.principal),
    action,
    target,
    details,
    ip: ctx.clientAddress,
    at: ctx.deps.now(),
  });
}

/**
 * Records what a catalog file created, with the same action a GraphQL mutation records for it
 * (accommodation.created, object.created, …) and `details.via: "import"`; in the import's transaction.
 */
export async function auditImported(
  ctx: ImportContext,
  action: AuditAction,
  target: { type: string; id: string },
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(ctx.trx, {
    tenantId: ctx.tenantId,
    actor: ctx.actor,
    action,
    target,
    details: { ...details, via: 'import' },
    at: ctx.deps.now(),
  });
}
