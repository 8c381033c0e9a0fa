import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { Badge, Empty, ErrorNotice, Field, Loading, Section } from '../../components/ui';
import { dateTime, money } from '../../format';
import { useSession } from '../../session';
import { formText } from '../../form-data';

// The booking page's payment: where the money is, "Mark paid" (pay at the venue) and the payments
// timeline (every payment and refund, oldest first). docs/payments.md.

const PaymentQuery = graphql(`
  query DashboardBookingPayment($id: ID!) {
    booking(id: $id) {
      id
      status
      totalPrice
      currency
      payment {
        status
        amountPaid
        amountRefunded
        currency
        provider
        paidAt
      }
    }
    paymentRecords(bookingId: $id) {
      id
      kind
      provider
      amount
      currency
      reason
      note
      actor
      createdAt
    }
  }
`);

const MarkPaid = graphql(`
  mutation DashboardMarkBookingPaid($id: ID!, $amount: Int!, $note: String) {
    markBookingPaid(id: $id, amount: $amount, note: $note) {
      id
      status
      payment {
        status
      }
    }
  }
`);

const PROVIDER: Record<string, string> = { stripe: 'Stripe Checkout', venue: 'at the venue' };
const REASON: Record<string, string> = {
  checkout: 'paid online',
  venue: 'paid at the venue',
  cancellation: 'refund by the cancellation policy',
  cancelled_before_payment: 'paid after the booking was cancelled: refunded in full',
};

/** Euros as typed ("41", "41.5", "41,50") into cents, or null. */
function centsOf(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export function BookingPayments({ bookingId, zone }: { bookingId: string; zone: string }) {
  const session = useSession();
  const query = useGraphQL(['bookings', bookingId, 'payment'], PaymentQuery, { id: bookingId });
  const mark = useGraphQLMutation(MarkPaid, [['bookings']]);
  const [marking, setMarking] = useState(false);
  const [amountError, setAmountError] = useState<string | undefined>();

  if (query.isPending) return <Loading label="Loading the payment…" />;
  const booking = query.data?.booking;
  const records = query.data?.paymentRecords ?? [];
  if (!booking) return <ErrorNotice error={query.error} title="The payment could not be loaded" />;
  const { payment } = booking;
  const canMark = session.can('bookings:write') && payment.status === 'UNPAID' && booking.status !== 'CANCELLED';

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const amount = centsOf(formText(form, 'amount'));
    if (amount === null || amount < 1) {
      setAmountError('Enter the amount received, e.g. 41.00');
      return;
    }
    setAmountError(undefined);
    const note = formText(form, 'note').trim();
    mark.mutate({ id: bookingId, amount, note: note || null }, { onSuccess: () => setMarking(false) });
  };

  return (
    <Section
      title="Payment"
      description="What the guest paid and got back. Online payments arrive from Stripe; payments at the venue are recorded here."
      actions={
        canMark && !marking ? (
          <button type="button" className="button button-primary" onClick={() => setMarking(true)}>
            Mark paid
          </button>
        ) : undefined
      }
    >
      <ErrorNotice error={mark.error} />
      {marking ? (
        <form className="stack" onSubmit={submit} aria-label="Mark paid">
          <Field
            label="Amount received (€)"
            name="amount"
            inputMode="decimal"
            defaultValue={(booking.totalPrice / 100).toFixed(2)}
            error={amountError}
            required
          />
          <Field label="Note" name="note" hint="For example: cash, card terminal" maxLength={500} />
          <div className="button-row">
            <button type="submit" className="button button-primary" disabled={mark.isPending}>
              Record payment
            </button>
            <button type="button" className="button button-secondary" onClick={() => setMarking(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <Badge value={payment.status} />
          </dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd>
            {payment.amountPaid > 0
              ? `${money(payment.amountPaid, payment.currency)} ${payment.provider ? (PROVIDER[payment.provider] ?? payment.provider) : ''}`
              : 'Nothing paid yet'}
          </dd>
        </div>
        <div>
          <dt>Refunded</dt>
          <dd>{payment.amountRefunded > 0 ? money(payment.amountRefunded, payment.currency) : '—'}</dd>
        </div>
        <div>
          <dt>Paid at</dt>
          <dd>{dateTime(payment.paidAt, zone)}</dd>
        </div>
      </dl>
      <h3>Payments timeline</h3>
      {records.length === 0 ? (
        <Empty>No payments yet.</Empty>
      ) : (
        <ol className="timeline" aria-label="Payments timeline">
          {records.map((record) => (
            <li key={record.id}>
              <span className="nowrap muted">{dateTime(record.createdAt, zone)}</span>{' '}
              <strong>
                {record.kind === 'refund' ? 'Refunded' : 'Paid'} {money(record.amount, record.currency)}
              </strong>{' '}
              — {REASON[record.reason] ?? record.reason} ({PROVIDER[record.provider] ?? record.provider}; by{' '}
              {record.actor}){record.note ? <span className="small muted block">{record.note}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

/** What cancelling gives back, in words: "nothing was paid" when nothing was. */
export function CancellationMoney({
  quote,
}: {
  quote: {
    refundAmount: number;
    totalPrice: number;
    currency: string;
    policyName?: string | null;
    amountPaid: number;
    moneyBack: number;
  };
}) {
  if (quote.amountPaid <= 0) {
    return (
      <p className="refund" role="status">
        Nothing was paid, so nothing is refunded.
      </p>
    );
  }
  return (
    <p className="refund" role="status">
      The guest gets <strong>{money(quote.moneyBack, quote.currency)}</strong> back of the{' '}
      {money(quote.amountPaid, quote.currency)} paid
      {quote.policyName ? ` (policy “${quote.policyName}”)` : ' (no default cancellation policy: a full refund)'}.
    </p>
  );
}
