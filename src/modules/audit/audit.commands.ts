import { Type } from '@sinclair/typebox';
import { Nullable, parseCommand } from '../../kernel/commands.js';
import { invalidField } from '../../kernel/errors.js';
import { PAGE_SIZES, PageSize } from '../../kernel/paging.js';

// The audit log's page (docs/architecture.md, "Typed commands"): checked in the resolver; the
// service trusts it.

const NOT_OURS = 'is not a cursor this list returned';

export const ListAuditLog = Type.Object({
  first: PageSize(PAGE_SIZES.auditLog),
  after: Nullable(Type.String({ message: NOT_OURS })),
});

/** A page of the audit log: its size, the cursor it follows and the entry id that cursor names. */
export interface AuditLogPage {
  first: number;
  after: string | null;
  beforeId: string | null;
}

export const encodeAuditCursor = (id: string) => Buffer.from(`audit:${id}`).toString('base64url');

function decodeAuditCursor(cursor: string): string {
  const match = /^audit:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw invalidField('after', NOT_OURS);
  return match[1];
}

export function parseListAuditLog(input: unknown): AuditLogPage {
  const { first, after } = parseCommand(ListAuditLog, input);
  return {
    first: first ?? PAGE_SIZES.auditLog.default,
    after: after ?? null,
    beforeId: after ? decodeAuditCursor(after) : null,
  };
}
