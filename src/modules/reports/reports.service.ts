import type { Executor } from '../../kernel/db/index.js';
import { invalid } from '../../kernel/errors.js';
import * as repo from './reports.repository.js';
import {
  isPeriod,
  ratio,
  reportRangeOf,
  type RangeInput,
  type ReportPeriod,
  type ReportRange,
} from './reports.rules.js';

// The reports (docs/reports.md): each one the tenant's aggregates over a range of local dates,
// assembled from the SQL of reports.repository.ts. Tenant isolation: every statement is bound to
// the tenant, and object filters naming another tenant's object are refused as unknown.

/** The zone a tenant without accommodations reports in. */
const FALLBACK_ZONE = 'UTC';

const int = (value: string | number | null | undefined): number => Math.round(Number(value ?? 0));

/** A report's range, checked: the input's rules, and every filtered object one of the tenant's. */
export async function resolveRange(db: Executor, tenantId: string, input: RangeInput): Promise<ReportRange> {
  const zone = (await repo.tenantZone(db, tenantId)) ?? FALLBACK_ZONE;
  const range = reportRangeOf(input, zone);
  if (Array.isArray(range)) throw invalid(range);
  if (range.objectIds.length) {
    const known = new Set((await repo.reportObjects(db, tenantId, range.objectIds)).map((o) => o.id));
    const unknown = range.objectIds.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw invalid([{ field: `objectIds[${unknown}]`, message: 'is not an object of this tenant' }]);
  }
  return range;
}

const periodOf = (value: unknown): ReportPeriod => {
  if (value === undefined || value === null) return 'DAY';
  if (!isPeriod(value)) throw invalid([{ field: 'period', message: 'must be one of DAY, WEEK, MONTH' }]);
  return value;
};

const rangeView = (range: ReportRange) => ({
  from: range.from,
  to: range.to,
  timeZone: range.timeZone,
  objectIds: range.objectIds,
});

export async function occupancyReport(db: Executor, tenantId: string, input: RangeInput) {
  const range = await resolveRange(db, tenantId, input);
  const [objects, booked, open] = await Promise.all([
    repo.reportObjects(db, tenantId, range.objectIds),
    repo.bookedMinutes(db, tenantId, range),
    repo.openMinutes(db, tenantId, range),
  ]);
  const cells = new Map<string, { objectId: string; weekday: number; hour: number; booked: number; open: number }>();
  const cellOf = (c: repo.MinutesCell) => {
    const key = `${c.object_id}|${c.weekday}|${c.hour}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { objectId: c.object_id, weekday: c.weekday, hour: c.hour, booked: 0, open: 0 };
      cells.set(key, cell);
    }
    return cell;
  };
  for (const c of booked) cellOf(c).booked += Number(c.minutes);
  for (const c of open) cellOf(c).open += Number(c.minutes);
  const order = new Map(objects.map((o, i) => [o.id, i]));
  const sorted = [...cells.values()].sort(
    (a, b) => (order.get(a.objectId) ?? 0) - (order.get(b.objectId) ?? 0) || a.weekday - b.weekday || a.hour - b.hour,
  );
  const perObject = new Map<string, { booked: number; open: number }>();
  for (const c of sorted) {
    const sum = perObject.get(c.objectId) ?? { booked: 0, open: 0 };
    sum.booked += c.booked;
    sum.open += c.open;
    perObject.set(c.objectId, sum);
  }
  return {
    range: rangeView(range),
    cells: sorted.map((c) => ({
      objectId: c.objectId,
      weekday: c.weekday,
      hour: c.hour,
      bookedMinutes: Math.round(c.booked),
      openMinutes: Math.round(c.open),
      occupancy: ratio(c.booked, c.open),
    })),
    objects: objects.map((o) => {
      const sum = perObject.get(o.id) ?? { booked: 0, open: 0 };
      return {
        objectId: o.id,
        objectName: o.name,
        bookedMinutes: Math.round(sum.booked),
        openMinutes: Math.round(sum.open),
        occupancy: ratio(sum.booked, sum.open),
      };
    }),
  };
}

export async function revenueReport(db: Executor, tenantId: string, input: RangeInput & { period?: unknown }) {
  const period = periodOf(input.period);
  const range = await resolveRange(db, tenantId, input);
  const [rows, byObject] = await Promise.all([
    repo.revenueByPeriod(db, tenantId, range, period),
    repo.revenueByObject(db, tenantId, range),
  ]);
  const totals = new Map<string, { currency: string; bookings: number; revenue: number }>();
  for (const r of rows) {
    const total = totals.get(r.currency) ?? { currency: r.currency, bookings: 0, revenue: 0 };
    total.bookings += int(r.bookings);
    total.revenue += int(r.revenue);
    totals.set(r.currency, total);
  }
  return {
    range: rangeView(range),
    period,
    rows: rows.map((r) => ({
      periodStart: r.period_start,
      currency: r.currency,
      bookings: int(r.bookings),
      revenue: int(r.revenue),
    })),
    byObject: byObject.map((r) => ({
      objectId: r.object_id,
      objectName: r.object_name,
      currency: r.currency,
      bookings: int(r.bookings),
      revenue: int(r.revenue),
    })),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

const ledgerLine = (r: repo.LedgerRowSql) => ({
  currency: r.currency,
  payments: int(r.payments),
  paymentCount: int(r.payment_count),
  refunds: int(r.refunds),
  refundCount: int(r.refund_count),
  net: int(r.payments) - int(r.refunds),
});

export async function paymentsReport(db: Executor, tenantId: string, input: RangeInput & { period?: unknown }) {
  const period = periodOf(input.period);
  const range = await resolveRange(db, tenantId, input);
  const rows = await repo.ledgerByPeriod(db, tenantId, range, period);
  const totals = new Map<string, ReturnType<typeof ledgerLine>>();
  for (const r of rows) {
    const line = ledgerLine(r);
    const total = totals.get(r.currency);
    totals.set(
      r.currency,
      total
        ? {
            currency: r.currency,
            payments: total.payments + line.payments,
            paymentCount: total.paymentCount + line.paymentCount,
            refunds: total.refunds + line.refunds,
            refundCount: total.refundCount + line.refundCount,
            net: total.net + line.net,
          }
        : line,
    );
  }
  return {
    range: rangeView(range),
    period,
    rows: rows.map((r) => ({ periodStart: r.period_start, ...ledgerLine(r) })),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

export async function cashUpReport(
  db: Executor,
  tenantId: string,
  input: { date: unknown; objectIds?: unknown; timeZone?: unknown },
) {
  const range = await resolveRange(db, tenantId, { ...input, from: input.date, to: input.date });
  // One local day is one DAY period: one row per currency.
  const rows = await repo.ledgerByPeriod(db, tenantId, range, 'DAY');
  return {
    date: range.from,
    timeZone: range.timeZone,
    objectIds: range.objectIds,
    lines: rows.map(cashUpLine),
  };
}

function cashUpLine(r: repo.LedgerRowSql) {
  const refundsOnline = int(r.refunds_online);
  const refundsAtVenue = int(r.refunds_at_venue);
  return {
    currency: r.currency,
    online: int(r.online),
    onlineCount: int(r.online_count),
    atVenue: int(r.at_venue),
    atVenueCount: int(r.at_venue_count),
    refundsOnline,
    refundsAtVenue,
    refundCount: int(r.refund_count),
    net: int(r.online) + int(r.at_venue) - refundsOnline - refundsAtVenue,
    cashInHand: int(r.at_venue) - refundsAtVenue,
  };
}

export async function noShowReport(db: Executor, tenantId: string, input: RangeInput, now: Date) {
  const range = await resolveRange(db, tenantId, input);
  const rows = await repo.noShowsByObject(db, tenantId, range, now);
  const byObject = rows
    .map((r) => ({
      objectId: r.object_id,
      objectName: r.object_name,
      bookings: int(r.bookings),
      noShows: int(r.no_shows),
      rate: ratio(int(r.no_shows), int(r.bookings)),
    }))
    .sort(
      (a, b) =>
        (b.rate ?? 0) - (a.rate ?? 0) ||
        a.objectName.localeCompare(b.objectName) ||
        a.objectId.localeCompare(b.objectId),
    );
  const bookings = byObject.reduce((n, r) => n + r.bookings, 0);
  const noShows = byObject.reduce((n, r) => n + r.noShows, 0);
  return { range: rangeView(range), byObject, bookings, noShows, rate: ratio(noShows, bookings) };
}

export type OccupancyReport = Awaited<ReturnType<typeof occupancyReport>>;
export type RevenueReport = Awaited<ReturnType<typeof revenueReport>>;
export type PaymentsReport = Awaited<ReturnType<typeof paymentsReport>>;
export type CashUpReport = Awaited<ReturnType<typeof cashUpReport>>;
export type NoShowReport = Awaited<ReturnType<typeof noShowReport>>;
