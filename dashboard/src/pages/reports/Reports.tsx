import { useState, type ReactNode, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from 'recharts';
import { graphql } from '../../gql';
import type { ReportPeriod } from '../../gql/graphql';
import { useGraphQL } from '../../api/hooks';
import { ExportCsvButton } from '../../components/ExportCsv';
import {
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SelectField,
  Stat,
  TableWrap,
} from '../../components/ui';
import { money } from '../../format';
import { formText } from '../../form-data';
import {
  SHORT_WEEKDAYS,
  WEEKDAYS,
  defaultRange,
  heatCells,
  heatColour,
  hoursOf,
  percent,
  periodLabel,
  type HeatCell,
} from './report-data';

// The Reports page (docs/reports.md): occupancy as a heat map, revenue, payments and refunds, the
// cash-up of a day and the no-show rate, each drawn with recharts (SVG, no network) and each with
// the table of its numbers behind it (a disclosure under the chart) and its CSV.

const ReportObjectsQuery = graphql(`
  query DashboardReportObjects {
    bookableObjects {
      id
      name
      accommodation {
        id
        timeZone
      }
    }
  }
`);

const ReportsQuery = graphql(`
  query DashboardReports(
    $from: LocalDate!
    $to: LocalDate!
    $period: ReportPeriod
    $objectIds: [ID!]
    $timeZone: String
    $cashUpDate: LocalDate!
  ) {
    occupancyReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {
      cells {
        objectId
        weekday
        hour
        bookedMinutes
        openMinutes
      }
      objects {
        objectId
        objectName
        bookedMinutes
        openMinutes
        occupancy
      }
    }
    revenueReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {
      rows {
        periodStart
        currency
        bookings
        revenue
      }
      byObject {
        objectId
        objectName
        currency
        bookings
        revenue
      }
      totals {
        currency
        bookings
        revenue
      }
    }
    paymentsReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {
      rows {
        periodStart
        currency
        payments
        paymentCount
        refunds
        refundCount
        net
      }
      totals {
        currency
        payments
        refunds
        net
      }
    }
    cashUpReport(date: $cashUpDate, objectIds: $objectIds, timeZone: $timeZone) {
      date
      lines {
        currency
        online
        onlineCount
        atVenue
        atVenueCount
        refundsOnline
        refundsAtVenue
        refundCount
        net
        cashInHand
      }
    }
    noShowReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {
      byObject {
        objectId
        objectName
        bookings
        noShows
        rate
      }
      bookings
      noShows
      rate
    }
  }
`);

const PERIODS: { value: ReportPeriod; label: string }[] = [
  { value: 'DAY', label: 'Day' },
  { value: 'WEEK', label: 'Week' },
  { value: 'MONTH', label: 'Month' },
];

const CHART = { primary: '#1d4ed8', secondary: '#067647', danger: '#b42318', grid: '#e2e5ea', text: '#5b6474' };

/** A chart (an image to assistive technology, named by its summary) and the table of its numbers under it. */
const TICK = { fill: CHART.text, fontSize: 12 };
/** An axis label of an amount: whole units without their cents. */
const moneyTick = (cents: number, currency: string) => money(cents, currency).replace(/\.00$/, '');

/** Bars per period (day, week or month) of amounts in cents, with a legend when there are several. */
function PeriodBars({
  rows,
  bars,
  currency,
  period,
}: {
  rows: { periodStart: string }[];
  bars: { key: string; name: string; fill: string }[];
  currency: string;
  period: ReportPeriod;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} accessibilityLayer={false}>
        <CartesianGrid stroke={CHART.grid} vertical={false} />
        <XAxis dataKey="periodStart" tick={TICK} stroke={CHART.grid} minTickGap={12} />
        <YAxis tickFormatter={(c: number) => moneyTick(c, currency)} tick={TICK} stroke={CHART.grid} width={72} />
        <Tooltip
          formatter={(c) => money(Number(c), currency)}
          labelFormatter={(d) => (typeof d === 'string' ? periodLabel(d, period) : '')}
        />
        {bars.length > 1 ? <Legend /> : null}
        {bars.map((bar) => (
          <Bar key={bar.key} dataKey={bar.key} name={bar.name} fill={bar.fill} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

function ChartWithTable({
  summary,
  tableTitle,
  chart,
  table,
  height = 260,
}: {
  summary: string;
  tableTitle: string;
  chart: ReactNode;
  table: ReactNode;
  height?: number;
}) {
  return (
    <div className="report-chart">
      <div className="chart-box" role="img" aria-label={summary} style={{ height }}>
        {chart}
      </div>
      <details className="chart-table">
        <summary>Table: {tableTitle}</summary>
        {table}
      </details>
    </div>
  );
}

function OccupancyHeatMap({ cells, zone }: { cells: HeatCell[]; zone: string }) {
  const [width, setWidth] = useState(0);
  const open = cells.filter((c) => c.openMinutes > 0 || c.bookedMinutes > 0);
  if (open.length === 0) return <Empty>Nothing was open or booked in this range.</Empty>;
  const first = Math.min(...open.map((c) => c.hour));
  const last = Math.max(...open.map((c) => c.hour));
  const hours = last - first + 1;
  const margin = { top: 8, right: 12, bottom: 24, left: 8 };
  const yAxisWidth = 40;
  const rowHeight = 30;
  const cellWidth = Math.max(4, (width - margin.left - margin.right - yAxisWidth) / hours - 2);
  const data = open.map((c) => ({ ...c, row: 8 - c.weekday }));
  const busiest = [...open].sort((a, b) => (b.occupancy ?? 0) - (a.occupancy ?? 0))[0];
  return (
    <ChartWithTable
      summary={`Occupancy heat map by weekday and hour (${zone}); busiest: ${busiest ? `${WEEKDAYS[busiest.weekday - 1] ?? ''} ${busiest.hour}:00, ${percent(busiest.occupancy)}` : 'none'}.`}
      tableTitle="occupancy by weekday and hour"
      height={rowHeight * 7 + margin.top + margin.bottom + 8}
      chart={
        <ResponsiveContainer width="100%" height="100%" onResize={(w) => setWidth(w)}>
          <ScatterChart margin={margin} accessibilityLayer={false}>
            <XAxis
              type="number"
              dataKey="hour"
              domain={[first - 0.5, last + 0.5]}
              ticks={Array.from({ length: hours }, (_, i) => first + i).filter((h) => hours <= 12 || h % 2 === 0)}
              tickFormatter={(h: number) => String(h)}
              tick={TICK}
              stroke={CHART.grid}
            />
            <YAxis
              type="number"
              dataKey="row"
              domain={[0.5, 7.5]}
              ticks={[7, 6, 5, 4, 3, 2, 1]}
              tickFormatter={(row: number) => SHORT_WEEKDAYS[7 - row] ?? ''}
              width={yAxisWidth}
              tick={TICK}
              stroke={CHART.grid}
            />
            <ZAxis range={[1, 1]} />
            <Tooltip
              cursor={false}
              formatter={(_value, _name, item) => {
                const cell = (item as { payload?: HeatCell }).payload;
                return cell ? [percent(cell.occupancy), `${WEEKDAYS[cell.weekday - 1] ?? ''} ${cell.hour}:00`] : '';
              }}
            />
            <Scatter
              data={data}
              isAnimationActive={false}
              shape={(props: { cx?: number; cy?: number; payload?: HeatCell }) => (
                <rect
                  x={(props.cx ?? 0) - cellWidth / 2}
                  y={(props.cy ?? 0) - (rowHeight - 4) / 2}
                  width={cellWidth}
                  height={rowHeight - 4}
                  rx={3}
                  fill={heatColour(props.payload?.occupancy ?? null)}
                />
              )}
            />
          </ScatterChart>
        </ResponsiveContainer>
      }
      table={
        <TableWrap label="Occupancy by weekday and hour">
          <thead>
            <tr>
              <th scope="col">Weekday</th>
              <th scope="col">Hour</th>
              <th scope="col" className="numeric">
                Booked
              </th>
              <th scope="col" className="numeric">
                Open
              </th>
              <th scope="col" className="numeric">
                Occupancy
              </th>
            </tr>
          </thead>
          <tbody>
            {open.map((c) => (
              <tr key={`${c.weekday}-${c.hour}`} data-weekday={c.weekday} data-hour={c.hour}>
                <td>{WEEKDAYS[c.weekday - 1]}</td>
                <td>{`${String(c.hour).padStart(2, '0')}:00`}</td>
                <td className="numeric" data-minutes={c.bookedMinutes}>
                  {hoursOf(c.bookedMinutes)}
                </td>
                <td className="numeric" data-minutes={c.openMinutes}>
                  {hoursOf(c.openMinutes)}
                </td>
                <td className="numeric">{percent(c.occupancy)}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      }
    />
  );
}

export function ReportsPage() {
  const objects = useGraphQL(['objects', 'reports'], ReportObjectsQuery, {});
  const [params, setParams] = useSearchParams();
  const zone = objects.data?.bookableObjects[0]?.accommodation.timeZone ?? 'UTC';
  const fallback = defaultRange(zone);
  const from = params.get('from') || fallback.from;
  const to = params.get('to') || fallback.to;
  const period = (params.get('period') || 'DAY') as ReportPeriod;
  const objectId = params.get('objectId') || '';
  const cashUpDate = params.get('day') || to;
  const variables = {
    from,
    to,
    period,
    objectIds: objectId ? [objectId] : undefined,
    cashUpDate,
  };
  const reports = useGraphQL(['reports'], ReportsQuery, variables, { enabled: objects.isFetched });
  const csvQuery = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ from, to, ...(objectId ? { objectIds: objectId } : {}), ...extra });

  const apply = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['from', 'to', 'period', 'objectId', 'day']) {
      const value = formText(form, name).trim();
      if (value) next.set(name, value);
    }
    setParams(next);
  };

  const data = reports.data;
  const heat = data ? heatCells(data.occupancyReport.cells) : [];
  const currency = data?.revenueReport.totals[0]?.currency ?? data?.paymentsReport.totals[0]?.currency ?? 'EUR';
  const cash = data?.cashUpReport.lines.find((l) => l.currency === currency) ?? data?.cashUpReport.lines[0];
  const periodName = PERIODS.find((p) => p.value === period)?.label.toLowerCase() ?? 'day';

  return (
    <>
      <PageHeader
        title="Reports"
        description={`Occupancy, revenue, payments, the cash-up and no-shows of your venue. Dates and hours are in ${zone}.`}
      />
      <Section title="Range">
        <form className="filters report-filters" onSubmit={apply} aria-label="Report range" key={params.toString()}>
          <Field label="From" name="from" type="date" required defaultValue={from} />
          <Field label="To" name="to" type="date" required hint="Included" defaultValue={to} />
          <SelectField label="Object" name="objectId" defaultValue={objectId}>
            <option value="">All objects</option>
            {objects.data?.bookableObjects.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Group by" name="period" defaultValue={period}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </SelectField>
          <Field label="Cash-up day" name="day" type="date" defaultValue={cashUpDate} />
          <div className="filter-actions">
            <button type="submit" className="button button-primary">
              Show reports
            </button>
          </div>
        </form>
      </Section>
      <ErrorNotice error={objects.error ?? reports.error} title="The reports could not be loaded" />
      {reports.isPending ? <Loading label="Adding up…" /> : null}
      {data ? (
        <>
          <div className="stats">
            <Stat label="Revenue" value={money(data.revenueReport.totals[0]?.revenue ?? 0, currency)} />
            <Stat label="Bookings" value={data.revenueReport.totals[0]?.bookings ?? 0} />
            <Stat label="Net payments" value={money(data.paymentsReport.totals[0]?.net ?? 0, currency)} />
            <Stat
              label="No-show rate"
              value={percent(data.noShowReport.rate)}
              tone={(data.noShowReport.rate ?? 0) > 0.1 ? 'warning' : undefined}
            />
          </div>
          <Section
            title="Occupancy"
            description="Booked minutes of confirmed and completed bookings over the minutes open, by weekday and hour."
            actions={
              <ExportCsvButton
                path="reports/occupancy.csv"
                query={csvQuery()}
                fileName="occupancy.csv"
                label="Export occupancy CSV"
              />
            }
          >
            <OccupancyHeatMap cells={heat} zone={zone} />
            <h3 className="report-subheading">By object</h3>
            <TableWrap label="Occupancy by object">
              <thead>
                <tr>
                  <th scope="col">Object</th>
                  <th scope="col" className="numeric">
                    Booked
                  </th>
                  <th scope="col" className="numeric">
                    Open
                  </th>
                  <th scope="col" className="numeric">
                    Occupancy
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.occupancyReport.objects.map((o) => (
                  <tr key={o.objectId}>
                    <th scope="row">{o.objectName}</th>
                    <td className="numeric">{hoursOf(o.bookedMinutes)}</td>
                    <td className="numeric">{hoursOf(o.openMinutes)}</td>
                    <td className="numeric">{percent(o.occupancy)}</td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          </Section>
          <Section
            title="Revenue"
            description={`Prices of confirmed and completed bookings (no-shows included) by start, per ${periodName}.`}
            actions={
              <>
                <ExportCsvButton
                  path="reports/revenue.csv"
                  query={csvQuery({ period })}
                  fileName="revenue.csv"
                  label="Export revenue CSV"
                />
                <ExportCsvButton
                  path="reports/revenue-by-object.csv"
                  query={csvQuery()}
                  fileName="revenue-by-object.csv"
                  label="Export revenue by object CSV"
                />
              </>
            }
          >
            {data.revenueReport.rows.length === 0 ? (
              <Empty>No booked revenue in this range.</Empty>
            ) : (
              <ChartWithTable
                summary={`Revenue per ${periodName}: ${money(data.revenueReport.totals[0]?.revenue ?? 0, currency)} in all.`}
                tableTitle={`revenue per ${periodName}`}
                chart={
                  <PeriodBars
                    rows={data.revenueReport.rows}
                    bars={[{ key: 'revenue', name: 'Revenue', fill: CHART.primary }]}
                    currency={currency}
                    period={period}
                  />
                }
                table={
                  <TableWrap label={`Revenue per ${periodName}`}>
                    <thead>
                      <tr>
                        <th scope="col">Period</th>
                        <th scope="col" className="numeric">
                          Bookings
                        </th>
                        <th scope="col" className="numeric">
                          Revenue
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.revenueReport.rows.map((r) => (
                        <tr key={`${r.periodStart}-${r.currency}`} data-period={r.periodStart}>
                          <th scope="row">{periodLabel(r.periodStart, period)}</th>
                          <td className="numeric">{r.bookings}</td>
                          <td className="numeric" data-cents={r.revenue}>
                            {money(r.revenue, r.currency)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </TableWrap>
                }
              />
            )}
            {data.revenueReport.byObject.length > 0 ? (
              <ChartWithTable
                summary={`Revenue by object; highest: ${data.revenueReport.byObject[0]?.objectName ?? ''}.`}
                tableTitle="revenue by object"
                height={Math.max(120, 36 * data.revenueReport.byObject.length + 40)}
                chart={
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={data.revenueReport.byObject} layout="vertical" accessibilityLayer={false}>
                      <CartesianGrid stroke={CHART.grid} horizontal={false} />
                      <XAxis
                        type="number"
                        tickFormatter={(c: number) => moneyTick(c, currency)}
                        tick={TICK}
                        stroke={CHART.grid}
                      />
                      <YAxis type="category" dataKey="objectName" width={110} tick={TICK} stroke={CHART.grid} />
                      <Tooltip formatter={(c) => money(Number(c), currency)} />
                      <Bar dataKey="revenue" name="Revenue" fill={CHART.primary} isAnimationActive={false} />
                    </BarChart>
                  </ResponsiveContainer>
                }
                table={
                  <TableWrap label="Revenue by object">
                    <thead>
                      <tr>
                        <th scope="col">Object</th>
                        <th scope="col" className="numeric">
                          Bookings
                        </th>
                        <th scope="col" className="numeric">
                          Revenue
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.revenueReport.byObject.map((r) => (
                        <tr key={`${r.objectId}-${r.currency}`} data-object={r.objectId}>
                          <th scope="row">{r.objectName}</th>
                          <td className="numeric">{r.bookings}</td>
                          <td className="numeric" data-cents={r.revenue}>
                            {money(r.revenue, r.currency)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </TableWrap>
                }
              />
            ) : null}
          </Section>
          <Section
            title="Payments and refunds"
            description={`Money received (online and at the venue) and given back, per ${periodName}.`}
            actions={
              <ExportCsvButton
                path="reports/payments.csv"
                query={csvQuery({ period })}
                fileName="payments.csv"
                label="Export payments CSV"
              />
            }
          >
            {data.paymentsReport.rows.length === 0 ? (
              <Empty>No payments or refunds in this range.</Empty>
            ) : (
              <ChartWithTable
                summary={`Payments and refunds per ${periodName}: net ${money(data.paymentsReport.totals[0]?.net ?? 0, currency)}.`}
                tableTitle={`payments and refunds per ${periodName}`}
                chart={
                  <PeriodBars
                    rows={data.paymentsReport.rows}
                    bars={[
                      { key: 'payments', name: 'Payments', fill: CHART.secondary },
                      { key: 'refunds', name: 'Refunds', fill: CHART.danger },
                    ]}
                    currency={currency}
                    period={period}
                  />
                }
                table={
                  <TableWrap label={`Payments and refunds per ${periodName}`}>
                    <thead>
                      <tr>
                        <th scope="col">Period</th>
                        <th scope="col" className="numeric">
                          Payments
                        </th>
                        <th scope="col" className="numeric">
                          Refunds
                        </th>
                        <th scope="col" className="numeric">
                          Net
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.paymentsReport.rows.map((r) => (
                        <tr key={`${r.periodStart}-${r.currency}`} data-period={r.periodStart}>
                          <th scope="row">{periodLabel(r.periodStart, period)}</th>
                          <td className="numeric" data-cents={r.payments}>
                            {money(r.payments, r.currency)} ({r.paymentCount})
                          </td>
                          <td className="numeric" data-cents={r.refunds}>
                            {money(r.refunds, r.currency)} ({r.refundCount})
                          </td>
                          <td className="numeric" data-cents={r.net}>
                            {money(r.net, r.currency)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </TableWrap>
                }
              />
            )}
          </Section>
          <div className="grid-2">
            <Section
              title="Cash-up"
              description={`The money of ${periodLabel(data.cashUpReport.date, 'DAY')}.`}
              actions={
                <ExportCsvButton
                  path="reports/cash-up.csv"
                  query={new URLSearchParams({ date: cashUpDate, ...(objectId ? { objectIds: objectId } : {}) })}
                  fileName="cash-up.csv"
                  label="Export cash-up CSV"
                />
              }
            >
              {cash ? (
                <table className="breakdown cash-up">
                  <caption className="visually-hidden">Cash-up of {data.cashUpReport.date}</caption>
                  <tbody>
                    <tr>
                      <th scope="row">Online ({cash.onlineCount})</th>
                      <td className="numeric" data-cents={cash.online}>
                        {money(cash.online, cash.currency)}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row">At the venue ({cash.atVenueCount})</th>
                      <td className="numeric" data-cents={cash.atVenue}>
                        {money(cash.atVenue, cash.currency)}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row">Refunds ({cash.refundCount})</th>
                      <td className="numeric" data-cents={-(cash.refundsOnline + cash.refundsAtVenue) || 0}>
                        {/* `|| 0`: no refunds reads €0.00, not -€0.00 */}
                        {money(-(cash.refundsOnline + cash.refundsAtVenue) || 0, cash.currency)}
                      </td>
                    </tr>
                    <tr className="total">
                      <th scope="row">Net</th>
                      <td className="numeric" data-cents={cash.net}>
                        {money(cash.net, cash.currency)}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row">Cash in hand (at the venue less its refunds)</th>
                      <td className="numeric" data-cents={cash.cashInHand}>
                        {money(cash.cashInHand, cash.currency)}
                      </td>
                    </tr>
                  </tbody>
                </table>
              ) : (
                <Empty>No money moved that day.</Empty>
              )}
            </Section>
            <Section
              title="No-shows"
              description="Bookings marked a no-show among the confirmed and completed ones that started."
              actions={
                <ExportCsvButton
                  path="reports/no-shows.csv"
                  query={csvQuery()}
                  fileName="no-shows.csv"
                  label="Export no-shows CSV"
                />
              }
            >
              <p className="report-figure">
                {percent(data.noShowReport.rate)}{' '}
                <span className="muted small">
                  ({data.noShowReport.noShows} of {data.noShowReport.bookings} bookings)
                </span>
              </p>
              {data.noShowReport.byObject.length === 0 ? (
                <Empty>No bookings started in this range.</Empty>
              ) : (
                <ChartWithTable
                  summary={`No-show rate by object; overall ${percent(data.noShowReport.rate)}.`}
                  tableTitle="no-shows by object"
                  height={Math.max(120, 36 * data.noShowReport.byObject.length + 40)}
                  chart={
                    <ResponsiveContainer width="100%" height="100%">
                      <BarChart data={data.noShowReport.byObject} layout="vertical" accessibilityLayer={false}>
                        <CartesianGrid stroke={CHART.grid} horizontal={false} />
                        <XAxis
                          type="number"
                          domain={[0, 1]}
                          tickFormatter={(r: number) => percent(r)}
                          tick={TICK}
                          stroke={CHART.grid}
                        />
                        <YAxis type="category" dataKey="objectName" width={90} tick={TICK} stroke={CHART.grid} />
                        <Tooltip formatter={(r) => percent(Number(r))} />
                        <Bar dataKey="rate" name="No-show rate" fill={CHART.danger} isAnimationActive={false} />
                      </BarChart>
                    </ResponsiveContainer>
                  }
                  table={
                    <TableWrap label="No-shows by object">
                      <thead>
                        <tr>
                          <th scope="col">Object</th>
                          <th scope="col" className="numeric">
                            Bookings
                          </th>
                          <th scope="col" className="numeric">
                            No-shows
                          </th>
                          <th scope="col" className="numeric">
                            Rate
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.noShowReport.byObject.map((r) => (
                          <tr key={r.objectId} data-object={r.objectId}>
                            <th scope="row">{r.objectName}</th>
                            <td className="numeric">{r.bookings}</td>
                            <td className="numeric">{r.noShows}</td>
                            <td className="numeric">{percent(r.rate)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </TableWrap>
                  }
                />
              )}
            </Section>
          </div>
        </>
      ) : null}
    </>
  );
}
