import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { Badge, Empty, ErrorNotice, Loading, Section, TableWrap } from '../../components/ui';
import { dateTime } from '../../format';
import { useSession } from '../../session';

// The guest's mails and text messages of one booking (docs/notifications.md), with a resend.

/** What each kind of message is, as the log names it. */
const KIND_LABELS: Record<string, string> = {
  CONFIRMED: 'confirmed',
  RESCHEDULED: 'rescheduled',
  CANCELLED: 'cancelled',
  REMINDER: 'reminder',
  PAYMENT_DUE: 'payment due',
  RECEIPT: 'receipt',
  SERIES_CONFIRMED: 'series confirmed',
};

const NotificationsQuery = graphql(`
  query DashboardBookingNotifications($id: ID!) {
    booking(id: $id) {
      id
      notifications {
        id
        channel
        kind
        status
        recipient
        attempts
        lastError
        sentAt
        nextAttemptAt
        createdAt
      }
    }
  }
`);

const Resend = graphql(`
  mutation DashboardResendNotification($id: ID!) {
    resendNotification(id: $id) {
      id
      status
    }
  }
`);

export function BookingNotifications({ bookingId, zone }: { bookingId: string; zone?: string }) {
  const session = useSession();
  const log = useGraphQL(['bookings', bookingId, 'notifications'], NotificationsQuery, { id: bookingId });
  const resend = useGraphQLMutation(Resend, [['bookings', bookingId, 'notifications']]);
  const rows = log.data?.booking?.notifications ?? [];
  return (
    <Section
      title="Guest notifications"
      description="The mails and text messages sent to the guest about this booking."
    >
      <ErrorNotice error={log.error ?? resend.error} />
      {log.isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty>No notifications for this booking.</Empty>
      ) : (
        <TableWrap label="Guest notifications" stackable>
          <thead>
            <tr>
              <th scope="col">Message</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Sent</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td className="strong" data-label="Message">
                  {row.channel === 'EMAIL' ? 'Email' : 'SMS'} · {KIND_LABELS[row.kind] ?? row.kind.toLowerCase()}
                </td>
                <td data-label="To">{row.recipient}</td>
                <td data-label="Status">
                  <Badge value={row.status} />
                  {row.lastError ? <div className="field-hint">{row.lastError}</div> : null}
                </td>
                <td data-label="Attempts">{row.attempts}</td>
                <td className="nowrap" data-label="Sent">
                  {row.sentAt
                    ? dateTime(row.sentAt, zone)
                    : row.nextAttemptAt
                      ? `due ${dateTime(row.nextAttemptAt, zone)}`
                      : '—'}
                </td>
                <td className="actions">
                  {session.can('bookings:write') &&
                  (row.status === 'SENT' || row.status === 'FAILED' || row.status === 'UNKNOWN') ? (
                    <button
                      type="button"
                      className="button button-secondary"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate({ id: row.id })}
                    >
                      Resend
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </Section>
  );
}
