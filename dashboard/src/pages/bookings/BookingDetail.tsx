import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { BookingNotifications } from './BookingNotifications';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { BookingStatus, CancellationReasonCode } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  Empty,
  ErrorNotice,
  Loading,
  PageHeader,
  Section,
  SelectField,
  TableWrap,
  fieldErrorOf,
} from '../../components/ui';
import { dateTime, money, timeRange } from '../../format';
import { useSession } from '../../session';
import { useDoorNames } from '../../api/doors';
import { BookingChanges } from './BookingChanges';
import { BookingPayments, CancellationMoney } from './BookingPayments';
import { GuestLink } from './GuestLink';
import { BookingSeriesPanel } from './BookingSeriesPanel';

const BookingQuery = graphql(`
  query DashboardBooking($id: ID!) {
    booking(id: $id) {
      id
      reference
      guestName
      guestEmail
      guestPhone
      customerId
      startTime
      endTime
      status
      totalPrice
      currency
      refundAmount
      createdAt
      paymentUrl
      noShowAt
      cancellationReasonCode
      cancellationReason
      seriesId
      object {
        id
        name
        pricePerHour
        accommodation {
          id
          name
          timeZone
        }
      }
    }
  }
`);

const CredentialsQuery = graphql(`
  query DashboardBookingCredentials($bookingId: ID!) {
    bookingCredentials(bookingId: $bookingId) {
      validFrom
      validUntil
      qrCode {
        svg
      }
      sms {
        code
        message
      }
    }
  }
`);

const AccessQuery = graphql(`
  query DashboardBookingAccess($bookingId: ID!) {
    accessLog(bookingId: $bookingId, first: 50) {
      id
      deviceId
      doorId
      credentialType
      allowed
      reason
      checkedAt
    }
  }
`);

const EventsQuery = graphql(`
  query DashboardBookingWebhookDeliveries($bookingId: ID!) {
    bookingWebhookDeliveries(bookingId: $bookingId, first: 50) {
      deliveries {
        id
        webhookId
        eventType
        status
        attemptCount
        lastStatusCode
        lastError
        createdAt
      }
    }
  }
`);

const RefundQuery = graphql(`
  query DashboardCancellationQuote($bookingId: ID!) {
    cancellationQuote(bookingId: $bookingId) {
      refundAmount
      totalPrice
      currency
      policyName
      amountPaid
      moneyBack
    }
  }
`);

const UpdateStatus = graphql(`
  mutation DashboardUpdateBookingStatus(
    $bookingId: ID!
    $status: BookingStatus!
    $reasonCode: CancellationReasonCode
    $reason: String
  ) {
    updateBookingStatus(bookingId: $bookingId, status: $status, reasonCode: $reasonCode, reason: $reason) {
      refundAmount
      booking {
        id
        status
        cancellationReasonCode
        cancellationReason
        payment {
          amountRefunded
        }
      }
    }
  }
`);

const MarkNoShow = graphql(`
  mutation DashboardMarkNoShow($bookingId: ID!) {
    markNoShow(bookingId: $bookingId) {
      booking {
        id
        status
        noShowAt
      }
    }
  }
`);

/** The cancel dialog's reasons (docs/bookings.md, "Cancellation reasons"), in the words staff use. */
const REASONS: { code: CancellationReasonCode; label: string }[] = [
  { code: 'GUEST_REQUEST', label: 'Guest asked' },
  { code: 'NO_PAYMENT', label: 'Not paid' },
  { code: 'WEATHER', label: 'Weather' },
  { code: 'MAINTENANCE', label: 'Maintenance' },
  { code: 'DUPLICATE', label: 'Duplicate booking' },
  { code: 'VENUE_CLOSED', label: 'Venue closed' },
  { code: 'OTHER', label: 'Other (say why)' },
];
const reasonLabel = (code: string) => REASONS.find((r) => r.code === code)?.label ?? code;

const NEXT: Record<BookingStatus, BookingStatus[]> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['COMPLETED', 'CANCELLED'],
  CANCELLED: [],
  COMPLETED: [],
};

export function BookingDetailPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const booking = useGraphQL(['bookings', id], BookingQuery, { id });
  const credentials = useGraphQL(['bookings', id, 'credentials'], CredentialsQuery, { bookingId: id });
  const access = useGraphQL(
    ['bookings', id, 'access'],
    AccessQuery,
    { bookingId: id },
    { enabled: session.can('devices:read') },
  );
  const doorName = useDoorNames(session.can('devices:read') && session.can('catalog:read'));
  const events = useGraphQL(
    ['bookings', id, 'webhookDeliveries'],
    EventsQuery,
    { bookingId: id },
    { enabled: session.can('webhooks:read') },
  );
  const update = useGraphQLMutation(UpdateStatus, [['bookings']]);
  const noShow = useGraphQLMutation(MarkNoShow, [['bookings']]);
  const [cancelling, setCancelling] = useState(false);
  const [reasonCode, setReasonCode] = useState<CancellationReasonCode | ''>('');
  const [reasonText, setReasonText] = useState('');
  const refund = useGraphQL(['bookings', id, 'refund'], RefundQuery, { bookingId: id }, { enabled: cancelling });

  if (booking.isPending) return <Loading />;
  const data = booking.data?.booking;
  if (!data) return <ErrorNotice error={booking.error} title="This booking could not be loaded" />;

  const zone = data.object.accommodation.timeZone;
  const hours = (Date.parse(data.endTime) - Date.parse(data.startTime)) / 3_600_000;
  const base = Math.round(data.object.pricePerHour * hours);
  const canWrite = session.can('bookings:write');
  const allowed = canWrite ? NEXT[data.status] : [];
  const setStatus = (status: BookingStatus) =>
    update.mutate(
      status === 'CANCELLED'
        ? { bookingId: id, status, reasonCode: reasonCode || undefined, reason: reasonText.trim() || undefined }
        : { bookingId: id, status },
      { onSuccess: () => setCancelling(false) },
    );
  // After the start a CONFIRMED booking may be marked a no-show (once). The clock at render, as for "Complete booking".
  // eslint-disable-next-line react-hooks/purity
  const started = Date.parse(data.startTime) <= Date.now();
  const canMarkNoShow = canWrite && data.status === 'CONFIRMED' && started && !data.noShowAt;

  return (
    <>
      <p className="breadcrumb">
        <Link to="/bookings">Bookings</Link> / {data.guestName}
      </p>
      <PageHeader
        title={data.guestName}
        description={
          <>
            {data.object.name} · {data.object.accommodation.name} · {timeRange(data.startTime, data.endTime, zone)}{' '}
            <Badge value={data.status} />
            {data.noShowAt ? (
              <>
                {' '}
                <Badge value="NO_SHOW" label="no-show" />
              </>
            ) : null}
          </>
        }
        actions={
          allowed.length > 0 && !cancelling ? (
            <>
              {allowed.includes('CONFIRMED') ? (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={update.isPending}
                  onClick={() => setStatus('CONFIRMED')}
                >
                  Confirm booking
                </button>
              ) : null}
              {allowed.includes('COMPLETED') ? (
                <ConfirmButton
                  label="Complete booking"
                  confirmLabel="Yes, complete"
                  tone="primary"
                  question={
                    // The clock at render: the page renders again on each refetch (focus, mutations), fresh enough for this question.
                    // eslint-disable-next-line react-hooks/purity
                    Date.parse(data.startTime) > Date.now()
                      ? `This booking has not started yet (it starts ${dateTime(data.startTime, zone)}). Complete it anyway?`
                      : 'Mark the booking as completed? It cannot be changed afterwards.'
                  }
                  busy={update.isPending}
                  onConfirm={() => setStatus('COMPLETED')}
                />
              ) : null}
              {canMarkNoShow ? (
                <ConfirmButton
                  label="No-show"
                  confirmLabel="Yes, mark no-show"
                  tone="secondary"
                  question="The guest did not come? The booking is kept (and billed) and counted as a no-show."
                  busy={noShow.isPending}
                  onConfirm={() => noShow.mutate({ bookingId: id })}
                />
              ) : null}
              {allowed.includes('CANCELLED') ? (
                <button type="button" className="button button-danger-outline" onClick={() => setCancelling(true)}>
                  Cancel booking
                </button>
              ) : null}
            </>
          ) : undefined
        }
      />
      <ErrorNotice error={update.error} />
      <ErrorNotice error={noShow.error} title="The booking could not be marked a no-show" />
      {update.data?.updateBookingStatus.refundAmount != null ? (
        <div className="notice notice-success" role="status">
          Booking cancelled;{' '}
          {update.data.updateBookingStatus.booking.payment.amountRefunded > 0
            ? `${money(update.data.updateBookingStatus.booking.payment.amountRefunded, data.currency)} refunded.`
            : 'nothing was paid.'}
        </div>
      ) : null}
      {cancelling ? (
        <section className="card card-warning" aria-labelledby="cancel-heading">
          <div className="card-body stack">
            <h2 id="cancel-heading">Cancel this booking?</h2>
            {refund.isPending ? (
              <Loading label="Working out the refund…" />
            ) : refund.data ? (
              <CancellationMoney quote={refund.data.cancellationQuote} />
            ) : (
              <ErrorNotice error={refund.error} title="The refund could not be worked out" />
            )}
            <SelectField
              label="Reason"
              value={reasonCode}
              onChange={(e) => setReasonCode(e.target.value as CancellationReasonCode | '')}
              error={fieldErrorOf(update.error, 'reasonCode')}
            >
              <option value="">No reason given</option>
              {REASONS.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.label}
                </option>
              ))}
            </SelectField>
            <div className="field">
              <label htmlFor="cancel-reason-note">Note</label>
              <textarea
                id="cancel-reason-note"
                rows={2}
                maxLength={500}
                value={reasonText}
                aria-describedby="cancel-reason-hint"
                onChange={(e) => setReasonText(e.target.value)}
              />
              <p className="field-hint" id="cancel-reason-hint">
                {fieldErrorOf(update.error, 'reason') ??
                  (reasonCode === 'OTHER'
                    ? 'Say why (required for Other), at most 500 characters.'
                    : 'Optional, at most 500 characters.')}
              </p>
            </div>
            <div className="button-row">
              <button
                type="button"
                className="button button-danger"
                disabled={update.isPending || refund.isPending}
                onClick={() => setStatus('CANCELLED')}
              >
                Yes, cancel
              </button>
              <button type="button" className="button button-secondary" onClick={() => setCancelling(false)}>
                Keep booking
              </button>
            </div>
          </div>
        </section>
      ) : null}
      <BookingChanges booking={data} zone={zone} />
      {data.seriesId ? (
        <BookingSeriesPanel
          seriesId={data.seriesId}
          bookingId={data.id}
          zone={zone}
          canWrite={canWrite}
          version={`${data.startTime}/${data.endTime}`}
        />
      ) : null}
      <div className="grid-2">
        <Section title="Guest">
          <dl className="facts">
            <div>
              <dt>Reference</dt>
              <dd>
                <code>{data.reference}</code>
              </dd>
            </div>
            <div>
              <dt>Name</dt>
              <dd>{data.guestName}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{data.guestEmail}</dd>
            </div>
            <div>
              <dt>Phone</dt>
              <dd>{data.guestPhone ?? '—'}</dd>
            </div>
            {data.customerId && session.can('customers:read') ? (
              <div>
                <dt>Customer</dt>
                <dd>
                  <Link to={`/customers/${data.customerId}`}>Customer record</Link>
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Booked</dt>
              <dd>{dateTime(data.createdAt, zone)}</dd>
            </div>
            {data.noShowAt ? (
              <div>
                <dt>No-show</dt>
                <dd>Marked {dateTime(data.noShowAt, zone)}</dd>
              </div>
            ) : null}
            {data.cancellationReasonCode ? (
              <div>
                <dt>Cancellation reason</dt>
                <dd>
                  {reasonLabel(data.cancellationReasonCode)}
                  {data.cancellationReason ? <span className="muted"> — {data.cancellationReason}</span> : null}
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Payment page</dt>
              <dd className="break">
                <a href={data.paymentUrl}>{data.paymentUrl}</a>
              </dd>
            </div>
          </dl>
        </Section>
        <Section title="Price">
          <table className="breakdown">
            <caption className="visually-hidden">Price breakdown</caption>
            <tbody>
              <tr>
                <th scope="row">
                  {hours.toLocaleString('en-GB', { maximumFractionDigits: 2 })} h ×{' '}
                  {money(data.object.pricePerHour, data.currency)}
                </th>
                <td className="numeric">{money(base, data.currency)}</td>
              </tr>
              <tr>
                <th scope="row">Pricing rules</th>
                <td className="numeric">{money(data.totalPrice - base, data.currency)}</td>
              </tr>
              <tr className="total">
                <th scope="row">Total</th>
                <td className="numeric">{money(data.totalPrice, data.currency)}</td>
              </tr>
              {data.refundAmount != null ? (
                <tr>
                  <th scope="row">Refunded</th>
                  <td className="numeric">{money(data.refundAmount, data.currency)}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
          <p className="field-hint">
            The base uses the object's current hourly price; the total was fixed when the booking was made.
          </p>
        </Section>
      </div>
      <BookingPayments bookingId={id} zone={zone} />
      {canWrite ? <GuestLink bookingId={id} /> : null}
      <Section title="Credentials" description="Valid from the start to the end of the booking, while it is confirmed.">
        {credentials.isPending ? (
          <Loading />
        ) : credentials.data ? (
          <div className="credentials">
            <img
              className="qr"
              alt={`QR code for ${data.guestName}'s booking`}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(credentials.data.bookingCredentials.qrCode.svg)}`}
              width={160}
              height={160}
            />
            <dl className="facts">
              <div>
                <dt>SMS code</dt>
                <dd>
                  <code className="sms-code">{credentials.data.bookingCredentials.sms.code}</code>
                </dd>
              </div>
              <div>
                <dt>SMS text</dt>
                <dd>{credentials.data.bookingCredentials.sms.message}</dd>
              </div>
              <div>
                <dt>Valid</dt>
                <dd>
                  {timeRange(
                    credentials.data.bookingCredentials.validFrom,
                    credentials.data.bookingCredentials.validUntil,
                    zone,
                  )}
                </dd>
              </div>
            </dl>
          </div>
        ) : (
          <ErrorNotice error={credentials.error} />
        )}
      </Section>
      <BookingNotifications bookingId={data.id} zone={zone} />
      {session.can('webhooks:read') ? (
        <Section
          title="Webhook events"
          description="This booking's events and how their delivery to each endpoint went."
        >
          <ErrorNotice error={events.error} />
          {events.isPending ? (
            <Loading />
          ) : events.data?.bookingWebhookDeliveries.deliveries.length === 0 ? (
            <Empty>No webhook deliveries for this booking.</Empty>
          ) : (
            <TableWrap label="Webhook events" stackable>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last response</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {events.data?.bookingWebhookDeliveries.deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td className="strong" data-label="Event">
                      {delivery.eventType}
                    </td>
                    <td data-label="Status">
                      <Badge value={delivery.status} />
                    </td>
                    <td data-label="Attempts">{delivery.attemptCount}</td>
                    <td data-label="Last response">
                      {delivery.lastStatusCode !== null
                        ? `HTTP ${delivery.lastStatusCode}`
                        : (delivery.lastError ?? '—')}
                    </td>
                    <td className="nowrap" data-label="Created">
                      {dateTime(delivery.createdAt, zone)}
                    </td>
                    <td className="actions">
                      <Link to={`/admin/webhooks/${delivery.webhookId}`}>Delivery log</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
        </Section>
      ) : null}
      {session.can('devices:read') ? (
        <Section title="Access log" description="Door checks made with this booking's credentials.">
          <ErrorNotice error={access.error} />
          {access.isPending ? (
            <Loading />
          ) : access.data?.accessLog.length === 0 ? (
            <Empty>No door checks with this booking yet.</Empty>
          ) : (
            <TableWrap label="Access log">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Door</th>
                  <th scope="col">Credential</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {access.data?.accessLog.map((entry) => (
                  <tr key={entry.id}>
                    <td className="nowrap">{dateTime(entry.checkedAt, zone)}</td>
                    <td className="text">{doorName(entry.doorId)}</td>
                    <td>{entry.credentialType ?? '—'}</td>
                    <td>
                      <Badge value={entry.allowed ? 'allowed' : 'denied'} />
                      {entry.reason ? <span className="small muted"> {entry.reason.replace(/_/g, ' ')}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
        </Section>
      ) : null}
    </>
  );
}
