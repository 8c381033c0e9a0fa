import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { AppDeps } from '../../kernel/deps.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { requireScope, tenantOf } from '../../kernel/auth/principal.js';
import type { Executor } from '../../kernel/db/index.js';
import type { AccommodationRow, BookingView, ObjectRow } from '../../kernel/db/types.js';
import { attachment, csvLine } from '../../kernel/csv.js';
import { parseListBookings } from './bookings.commands.js';
import * as repo from './bookings.repository.js';

// GET /api/v1/tenants/:tenantId/bookings/export.csv — the filtered bookings listing as CSV
// (docs/dashboard-ui.md#find-and-export): the same filters as GET …/bookings, every matching booking
// in listing order (start time, then id), read a page at a time by keyset and written as it is
// read, so memory stays flat however many bookings match.

export const BOOKINGS_EXPORT_PATH = '/api/v1/tenants/:tenantId/bookings/export.csv';

/** Rows read per statement while streaming. */
const EXPORT_PAGE = 500;

export const BOOKINGS_CSV_HEADER = [
  'id',
  'guest_name',
  'guest_email',
  'guest_phone',
  'object',
  'accommodation',
  'time_zone',
  'start_local',
  'end_local',
  'start_time',
  'end_time',
  'status',
  'total_price',
  'currency',
  'refund_amount',
  'created_at',
  // Appended, so a reader that takes the columns by position still finds the older ones in place.
  'payment_status',
  'amount_paid',
  'amount_refunded',
  'reference',
  'no_show_at',
  'cancellation_reason_code',
  'cancellation_reason',
] as const;

const CSV = 'text/csv';
const local = (at: Date, zone: string | undefined) =>
  zone ? DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm") : '';
const decimal = (cents: number | null) => (cents === null ? null : cents / 100);

function recordOf(b: BookingView, objects: Map<string, ObjectRow>, accommodations: Map<string, AccommodationRow>) {
  const object = objects.get(b.object_id);
  const accommodation = object ? accommodations.get(object.accommodation_id) : undefined;
  const zone = accommodation?.time_zone;
  return csvLine([
    b.id,
    b.guest_name,
    b.guest_email,
    b.guest_phone,
    object?.name,
    accommodation?.name,
    zone,
    local(b.start_time, zone),
    local(b.end_time, zone),
    b.start_time.toISOString(),
    b.end_time.toISOString(),
    b.status,
    decimal(b.total_price),
    b.currency,
    decimal(b.refund_amount),
    b.created_at.toISOString(),
    b.payment_status,
    decimal(b.amount_paid),
    decimal(b.amount_refunded),
    b.reference,
    b.no_show_at?.toISOString(),
    b.cancellation_reason_code,
    b.cancellation_reason,
  ]);
}

/** The CSV's lines: the header, then every matching booking, one keyset page per statement. */
async function* bookingLines(
  db: Executor,
  tenantId: string,
  filters: repo.BookingFilters,
  first: repo.BookingListPage,
): AsyncGenerator<string> {
  yield csvLine(BOOKINGS_CSV_HEADER);
  const objects = new Map<string, ObjectRow>();
  const accommodations = new Map<string, AccommodationRow>();
  let page = first;
  for (;;) {
    for (const o of page.objects) objects.set(o.id, o);
    for (const a of page.accommodations) accommodations.set(a.id, a);
    yield page.rows.map((b) => recordOf(b, objects, accommodations)).join('');
    const last = page.rows.at(-1);
    if (!last || page.rows.length < EXPORT_PAGE) return;
    page = await repo.listBookings(
      db,
      tenantId,
      filters,
      EXPORT_PAGE,
      0,
      false,
      {},
      { startTime: last.start_time, id: last.id },
    );
  }
}

const FILTER_DOC = (description: string, format?: string) => ({
  type: 'string',
  description,
  ...(format ? { format } : {}),
});

const EXPORT_DOC: RouteDoc = {
  operationId: 'exportBookings',
  summary: 'Export the filtered bookings as CSV',
  description:
    'Every booking matching the filters (those of GET /tenants/{tenantId}/bookings), by start time then id, as RFC 4180 CSV with a header row. Local times are in each accommodation’s zone (the time_zone column); amounts (total_price, refund_amount, amount_paid, amount_refunded) are decimals in the currency column’s unit; payment_status is UNPAID, PAID, PARTIALLY_REFUNDED or REFUNDED; reference is the booking’s short reference (PRT-7KQ2M); no_show_at is when it was marked a no-show, cancellation_reason_code and cancellation_reason why it was cancelled (docs/bookings.md). Text starting with = + - @ (a spreadsheet formula) is prefixed with an apostrophe. Streamed: the rows are read a page at a time.',
  tags: ['bookings'],
  params: {
    type: 'object',
    properties: { tenantId: { type: 'string', format: 'uuid', description: 'The key’s own tenant.' } },
    required: ['tenantId'],
  },
  querystring: {
    type: 'object',
    properties: {
      status: FILTER_DOC('PENDING, CONFIRMED, CANCELLED or COMPLETED.'),
      objectId: FILTER_DOC('Only bookings of this object.', 'uuid'),
      from: FILTER_DOC(
        'Bookings starting at or after this instant (ISO 8601 with offset, or YYYY-MM-DD: midnight UTC).',
      ),
      to: FILTER_DOC('Bookings starting before this instant (as from).'),
      guestEmail: FILTER_DOC('Exact guest email, case-insensitive.'),
      search: FILTER_DOC('Part of the guest’s name or email, case-insensitive.'),
    },
  },
  responses: {
    200: {
      description: 'The CSV (text/csv; charset=utf-8), as a download.',
      contentType: CSV,
      schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' },
      example: `${BOOKINGS_CSV_HEADER.join(',')}\r\n…`,
    },
  },
};

export function registerBookingsExport(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { tenantId: string }; Querystring: Record<string, unknown> }>(
    BOOKINGS_EXPORT_PATH,
    { config: { auth: 'apiKey', sessionCookie: true, scope: 'bookings:read', openapi: EXPORT_DOC } },
    async (req, reply) => {
      requireScope(req.principal, 'bookings:read');
      const tenantId = tenantOf(req.principal, req.params.tenantId);
      const q = req.query;
      const command = parseListBookings({
        status: q.status,
        objectId: q.objectId,
        from: q.from,
        to: q.to,
        guestEmail: q.guestEmail,
        search: q.search,
      });
      const filters: repo.BookingFilters = {
        status: command.status,
        objectId: command.objectId,
        from: command.from,
        to: command.to,
        guestEmail: command.guestEmail,
        search: command.search,
      };
      const db = deps.database.db;
      // The first page is read before the answer starts, so a failing database still gets a problem answer.
      const first = await repo.listBookings(db, tenantId, filters, EXPORT_PAGE, 0, false, {});
      const stream = Readable.from(bookingLines(db, tenantId, filters, first));
      stream.on('error', (err) => req.log.error({ err }, 'bookings export failed mid-stream'));
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', attachment('bookings.csv'))
        .type('text/csv; charset=utf-8')
        .send(stream);
    },
  );
}
