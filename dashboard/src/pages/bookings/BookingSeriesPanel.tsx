import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { BookingSeriesScope } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { Badge, ErrorNotice, Loading, Section, TableWrap } from '../../components/ui';
import { timeRange } from '../../format';

// A booking's series on its detail page (docs/bookings.md, "Recurring bookings"): the rule, every
// occurrence, and "cancel this / following / all" through cancelBookingSeries.

const SeriesQuery = graphql(`
  query DashboardBookingSeries($id: ID!) {
    bookingSeries(id: $id) {
      id
      rule
      status
      occurrences(first: 100) {
        totalCount
        nodes {
          id
          startTime
          endTime
          status
        }
      }
    }
  }
`);

const CancelSeries = graphql(`
  mutation DashboardCancelSeries($id: ID!, $scope: BookingSeriesScope!, $fromBookingId: ID) {
    cancelBookingSeries(id: $id, scope: $scope, fromBookingId: $fromBookingId) {
      series {
        id
        status
      }
      cancelled {
        id
      }
    }
  }
`);

const WORDS: Record<string, string> = { MO: 'Mon', TU: 'Tue', WE: 'Wed', TH: 'Thu', FR: 'Fri', SA: 'Sat', SU: 'Sun' };

/** The rule in the desk's words: "Weekly on Tue, Thu · 10 times" / "· until 2027-03-01". */
export function ruleInWords(rule: string): string {
  const parts = new Map(rule.split(';').map((p) => p.split('=') as [string, string]));
  const every = Number(parts.get('INTERVAL') ?? '1');
  const freq =
    parts.get('FREQ') === 'DAILY'
      ? every > 1
        ? `Every ${every} days`
        : 'Daily'
      : every > 1
        ? `Every ${every} weeks`
        : 'Weekly';
  const days = parts
    .get('BYDAY')
    ?.split(',')
    .map((d) => WORDS[d] ?? d)
    .join(', ');
  const count = parts.get('COUNT');
  const until = parts.get('UNTIL');
  const end = count
    ? `${count} times`
    : until
      ? `until ${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`
      : '';
  return [days ? `${freq} on ${days}` : freq, end].filter(Boolean).join(' · ');
}

const QUESTION: Record<BookingSeriesScope, string> = {
  THIS: 'Cancel only this occurrence?',
  FOLLOWING: 'Cancel this occurrence and every later one?',
  ALL: 'Cancel every occurrence of the series that has not taken place?',
};

export function BookingSeriesPanel({
  seriesId,
  bookingId,
  zone,
  canWrite,
  version,
}: {
  seriesId: string;
  bookingId: string;
  zone: string;
  canWrite: boolean;
  /** The booking's own times: a reschedule on this page reads the series again. */
  version: string;
}) {
  const series = useGraphQL(['bookings', 'series', seriesId, version], SeriesQuery, { id: seriesId });
  const cancel = useGraphQLMutation(CancelSeries, [['bookings'], ['calendar']]);
  const [asking, setAsking] = useState<BookingSeriesScope | null>(null);
  const data = series.data?.bookingSeries;
  const me = data?.occurrences.nodes.find((b) => b.id === bookingId);
  const live = me && (me.status === 'PENDING' || me.status === 'CONFIRMED');
  return (
    <Section title="Series" description={data ? ruleInWords(data.rule) : undefined}>
      {series.isPending ? (
        <Loading />
      ) : !data ? (
        <ErrorNotice error={series.error} title="The series could not be loaded" />
      ) : (
        <div className="stack">
          <p>
            <Badge value={data.status} /> {data.occurrences.totalCount} occurrences · rule <code>{data.rule}</code>
          </p>
          <ErrorNotice error={cancel.error} />
          {cancel.data ? (
            <div className="notice notice-success" role="status">
              {cancel.data.cancelBookingSeries.cancelled.length} cancelled.
            </div>
          ) : null}
          {canWrite && data.status === 'ACTIVE' ? (
            asking ? (
              <div className="card card-warning">
                <div className="card-body stack">
                  <p>{QUESTION[asking]} Each cancellation refunds by the cancellation policy.</p>
                  <div className="button-row">
                    <button
                      type="button"
                      className="button button-danger"
                      disabled={cancel.isPending}
                      onClick={() =>
                        cancel.mutate(
                          { id: seriesId, scope: asking, fromBookingId: asking === 'ALL' ? null : bookingId },
                          { onSuccess: () => setAsking(null) },
                        )
                      }
                    >
                      Yes, cancel
                    </button>
                    <button type="button" className="button button-secondary" onClick={() => setAsking(null)}>
                      Keep
                    </button>
                  </div>
                </div>
              </div>
            ) : (
              <div className="button-row">
                {live ? (
                  <>
                    <button type="button" className="button button-danger-outline" onClick={() => setAsking('THIS')}>
                      Cancel this
                    </button>
                    <button
                      type="button"
                      className="button button-danger-outline"
                      onClick={() => setAsking('FOLLOWING')}
                    >
                      Cancel following
                    </button>
                  </>
                ) : null}
                <button type="button" className="button button-danger-outline" onClick={() => setAsking('ALL')}>
                  Cancel all
                </button>
              </div>
            )
          ) : null}
          <TableWrap label="Occurrences">
            <table>
              <thead>
                <tr>
                  <th scope="col">When ({zone})</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.occurrences.nodes.map((b) => (
                  <tr key={b.id} aria-current={b.id === bookingId ? 'true' : undefined}>
                    <td>
                      {b.id === bookingId ? (
                        <strong>{timeRange(b.startTime, b.endTime, zone)} (this one)</strong>
                      ) : (
                        <Link to={`/bookings/${b.id}`}>{timeRange(b.startTime, b.endTime, zone)}</Link>
                      )}
                    </td>
                    <td>
                      <Badge value={b.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </div>
      )}
    </Section>
  );
}
