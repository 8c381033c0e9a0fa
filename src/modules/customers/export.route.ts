import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { requireScope, tenantOf } from '../../kernel/auth/principal.js';
import type { Executor } from '../../kernel/db/index.js';
import type { CustomerRow } from '../../kernel/db/types.js';
import { attachment, csvLine } from '../../kernel/csv.js';
import { actorOf, recordAudit } from '../audit/index.js';
import { parseCustomerId, parseListCustomers, type ListCustomersCommand } from './customers.commands.js';
import * as repo from './customers.repository.js';
import { exportCustomerData } from './erase.service.js';

// GET /api/v1/tenants/:tenantId/customers/export.csv — the customers (optionally searched) as CSV,
// streamed a keyset page at a time like the bookings export; text cells that a spreadsheet would run
// as a formula are neutralised by csvField (src/kernel/csv.ts).
// GET /api/v1/tenants/:tenantId/customers/:id/export.json — one customer's data (exportCustomerData)
// as a download, audited as customer.data_exported.

export const CUSTOMERS_EXPORT_PATH = '/api/v1/tenants/:tenantId/customers/export.csv';
export const CUSTOMER_DATA_PATH = '/api/v1/tenants/:tenantId/customers/:id/export.json';

const EXPORT_PAGE = 500;

export const CUSTOMERS_CSV_HEADER = [
  'id',
  'name',
  'email',
  'phone',
  'notes',
  'marketing_consent',
  'marketing_consent_at',
  'bookings',
  'no_shows',
  'created_at',
  'erased_at',
] as const;

async function* customerLines(
  db: Executor,
  tenantId: string,
  command: ListCustomersCommand,
  first: CustomerRow[],
): AsyncGenerator<string> {
  yield csvLine(CUSTOMERS_CSV_HEADER);
  let page = first;
  for (;;) {
    const stats = new Map(
      (
        await repo.statsOfCustomers(
          db,
          page.map((c) => c.id),
        )
      ).map((s) => [s.customer_id, s]),
    );
    yield page
      .map((c) =>
        csvLine([
          c.id,
          c.name,
          c.email,
          c.phone,
          c.notes,
          c.marketing_consent ? 'yes' : 'no',
          c.marketing_consent_at?.toISOString(),
          stats.get(c.id)?.bookings ?? 0,
          stats.get(c.id)?.no_shows ?? 0,
          c.created_at.toISOString(),
          c.erased_at?.toISOString(),
        ]),
      )
      .join('');
    const last = page.at(-1);
    if (!last || page.length < EXPORT_PAGE) return;
    const key: repo.CustomerKey = command.search
      ? { by: 'name', name: last.name.toLowerCase(), id: last.id }
      : { by: 'created', createdAt: last.created_at, id: last.id };
    page = await repo.listCustomers(db, tenantId, { search: command.search }, EXPORT_PAGE, key);
  }
}

const TENANT_PARAM = { tenantId: { type: 'string', format: 'uuid', description: 'The key’s own tenant.' } };

const CSV_DOC: RouteDoc = {
  operationId: 'exportCustomers',
  summary: 'Export the customers as CSV',
  description:
    'Every customer (newest first; with search, those whose name, email or phone starts with it, by name) as RFC 4180 CSV with a header row. Text starting with = + - @ (a spreadsheet formula) is prefixed with an apostrophe. Streamed: the rows are read a page at a time.',
  tags: ['customers'],
  params: { type: 'object', properties: TENANT_PARAM, required: ['tenantId'] },
  querystring: {
    type: 'object',
    properties: { search: { type: 'string', description: 'A prefix of the name, email or phone.' } },
  },
  responses: {
    200: {
      description: 'The CSV (text/csv; charset=utf-8), as a download.',
      contentType: 'text/csv',
      schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' },
      example: `${CUSTOMERS_CSV_HEADER.join(',')}\r\n…`,
    },
  },
};

const DATA_DOC: RouteDoc = {
  operationId: 'downloadCustomerData',
  summary: 'Download one customer’s data (GDPR) as JSON',
  description:
    'The document exportCustomerData returns (the customer, their bookings, payments, notifications and the audit entries about them), as a download; audited as customer.data_exported.',
  tags: ['customers'],
  params: {
    type: 'object',
    properties: { ...TENANT_PARAM, id: { type: 'string', format: 'uuid', description: 'The customer.' } },
    required: ['tenantId', 'id'],
  },
  responses: {
    200: {
      description: 'The customer’s data (application/json), as a download.',
      contentType: 'application/json',
      schema: { type: 'object', description: 'customer, bookings, payments, notifications, auditEntries.' },
    },
  },
};

export function registerCustomerExports(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { tenantId: string }; Querystring: Record<string, unknown> }>(
    CUSTOMERS_EXPORT_PATH,
    { config: { auth: 'apiKey', sessionCookie: true, scope: 'customers:read', openapi: CSV_DOC } },
    async (req, reply) => {
      requireScope(req.principal, 'customers:read');
      const tenantId = tenantOf(req.principal, req.params.tenantId);
      const command = parseListCustomers({ search: req.query.search });
      const db = deps.database.db;
      const first = await repo.listCustomers(db, tenantId, { search: command.search }, EXPORT_PAGE);
      const stream = Readable.from(customerLines(db, tenantId, command, first));
      stream.on('error', (err) => req.log.error({ err }, 'customers export failed mid-stream'));
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', attachment('customers.csv'))
        .type('text/csv; charset=utf-8')
        .send(stream);
    },
  );
  app.get<{ Params: { tenantId: string; id: string } }>(
    CUSTOMER_DATA_PATH,
    { config: { auth: 'apiKey', sessionCookie: true, scope: 'customers:read', openapi: DATA_DOC } },
    async (req, reply) => {
      requireScope(req.principal, 'customers:read');
      const tenantId = tenantOf(req.principal, req.params.tenantId);
      const { id } = parseCustomerId({ id: req.params.id });
      const data = await deps.database.db.transaction().execute(async (trx) => {
        const found = await exportCustomerData(trx, tenantId, id, deps.now());
        await recordAudit(trx, {
          tenantId,
          actor: await actorOf(trx, req.principal ?? null),
          action: 'customer.data_exported',
          target: { type: 'customer', id: found.customer.id },
          details: { bookings: found.bookings.length },
          ip: req.ip,
          at: deps.now(),
        });
        return found;
      });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', attachment(`customer-${data.customer.id}.json`))
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(data, null, 2));
    },
  );
}
