import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { requireScope, tenantOf } from '../../kernel/auth/principal.js';
import type { Executor } from '../../kernel/db/index.js';
import type { AuditLogRow } from '../../kernel/db/types.js';
import { attachment, csvLine } from '../../kernel/csv.js';
import * as repo from './audit.repository.js';

// GET /api/v1/tenants/:tenantId/audit-log/export.csv — the whole audit log, newest first, as CSV,
// read a page at a time (by id, as the listing's cursor) and written as it is read.

export const AUDIT_EXPORT_PATH = '/api/v1/tenants/:tenantId/audit-log/export.csv';
const EXPORT_PAGE = 500;

export const AUDIT_CSV_HEADER = [
  'id',
  'occurred_at',
  'actor_type',
  'actor_id',
  'actor',
  'action',
  'target_type',
  'target_id',
  'ip',
  'details',
] as const;

const recordOf = (e: AuditLogRow) =>
  csvLine([
    e.id,
    e.occurred_at.toISOString(),
    e.actor_type,
    e.actor_id,
    e.actor_label,
    e.action,
    e.target_type,
    e.target_id,
    e.ip,
    JSON.stringify(e.details ?? {}),
  ]);

async function* auditLines(db: Executor, tenantId: string, first: AuditLogRow[]): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_HEADER);
  let page = first;
  for (;;) {
    yield page.map(recordOf).join('');
    const last = page.at(-1);
    if (!last || page.length < EXPORT_PAGE) return;
    page = await repo.listAuditEntries(db, tenantId, EXPORT_PAGE, last.id);
  }
}

const EXPORT_DOC: RouteDoc = {
  operationId: 'exportAuditLog',
  summary: 'Export the audit log as CSV',
  description:
    'Every audit-log entry of the tenant, newest first, as RFC 4180 CSV with a header row; times are UTC (ISO 8601), details JSON. Text starting with = + - @ is prefixed with an apostrophe. Streamed.',
  tags: ['users'],
  params: {
    type: 'object',
    properties: { tenantId: { type: 'string', format: 'uuid', description: 'The key’s own tenant.' } },
    required: ['tenantId'],
  },
  responses: {
    200: {
      description: 'The CSV (text/csv; charset=utf-8), as a download.',
      contentType: 'text/csv',
      schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' },
      example: `${AUDIT_CSV_HEADER.join(',')}\r\n…`,
    },
  },
};

export function registerAuditExport(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { tenantId: string } }>(
    AUDIT_EXPORT_PATH,
    { config: { auth: 'apiKey', sessionCookie: true, scope: 'admin', openapi: EXPORT_DOC } },
    async (req, reply) => {
      requireScope(req.principal, 'admin');
      const tenantId = tenantOf(req.principal, req.params.tenantId);
      const db = deps.database.db;
      const first = await repo.listAuditEntries(db, tenantId, EXPORT_PAGE, null);
      const stream = Readable.from(auditLines(db, tenantId, first));
      stream.on('error', (err) => req.log.error({ err }, 'audit-log export failed mid-stream'));
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', attachment('audit-log.csv'))
        .type('text/csv; charset=utf-8')
        .send(stream);
    },
  );
}
