import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { requireScope, tenantOf } from '../../kernel/auth/principal.js';
import { attachment, csvLine } from '../../kernel/csv.js';
import * as reports from './reports.service.js';
import {
  cashUpCsv,
  noShowsCsv,
  occupancyCsv,
  paymentsCsv,
  revenueByObjectCsv,
  revenueCsv,
  REPORT_CSV_HEADERS,
  type CsvTable,
} from './reports.csv.js';

// GET /api/v1/tenants/:tenantId/reports/<report>.csv — each report as CSV with a header row (the
// dashboard's "Download CSV"; docs/reports.md). The query takes the GraphQL field's arguments:
// from, to (or date), period, timeZone, objectIds (repeated, or comma-separated).

export const REPORTS_CSV_PATH = '/api/v1/tenants/:tenantId/reports/';

type Query = Record<string, unknown>;

/** objectIds as given in a query string: repeated, or one comma-separated value. */
function objectIdsOf(value: unknown): unknown {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value.split(',').filter(Boolean);
  return value;
}

const rangeOf = (q: Query) => ({
  from: q.from,
  to: q.to,
  timeZone: q.timeZone === '' ? undefined : q.timeZone,
  objectIds: objectIdsOf(q.objectIds),
});

interface CsvReport {
  name: keyof typeof REPORT_CSV_HEADERS;
  summary: string;
  table: (deps: AppDeps, tenantId: string, q: Query) => Promise<CsvTable>;
}

const CSV_REPORTS: CsvReport[] = [
  {
    name: 'occupancy',
    summary: 'Occupancy by object and local hour of the week, as CSV',
    table: async (deps, t, q) => occupancyCsv(await reports.occupancyReport(deps.database.db, t, rangeOf(q))),
  },
  {
    name: 'revenue',
    summary: 'Booked revenue per period and currency, as CSV',
    table: async (deps, t, q) =>
      revenueCsv(await reports.revenueReport(deps.database.db, t, { ...rangeOf(q), period: q.period })),
  },
  {
    name: 'revenue-by-object',
    summary: 'Booked revenue per object and currency, as CSV',
    table: async (deps, t, q) => revenueByObjectCsv(await reports.revenueReport(deps.database.db, t, rangeOf(q))),
  },
  {
    name: 'payments',
    summary: 'Payments and refunds per period and currency, as CSV',
    table: async (deps, t, q) =>
      paymentsCsv(await reports.paymentsReport(deps.database.db, t, { ...rangeOf(q), period: q.period })),
  },
  {
    name: 'cash-up',
    summary: 'The cash-up of one local day, as CSV',
    table: async (deps, t, q) => {
      const { timeZone, objectIds } = rangeOf(q);
      return cashUpCsv(await reports.cashUpReport(deps.database.db, t, { date: q.date, timeZone, objectIds }));
    },
  },
  {
    name: 'no-shows',
    summary: 'The no-show rate per object, as CSV',
    table: async (deps, t, q) => noShowsCsv(await reports.noShowReport(deps.database.db, t, rangeOf(q), deps.now())),
  },
];

const text = (description: string, format?: string) => ({ type: 'string', description, ...(format ? { format } : {}) });

function docOf(report: CsvReport): RouteDoc {
  const dates =
    report.name === 'cash-up'
      ? { date: text('The local date (YYYY-MM-DD).', 'date') }
      : {
          from: text('The first local date (YYYY-MM-DD).', 'date'),
          to: text('The last local date, included (YYYY-MM-DD); at most 366 days in all.', 'date'),
        };
  const period =
    report.name === 'revenue' || report.name === 'payments' ? { period: text('DAY (default), WEEK or MONTH.') } : {};
  return {
    operationId: `export${report.name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Report`,
    summary: report.summary,
    description:
      'The report of the GraphQL field of the same name (docs/reports.md) as RFC 4180 CSV with a header row; amounts are decimals in the currency column’s unit, ratios 0–1.',
    tags: ['reports'],
    params: {
      type: 'object',
      properties: { tenantId: { type: 'string', format: 'uuid', description: 'The key’s own tenant.' } },
      required: ['tenantId'],
    },
    querystring: {
      type: 'object',
      properties: {
        ...dates,
        ...period,
        timeZone: text('An IANA time zone; left out: the tenant’s (its first accommodation’s).'),
        objectIds: text('Only these objects: comma-separated UUIDs, or the parameter repeated.'),
      },
      required: Object.keys(dates),
    },
    responses: {
      200: {
        description: 'The CSV (text/csv; charset=utf-8), as a download.',
        contentType: 'text/csv',
        schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' },
        example: `${REPORT_CSV_HEADERS[report.name].join(',')}\r\n…`,
      },
    },
  };
}

export function registerReportsCsv(app: FastifyInstance, deps: AppDeps): void {
  for (const report of CSV_REPORTS) {
    app.get<{ Params: { tenantId: string }; Querystring: Query }>(
      `${REPORTS_CSV_PATH}${report.name}.csv`,
      { config: { auth: 'apiKey', sessionCookie: true, scope: 'bookings:read', openapi: docOf(report) } },
      async (req, reply) => {
        requireScope(req.principal, 'bookings:read');
        const tenantId = tenantOf(req.principal, req.params.tenantId);
        const table = await report.table(deps, tenantId, req.query);
        const body = csvLine(table.header) + table.rows.map((row) => csvLine(row)).join('');
        return reply
          .header('Cache-Control', 'no-store')
          .header('Content-Disposition', attachment(`${report.name}.csv`))
          .type('text/csv; charset=utf-8')
          .send(body);
      },
    );
  }
}
