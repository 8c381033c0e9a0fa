import { useInfiniteQuery } from '@tanstack/react-query';
import { graphql } from '../../gql';
import { execute } from '../../api/client';
import { Empty, ErrorNotice, Loading, Section, TableWrap } from '../../components/ui';
import { dateTime } from '../../format';
import { ExportCsvButton } from '../../components/ExportCsv';

const AuditQuery = graphql(`
  query DashboardAuditLog($first: Int, $after: String) {
    auditLog(first: $first, after: $after) {
      edges {
        cursor
        node {
          id
          occurredAt
          action
          actor {
            type
            label
          }
          targetType
          targetId
          ipAddress
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const PAGE = 25;

export function AuditLog() {
  const log = useInfiniteQuery({
    queryKey: ['auditLog'],
    queryFn: ({ pageParam }) => execute(AuditQuery, { first: PAGE, after: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.auditLog.pageInfo.hasNextPage ? (last.auditLog.pageInfo.endCursor ?? undefined) : undefined,
  });
  const entries = log.data?.pages.flatMap((page) => page.auditLog.edges.map((edge) => edge.node)) ?? [];
  return (
    <Section
      title="Audit log"
      description="Sign-ins, keys, devices and team changes, newest first."
      actions={<ExportCsvButton path="audit-log/export.csv" fileName="audit-log.csv" />}
    >
      <ErrorNotice error={log.error} />
      {log.isPending ? (
        <Loading />
      ) : entries.length === 0 ? (
        <Empty>Nothing recorded yet.</Empty>
      ) : (
        <TableWrap label="Audit log" stackable>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">By</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="nowrap" data-label="When">
                  {dateTime(entry.occurredAt)}
                </td>
                <td data-label="Event">
                  <code>{entry.action}</code>
                </td>
                <td className="text" data-label="By">
                  {entry.actor.label} <span className="muted small">({entry.actor.type})</span>
                </td>
                <td data-label="From">{entry.ipAddress ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {log.hasNextPage ? (
        <div>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
          </button>
        </div>
      ) : null}
    </Section>
  );
}
