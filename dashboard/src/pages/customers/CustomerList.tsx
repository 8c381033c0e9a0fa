import { type SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { graphql } from '../../gql';
import { useGraphQL } from '../../api/hooks';
import { Empty, ErrorNotice, Field, Loading, PageHeader, Section, TableWrap } from '../../components/ui';
import { ExportCsvButton } from '../../components/ExportCsv';
import { dateTime, money } from '../../format';
import { formText } from '../../form-data';

const PAGE_SIZE = 25;

const CustomersQuery = graphql(`
  query DashboardCustomers($search: String, $first: Int, $after: String) {
    customersConnection(search: $search, first: $first, after: $after) {
      totalCount
      nodes {
        id
        name
        email
        phone
        bookingCount
        noShowCount
        erasedAt
        createdAt
        totalSpent {
          currency
          net
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export function CustomerListPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') || undefined;
  const after = params.get('after') || undefined;
  const customers = useGraphQL(['customers'], CustomersQuery, { search, first: PAGE_SIZE, after });
  const connection = customers.data?.customersConnection;

  const applySearch = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = formText(new FormData(event.currentTarget), 'search').trim();
    setParams(value ? new URLSearchParams({ search: value }) : new URLSearchParams());
  };
  const next = () => {
    const target = new URLSearchParams(params);
    if (connection?.pageInfo.endCursor) target.set('after', connection.pageInfo.endCursor);
    setParams(target);
  };

  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone who booked: one record per guest, matched by email (else phone) when a booking is made."
      />
      <Section title="Search">
        <form className="filters" onSubmit={applySearch} aria-label="Search customers" key={params.toString()}>
          <Field
            label="Search customers"
            name="search"
            type="search"
            maxLength={200}
            placeholder="Start of a name, email or phone"
            defaultValue={search ?? ''}
          />
          <div className="filter-actions">
            <button type="submit" className="button button-primary">
              Search
            </button>
            {search || after ? (
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
        description={
          connection ? `${connection.totalCount} ${connection.totalCount === 1 ? 'customer' : 'customers'}` : undefined
        }
        actions={
          <ExportCsvButton
            path="customers/export.csv"
            query={search ? new URLSearchParams({ search }) : undefined}
            fileName="customers.csv"
          />
        }
      >
        <ErrorNotice error={customers.error} />
        {customers.isPending ? (
          <Loading />
        ) : connection?.nodes.length === 0 ? (
          <Empty>
            {search ? 'No customer starts with that.' : 'No customers yet: they appear with their first booking.'}
          </Empty>
        ) : (
          <TableWrap label="Customers" stackable>
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Phone</th>
                <th scope="col" className="numeric">
                  Bookings
                </th>
                <th scope="col" className="numeric">
                  No-shows
                </th>
                <th scope="col" className="numeric">
                  Total spent
                </th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {connection?.nodes.map((customer) => (
                <tr key={customer.id}>
                  <td className="text" data-label="Customer">
                    <Link to={`/customers/${customer.id}`} className="strong">
                      {customer.name}
                    </Link>
                    <span className="small muted block">{customer.erasedAt ? 'Erased' : (customer.email ?? '—')}</span>
                  </td>
                  <td className="nowrap" data-label="Phone">
                    {customer.phone ?? '—'}
                  </td>
                  <td className="numeric" data-label="Bookings">
                    {customer.bookingCount}
                  </td>
                  <td className="numeric" data-label="No-shows">
                    {customer.noShowCount}
                  </td>
                  <td className="numeric" data-label="Total spent">
                    {customer.totalSpent.length
                      ? customer.totalSpent.map((t) => money(t.net, t.currency)).join(' · ')
                      : money(0)}
                  </td>
                  <td className="nowrap" data-label="Since">
                    {dateTime(customer.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
        {connection?.pageInfo.hasNextPage || after ? (
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={!after}
              onClick={() => setParams(search ? new URLSearchParams({ search }) : new URLSearchParams())}
            >
              First page
            </button>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={!connection?.pageInfo.hasNextPage}
              onClick={next}
            >
              Next
            </button>
          </nav>
        ) : null}
      </Section>
    </>
  );
}
