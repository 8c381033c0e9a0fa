import { useId, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  Stat,
  SuccessNotice,
  TableWrap,
  fieldErrorOf,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ExportCsvButton } from '../../components/ExportCsv';
import { dateTime, money, timeRange } from '../../format';
import { formText } from '../../form-data';
import { useSession } from '../../session';

const CustomerQuery = graphql(`
  query DashboardCustomer($id: ID!) {
    customer(id: $id) {
      id
      name
      email
      phone
      notes
      marketingConsent
      marketingConsentAt
      erasedAt
      createdAt
      bookingCount
      noShowCount
      totalSpent {
        currency
        paid
        refunded
        net
      }
      bookings(first: 50) {
        totalCount
        nodes {
          id
          reference
          objectName
          startTime
          endTime
          status
          totalPrice
          currency
        }
      }
    }
  }
`);

const UpdateCustomer = graphql(`
  mutation DashboardUpdateCustomer(
    $id: ID!
    $name: String
    $email: String
    $phone: String
    $notes: String
    $marketingConsent: Boolean
  ) {
    updateCustomer(
      id: $id
      name: $name
      email: $email
      phone: $phone
      notes: $notes
      marketingConsent: $marketingConsent
    ) {
      id
    }
  }
`);

const MergeCustomers = graphql(`
  mutation DashboardMergeCustomers($targetId: ID!, $sourceIds: [ID!]!) {
    mergeCustomers(targetId: $targetId, sourceIds: $sourceIds) {
      movedBookings
      mergedIds
    }
  }
`);

const EraseCustomer = graphql(`
  mutation DashboardEraseCustomer($id: ID!) {
    eraseCustomer(id: $id) {
      id
      erasedAt
    }
  }
`);

const DuplicatesQuery = graphql(`
  query DashboardCustomerDuplicates($search: String) {
    customers(search: $search, first: 10) {
      id
      name
      email
      phone
      bookingCount
    }
  }
`);

function MergeSection({ id }: { id: string }) {
  const [search, setSearch] = useState('');
  const found = useGraphQL(['customers', 'duplicates'], DuplicatesQuery, { search }, { enabled: search.length > 0 });
  const merge = useGraphQLMutation(MergeCustomers, [['customer'], ['customers']]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSearch(formText(new FormData(event.currentTarget), 'duplicate').trim());
  };
  const others = (found.data?.customers ?? []).filter((c) => c.id !== id);
  return (
    <Section
      title="Merge duplicates"
      description="Find another record of the same guest and merge it into this one: its bookings move here, this record's fields win, empty ones are filled from it."
    >
      <form className="filters" onSubmit={submit} aria-label="Find duplicates">
        <Field
          label="Find a duplicate"
          name="duplicate"
          type="search"
          maxLength={200}
          placeholder="Start of a name, email or phone"
        />
        <div className="filter-actions">
          <button type="submit" className="button button-secondary">
            Find
          </button>
        </div>
      </form>
      <ErrorNotice error={found.error ?? merge.error} />
      {merge.isSuccess ? (
        <SuccessNotice>
          Merged {merge.data.mergeCustomers.mergedIds.length} record; {merge.data.mergeCustomers.movedBookings} bookings
          moved here.
        </SuccessNotice>
      ) : null}
      {search && found.isFetched && others.length === 0 ? <Empty>No other customer starts with that.</Empty> : null}
      {others.length > 0 ? (
        <TableWrap label="Possible duplicates" stackable>
          <thead>
            <tr>
              <th scope="col">Customer</th>
              <th scope="col">Phone</th>
              <th scope="col" className="numeric">
                Bookings
              </th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {others.map((other) => (
              <tr key={other.id}>
                <td className="text" data-label="Customer">
                  <Link to={`/customers/${other.id}`}>{other.name}</Link>
                  <span className="small muted block">{other.email ?? '—'}</span>
                </td>
                <td data-label="Phone">{other.phone ?? '—'}</td>
                <td className="numeric" data-label="Bookings">
                  {other.bookingCount}
                </td>
                <td data-label="Action">
                  <ConfirmButton
                    label="Merge into this customer"
                    confirmLabel="Yes, merge"
                    question={`Merge ${other.name} into this customer? It cannot be undone.`}
                    tone="secondary"
                    busy={merge.isPending}
                    onConfirm={() => merge.mutate({ targetId: id, sourceIds: [other.id] })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      ) : null}
    </Section>
  );
}

export function CustomerDetailPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const canWrite = session.can('customers:write');
  const notesId = useId();
  const query = useGraphQL(['customer', id], CustomerQuery, { id });
  const update = useGraphQLMutation(UpdateCustomer, [['customer'], ['customers']]);
  const erase = useGraphQLMutation(EraseCustomer, [['customer'], ['customers'], ['bookings']]);
  const customer = query.data?.customer;

  if (query.isPending) return <Loading />;
  if (!customer) return <ErrorNotice error={query.error} title="This customer could not be loaded" />;

  const save = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, 'email').trim();
    const phone = formText(form, 'phone').trim();
    update.mutate({
      id,
      name: formText(form, 'name').trim(),
      email: email || null,
      phone: phone || null,
      notes: formText(form, 'notes'),
      marketingConsent: form.get('marketingConsent') === 'on',
    });
  };
  const erased = customer.erasedAt !== null;

  return (
    <>
      <p className="breadcrumb">
        <Link to="/customers">Customers</Link> / {customer.name}
      </p>
      <PageHeader
        title={customer.name}
        description={
          erased
            ? `Erased ${dateTime(customer.erasedAt)}: the bookings stay, without the guest's details.`
            : `Customer since ${dateTime(customer.createdAt)}`
        }
        actions={
          <ExportCsvButton
            path={`customers/${customer.id}/export.json`}
            fileName={`customer-${customer.id}.json`}
            label="Export data (JSON)"
            accept="application/json"
          />
        }
      />
      <div className="stats">
        <Stat label="Bookings" value={String(customer.bookingCount)} />
        <Stat label="No-shows" value={String(customer.noShowCount)} />
        <Stat
          label="Total spent"
          value={
            customer.totalSpent.length ? customer.totalSpent.map((t) => money(t.net, t.currency)).join(' · ') : money(0)
          }
        />
      </div>
      <Section
        title="Details"
        description={erased ? undefined : 'The email is unique among your customers; a phone needs its country code.'}
      >
        {erased ? (
          <p>This customer was erased. Nothing personal is kept.</p>
        ) : (
          <form
            className="stack"
            onSubmit={save}
            aria-label="Customer details"
            key={`${customer.id}-${customer.name}-${customer.notes}`}
          >
            <Field
              label="Name"
              name="name"
              required
              maxLength={200}
              defaultValue={customer.name}
              disabled={!canWrite}
              error={fieldErrorOf(update.error, 'name')}
            />
            <Field
              label="Email"
              name="email"
              type="email"
              maxLength={254}
              defaultValue={customer.email ?? ''}
              disabled={!canWrite}
              error={fieldErrorOf(update.error, 'email')}
            />
            <Field
              label="Phone"
              name="phone"
              type="tel"
              maxLength={40}
              defaultValue={customer.phone ?? ''}
              disabled={!canWrite}
              error={fieldErrorOf(update.error, 'phone')}
            />
            <div className="field">
              <label htmlFor={notesId}>Notes</label>
              <textarea
                id={notesId}
                name="notes"
                rows={4}
                maxLength={5000}
                defaultValue={customer.notes}
                disabled={!canWrite}
              />
            </div>
            <label className="checkbox">
              <input
                type="checkbox"
                name="marketingConsent"
                defaultChecked={customer.marketingConsent}
                disabled={!canWrite}
              />
              Agreed to marketing messages
              {customer.marketingConsentAt ? ` (${dateTime(customer.marketingConsentAt)})` : ''}
            </label>
            <ErrorNotice
              error={fieldErrorOf(update.error, 'email') || fieldErrorOf(update.error, 'phone') ? null : update.error}
            />
            {update.isSuccess ? <SuccessNotice>Saved.</SuccessNotice> : null}
            {canWrite ? (
              <div>
                <button type="submit" className="button button-primary" disabled={update.isPending}>
                  Save customer
                </button>
              </div>
            ) : null}
          </form>
        )}
      </Section>
      <Section title="Bookings" description={`${customer.bookings.totalCount} in all, newest first`}>
        {customer.bookings.nodes.length === 0 ? (
          <Empty>No bookings.</Empty>
        ) : (
          <TableWrap label="The customer's bookings" stackable>
            <thead>
              <tr>
                <th scope="col">Booking</th>
                <th scope="col">Object</th>
                <th scope="col">Time</th>
                <th scope="col">Status</th>
                <th scope="col" className="numeric">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {customer.bookings.nodes.map((booking) => (
                <tr key={booking.id}>
                  <td data-label="Booking">
                    <Link to={`/bookings/${booking.id}`}>{booking.reference}</Link>
                  </td>
                  <td className="text" data-label="Object">
                    {booking.objectName}
                  </td>
                  <td className="nowrap" data-label="Time">
                    {timeRange(booking.startTime, booking.endTime)}
                  </td>
                  <td data-label="Status">
                    <Badge value={booking.status} />
                  </td>
                  <td className="numeric" data-label="Total">
                    {money(booking.totalPrice, booking.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Section>
      {canWrite && !erased ? <MergeSection id={customer.id} /> : null}
      {canWrite && !erased ? (
        <Section
          title="Erase customer"
          description="For a guest's request to be forgotten (GDPR): the bookings and payments stay, but the name, email, phone and notes are removed from this record, every booking, the messages and the logs. It cannot be undone."
        >
          <ErrorNotice error={erase.error} />
          <ConfirmButton
            label="Erase customer"
            confirmLabel="Yes, erase"
            question={`Erase ${customer.name} for good?`}
            busy={erase.isPending}
            onConfirm={() =>
              erase.mutate(
                { id: customer.id },
                { onSuccess: () => void navigate(`/customers/${customer.id}`, { replace: true }) },
              )
            }
          />
        </Section>
      ) : null}
    </>
  );
}
