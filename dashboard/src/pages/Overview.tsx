import { Link } from 'react-router';
import { useQueries } from '@tanstack/react-query';
import { graphql } from '../gql';
import { execute } from '../api/client';
import { useGraphQL } from '../api/hooks';
import { Badge, Empty, ErrorNotice, Loading, PageHeader, Section, Stat, TableWrap } from '../components/ui';
import { browserZone, dateTime, relative, timeRange, todayIn } from '../format';
import { useDoorNames } from '../api/doors';
import { useSession } from '../session';
import { PaymentIssuesNotice } from './PaymentIssues';

const AccommodationsQuery = graphql(`
  query DashboardOverviewAccommodations {
    accommodations {
      id
      name
      timeZone
    }
  }
`);

const TodayQuery = graphql(`
  query DashboardOverviewToday($from: String!, $to: String!) {
    bookingPage(from: $from, to: $to, pageSize: 100) {
      bookings {
        id
        guestName
        objectName
        startTime
        endTime
        status
        object {
          id
          accommodationId
        }
      }
      pagination {
        total
      }
    }
  }
`);

const DevicesQuery = graphql(`
  query DashboardOverviewDevices {
    devices {
      id
      name
      status
      online
      lastHeartbeatAt
    }
  }
`);

const DenialsQuery = graphql(`
  query DashboardOverviewAccess {
    accessLog(first: 100) {
      id
      deviceId
      doorId
      allowed
      reason
      checkedAt
    }
  }
`);

const FailingQuery = graphql(`
  query DashboardOverviewWebhooks {
    webhooks {
      id
      url
      active
    }
  }
`);

const FailedDeliveriesQuery = graphql(`
  query DashboardOverviewFailedDeliveries($webhookId: ID!) {
    webhookDeliveries(webhookId: $webhookId, status: FAILED, first: 5) {
      deliveries {
        id
        eventType
        lastStatusCode
        lastError
        lastAttemptAt
      }
    }
  }
`);

export function OverviewPage() {
  const session = useSession();
  return (
    <>
      <PageHeader title="Overview" description={`Today at ${session.tenant.name}.`} />
      {session.can('bookings:read') ? <PaymentIssuesNotice /> : null}
      <div className="overview-grid">
        {session.can('bookings:read') && session.can('catalog:read') ? <TodaysBookings /> : null}
        {session.can('devices:read') ? <DeviceHealth /> : null}
        {session.can('devices:read') ? <RecentDenials /> : null}
        {session.can('webhooks:read') ? <FailingWebhooks /> : null}
      </div>
    </>
  );
}

function TodaysBookings() {
  const accommodations = useGraphQL(['catalog', 'overview'], AccommodationsQuery, {});
  const list = accommodations.data?.accommodations ?? [];
  const days = useQueries({
    queries: list.map((accommodation) => {
      const today = todayIn(accommodation.timeZone);
      return {
        queryKey: ['bookings', 'today', accommodation.id, today.from],
        queryFn: () => execute(TodayQuery, { from: today.from, to: today.to }),
      };
    }),
  });
  return (
    <Section title="Today's bookings" description="Each accommodation's own today, in its local time." id="today">
      <ErrorNotice error={accommodations.error ?? days.find((d) => d.error)?.error} />
      {accommodations.isPending ? <Loading /> : null}
      {list.length === 0 && !accommodations.isPending ? <Empty>No accommodations yet.</Empty> : null}
      {list.map((accommodation, index) => {
        const today = todayIn(accommodation.timeZone);
        const bookings = (days[index]?.data?.bookingPage.bookings ?? []).filter(
          (b) => b.object.accommodationId === accommodation.id && b.status !== 'CANCELLED',
        );
        return (
          <div key={accommodation.id} className="today">
            <h3>
              {accommodation.name}{' '}
              <span className="muted small">
                · {today.label} · {accommodation.timeZone}
              </span>
            </h3>
            {days[index]?.isPending ? (
              <Loading />
            ) : bookings.length === 0 ? (
              <Empty>No bookings today.</Empty>
            ) : (
              <TableWrap label={`Today's bookings at ${accommodation.name}`} stackable>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Guest</th>
                    <th scope="col">Object</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {bookings.map((booking) => (
                    <tr key={booking.id}>
                      <td className="nowrap" data-label="Time">
                        {timeRange(booking.startTime, booking.endTime, accommodation.timeZone).split(', ')[1]}
                      </td>
                      <td data-label="Guest">
                        <Link to={`/bookings/${booking.id}`}>{booking.guestName}</Link>
                      </td>
                      <td data-label="Object">{booking.objectName}</td>
                      <td data-label="Status">
                        <Badge value={booking.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableWrap>
            )}
          </div>
        );
      })}
    </Section>
  );
}

function DeviceHealth() {
  const devices = useGraphQL(['devices', 'overview'], DevicesQuery, {}, { refetchInterval: 30_000 });
  const active = devices.data?.devices.filter((d) => d.status === 'ACTIVE') ?? [];
  const offline = active.filter((d) => !d.online);
  return (
    <Section title="Devices" actions={<Link to="/admin/devices">All devices</Link>}>
      <ErrorNotice error={devices.error} />
      {devices.isPending ? (
        <Loading />
      ) : (
        <>
          <div className="stats">
            <Stat label="Online" value={active.length - offline.length} tone="success" />
            <Stat label="Offline" value={offline.length} tone={offline.length > 0 ? 'danger' : undefined} />
            <Stat
              label="Awaiting activation"
              value={devices.data?.devices.filter((d) => d.status === 'PENDING_ACTIVATION').length ?? 0}
            />
          </div>
          {offline.length > 0 ? (
            <ul className="plain-list">
              {offline.map((device) => (
                <li key={device.id}>
                  <Badge value="offline" /> <span className="strong">{device.name}</span>{' '}
                  <span className="muted small">last heartbeat {relative(device.lastHeartbeatAt)}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </Section>
  );
}

function RecentDenials() {
  const session = useSession();
  const log = useGraphQL(['access', 'overview'], DenialsQuery, {}, { refetchInterval: 30_000 });
  const doorName = useDoorNames(session.can('catalog:read'));
  // Door checks are venue times: in the venue's zone when the tenant's accommodations share one.
  const accommodations = useGraphQL(
    ['catalog', 'overview'],
    AccommodationsQuery,
    {},
    { enabled: session.can('catalog:read') },
  );
  const zones = [...new Set((accommodations.data?.accommodations ?? []).map((a) => a.timeZone))];
  const zone = zones.length === 1 ? zones[0] : undefined;
  const denials = (log.data?.accessLog ?? []).filter((entry) => !entry.allowed).slice(0, 8);
  return (
    <Section
      title="Recent access denials"
      description={`Among the last 100 door checks; times in ${zone ? `the venue's zone, ${zone}` : `your browser's zone, ${browserZone()}`}.`}
    >
      <ErrorNotice error={log.error} />
      {log.isPending ? (
        <Loading />
      ) : denials.length === 0 ? (
        <Empty>No denied door checks recently.</Empty>
      ) : (
        <ul className="plain-list">
          {denials.map((entry) => (
            <li key={entry.id}>
              <Badge value="denied" />{' '}
              <span className="strong">
                {session.can('catalog:read') ? doorName(entry.doorId) : `door ${entry.doorId}`}
              </span>{' '}
              · {(entry.reason ?? 'denied').replace(/_/g, ' ')}{' '}
              <span className="muted small">{dateTime(entry.checkedAt, zone)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function FailingWebhooks() {
  const webhooks = useGraphQL(['webhooks', 'overview'], FailingQuery, {});
  const list = webhooks.data?.webhooks ?? [];
  const failed = useQueries({
    queries: list.map((webhook) => ({
      queryKey: ['webhookDeliveries', webhook.id, 'failed'],
      queryFn: () => execute(FailedDeliveriesQuery, { webhookId: webhook.id }),
    })),
  });
  const failing = list
    .map((webhook, index) => ({ webhook, deliveries: failed[index]?.data?.webhookDeliveries.deliveries ?? [] }))
    .filter((entry) => !entry.webhook.active || entry.deliveries.length > 0);
  return (
    <Section title="Failing webhooks" actions={<Link to="/admin/webhooks">All webhooks</Link>}>
      <ErrorNotice error={webhooks.error} />
      {webhooks.isPending ? (
        <Loading />
      ) : failing.length === 0 ? (
        <Empty>{list.length === 0 ? 'No webhooks set up.' : 'All webhooks are delivering.'}</Empty>
      ) : (
        <ul className="plain-list">
          {failing.map(({ webhook, deliveries }) => (
            <li key={webhook.id}>
              <Badge
                value={webhook.active ? 'FAILED' : 'inactive'}
                label={webhook.active ? `${deliveries.length} failed` : 'deactivated'}
              />{' '}
              <Link to={`/admin/webhooks/${webhook.id}`} className="break">
                {webhook.url}
              </Link>
              {deliveries[0] ? (
                <span className="muted small">
                  {' '}
                  last: {deliveries[0].eventType},{' '}
                  {deliveries[0].lastStatusCode !== null
                    ? `HTTP ${deliveries[0].lastStatusCode}`
                    : (deliveries[0].lastError ?? 'no response')}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
