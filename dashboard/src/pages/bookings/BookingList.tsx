import { type SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { graphql } from '../../gql';
import type { BookingStatus, PaymentStatus } from '../../gql/graphql';
import { PaymentFilterField, PaymentCell } from './PaymentColumn';
import { useGraphQL } from '../../api/hooks';
import {
  Badge,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SelectField,
  TableWrap,
} from '../../components/ui';
import { money, timeRange } from '../../format';
import { useSession } from '../../session';
import { ExportCsvButton } from '../../components/ExportCsv';
import { dayPeriod, venueZone } from './day-filter';
import { formText } from '../../form-data';

const PAGE_SIZE = 20;
const STATUSES: BookingStatus[] = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];

const BookingsQuery = graphql(`
  query DashboardBookings(
    $page: Int
    $pageSize: Int
    $status: BookingStatus
    $objectId: ID
    $from: String
    $to: String
    $guestEmail: String
    $search: String
    $paymentStatus: PaymentStatus
  ) {
    bookingPage(
      page: $page
      pageSize: $pageSize
      status: $status
      objectId: $objectId
      from: $from
      to: $to
      guestEmail: $guestEmail
      search: $search
      paymentStatus: $paymentStatus
    ) {
      bookings {
        id
        reference
        guestName
        guestEmail
        objectName
        startTime
        endTime
        status
        totalPrice
        currency
        payment {
          status
        }
        object {
          id
          accommodation {
            id
            timeZone
          }
        }
      }
      pagination {
        page
        pageSize
        total
      }
    }
  }
`);

const ObjectsQuery = graphql(`
  query DashboardObjectOptions {
    bookableObjects {
      id
      name
      accommodation {
        id
        name
        timeZone
      }
    }
  }
`);

export function BookingListPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const filters = {
    status: (params.get('status') || undefined) as BookingStatus | undefined,
    objectId: params.get('objectId') || undefined,
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    guestEmail: params.get('guestEmail') || undefined,
    search: params.get('search') || undefined,
    paymentStatus: (params.get('paymentStatus') || undefined) as PaymentStatus | undefined,
  };
  const objects = useGraphQL(['objects'], ObjectsQuery, {}, { enabled: session.can('catalog:read') });
  // The date filters are the venue's local days, "To" included (bug 4: From = To = 27 Nov is that day).
  const zone = venueZone(objects.data?.bookableObjects);
  const period = dayPeriod(filters.from, filters.to, zone);
  const ready = !session.can('catalog:read') || objects.isFetched;
  const bookings = useGraphQL(
    ['bookings'],
    BookingsQuery,
    { page, pageSize: PAGE_SIZE, ...filters, ...period },
    { enabled: ready },
  );
  const exportQuery = new URLSearchParams(
    Object.entries({ ...filters, ...period }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );

  const applyFilters = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['search', 'status', 'objectId', 'from', 'to', 'guestEmail', 'paymentStatus']) {
      const value = formText(form, name).trim();
      if (value) next.set(name, value);
    }
    setParams(next);
  };

  const goTo = (target: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(target));
    setParams(next);
  };

  const pagination = bookings.data?.bookingPage.pagination;
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / pagination.pageSize)) : 1;
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Bookings"
        description={`Every booking of your venue, by start time. Times are each accommodation's local time; the date filters are days in ${zone}.`}
      />
      <Section title="Filters">
        <form className="filters" onSubmit={applyFilters} aria-label="Filter bookings" key={params.toString()}>
          <Field
            label="Search bookings"
            name="search"
            type="search"
            maxLength={200}
            placeholder="Part of a name or email, or a reference (PRT-7KQ2M)"
            defaultValue={filters.search ?? ''}
          />
          <SelectField label="Status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.charAt(0) + status.slice(1).toLowerCase()}
              </option>
            ))}
          </SelectField>
          <PaymentFilterField value={filters.paymentStatus} />
          <SelectField label="Object" name="objectId" defaultValue={filters.objectId ?? ''}>
            <option value="">Any object</option>
            {objects.data?.bookableObjects.map((object) => (
              <option key={object.id} value={object.id}>
                {object.name} · {object.accommodation.name}
              </option>
            ))}
          </SelectField>
          <Field label="From" name="from" type="date" defaultValue={filters.from ?? ''} />
          <Field label="To" name="to" type="date" hint="Included" defaultValue={filters.to ?? ''} />
          <Field label="Guest email" name="guestEmail" type="email" defaultValue={filters.guestEmail ?? ''} />
          <div className="filter-actions">
            <button type="submit" className="button button-primary">
              Apply
            </button>
            {filtered ? (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setParams(new URLSearchParams())}
              >
                Clear
              </button>
            ) : null}
          </div>
        </form>
      </Section>
      <Section
        title="Results"
        description={pagination ? `${pagination.total} ${pagination.total === 1 ? 'booking' : 'bookings'}` : undefined}
        actions={<ExportCsvButton path="bookings/export.csv" query={exportQuery} fileName="bookings.csv" />}
      >
        <ErrorNotice error={bookings.error} />
        {bookings.isPending ? (
          <Loading />
        ) : bookings.data?.bookingPage.bookings.length === 0 ? (
          <Empty>{filtered ? 'No booking matches these filters.' : 'No bookings yet.'}</Empty>
        ) : (
          <TableWrap label="Bookings" stackable>
            <thead>
              <tr>
                <th scope="col">Guest</th>
                <th scope="col">Object</th>
                <th scope="col">Time</th>
                <th scope="col">Status</th>
                <th scope="col">Payment</th>
                <th scope="col" className="numeric">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {bookings.data?.bookingPage.bookings.map((booking) => (
                <tr key={booking.id}>
                  <td className="text" data-label="Guest">
                    <Link to={`/bookings/${booking.id}`} className="strong">
                      {booking.guestName}
                    </Link>
                    <span className="small muted block">{booking.guestEmail}</span>
                    <span className="small muted block">{booking.reference}</span>
                  </td>
                  <td className="text" data-label="Object">
                    {booking.objectName}
                  </td>
                  <td className="nowrap" data-label="Time">
                    {timeRange(booking.startTime, booking.endTime, booking.object.accommodation.timeZone)}
                  </td>
                  <td data-label="Status">
                    <Badge value={booking.status} />
                  </td>
                  <PaymentCell status={booking.payment.status} />
                  <td className="numeric" data-label="Total">
                    {money(booking.totalPrice, booking.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
        {pagination && pagination.total > pagination.pageSize ? (
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={page <= 1}
              onClick={() => goTo(page - 1)}
            >
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={page >= pages}
              onClick={() => goTo(page + 1)}
            >
              Next
            </button>
          </nav>
        ) : null}
      </Section>
    </>
  );
}
