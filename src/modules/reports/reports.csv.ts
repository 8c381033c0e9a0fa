import type { CsvCell } from '../../kernel/csv.js';
import type { CashUpReport, NoShowReport, OccupancyReport, PaymentsReport, RevenueReport } from './reports.service.js';

// Each report as CSV rows (docs/reports.md, "CSV"): the same numbers as the GraphQL answer, amounts
// as decimals of the currency (cents / 100), ratios as given (0–1, 4 decimals).

export interface CsvTable {
  header: readonly string[];
  rows: CsvCell[][];
}

/** Each CSV's header row, by the name of its route (…/reports/{name}.csv). */
export const REPORT_CSV_HEADERS = {
  occupancy: ['object_id', 'object', 'weekday', 'hour', 'booked_minutes', 'open_minutes', 'occupancy', 'time_zone'],
  revenue: ['period', 'period_start', 'currency', 'bookings', 'revenue'],
  'revenue-by-object': ['object_id', 'object', 'currency', 'bookings', 'revenue'],
  payments: ['period', 'period_start', 'currency', 'payments', 'payment_count', 'refunds', 'refund_count', 'net'],
  'cash-up': [
    'date',
    'currency',
    'online',
    'online_count',
    'at_venue',
    'at_venue_count',
    'refunds_online',
    'refunds_at_venue',
    'refund_count',
    'net',
    'cash_in_hand',
  ],
  'no-shows': ['object_id', 'object', 'bookings', 'no_shows', 'rate'],
} as const satisfies Record<string, readonly string[]>;

const decimal = (cents: number): number => cents / 100;

export function occupancyCsv(report: OccupancyReport): CsvTable {
  const names = new Map(report.objects.map((o) => [o.objectId, o.objectName]));
  return {
    header: REPORT_CSV_HEADERS['occupancy'],
    rows: report.cells.map((c) => [
      c.objectId,
      names.get(c.objectId) ?? '',
      c.weekday,
      c.hour,
      c.bookedMinutes,
      c.openMinutes,
      c.occupancy,
      report.range.timeZone,
    ]),
  };
}

export function revenueCsv(report: RevenueReport): CsvTable {
  return {
    header: REPORT_CSV_HEADERS['revenue'],
    rows: report.rows.map((r) => [report.period, r.periodStart, r.currency, r.bookings, decimal(r.revenue)]),
  };
}

export function revenueByObjectCsv(report: RevenueReport): CsvTable {
  return {
    header: REPORT_CSV_HEADERS['revenue-by-object'],
    rows: report.byObject.map((r) => [r.objectId, r.objectName, r.currency, r.bookings, decimal(r.revenue)]),
  };
}

export function paymentsCsv(report: PaymentsReport): CsvTable {
  return {
    header: REPORT_CSV_HEADERS['payments'],
    rows: report.rows.map((r) => [
      report.period,
      r.periodStart,
      r.currency,
      decimal(r.payments),
      r.paymentCount,
      decimal(r.refunds),
      r.refundCount,
      decimal(r.net),
    ]),
  };
}

export function cashUpCsv(report: CashUpReport): CsvTable {
  return {
    header: REPORT_CSV_HEADERS['cash-up'],
    rows: report.lines.map((l) => [
      report.date,
      l.currency,
      decimal(l.online),
      l.onlineCount,
      decimal(l.atVenue),
      l.atVenueCount,
      decimal(l.refundsOnline),
      decimal(l.refundsAtVenue),
      l.refundCount,
      decimal(l.net),
      decimal(l.cashInHand),
    ]),
  };
}

export function noShowsCsv(report: NoShowReport): CsvTable {
  return {
    header: REPORT_CSV_HEADERS['no-shows'],
    rows: [
      ...report.byObject.map((r) => [r.objectId, r.objectName, r.bookings, r.noShows, r.rate]),
      ['', 'All objects', report.bookings, report.noShows, report.rate],
    ],
  };
}
