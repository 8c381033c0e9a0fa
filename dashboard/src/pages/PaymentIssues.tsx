import { Link } from 'react-router';
import { graphql } from '../gql';
import { useGraphQL, useGraphQLMutation } from '../api/hooks';
import { ErrorNotice } from '../components/ui';
import { ConfirmButton } from '../components/ConfirmButton';
import { dateTime, money } from '../format';
import { useSession } from '../session';

// The front page's notice of money Portier could not settle by itself (issue #42, docs/payments.md
// "Payment issues"): refunds that failed for good and differences with Stripe. Shown only while
// there is one; each links to its booking, and staff who may change bookings retry the refund or
// mark the issue settled.

const IssuesQuery = graphql(`
  query DashboardPaymentIssues {
    paymentIssues {
      id
      kind
      bookingId
      amount
      currency
      detail
      since
      retryable
    }
  }
`);

const Retry = graphql(`
  mutation DashboardRetryRefund($bookingId: ID!) {
    retryRefund(bookingId: $bookingId) {
      id
    }
  }
`);

const Acknowledge = graphql(`
  mutation DashboardAcknowledgePaymentIssue($id: ID!) {
    acknowledgePaymentIssue(id: $id) {
      id
      acknowledgedAt
    }
  }
`);

const KIND: Record<string, string> = {
  refund_failed: 'Refund failed',
  refund_not_at_provider: 'Refund missing at Stripe',
  refund_not_recordable: 'Stripe refund Portier cannot record',
  session_not_applied: 'Stripe payment not applied',
  checkout_amount_mismatch: 'Payment for the wrong amount',
};

export function PaymentIssuesNotice() {
  const session = useSession();
  const issues = useGraphQL(['paymentIssues'], IssuesQuery, {}, { refetchInterval: 60_000 });
  const retry = useGraphQLMutation(Retry, [['paymentIssues'], ['bookings']]);
  const acknowledge = useGraphQLMutation(Acknowledge, [['paymentIssues']]);
  const list = issues.data?.paymentIssues ?? [];
  if (issues.error) return <ErrorNotice error={issues.error} title="Payment issues could not be loaded" />;
  if (list.length === 0) return null;
  const canAct = session.can('bookings:write');
  return (
    <section className="notice notice-warning payment-issues" aria-labelledby="payment-issues-title">
      <h2 id="payment-issues-title" className="notice-title">
        {list.length === 1 ? '1 payment needs attention' : `${String(list.length)} payments need attention`}
      </h2>
      <p className="small">
        Portier could not settle these with Stripe by itself. Open the booking, give the money back by hand or retry the
        refund, then mark the issue settled.
      </p>
      <ErrorNotice error={retry.error ?? acknowledge.error} />
      <ul className="plain-list">
        {list.map((issue) => (
          <li key={issue.id} className="payment-issue">
            <div>
              <span className="strong">{KIND[issue.kind] ?? issue.kind.replace(/_/g, ' ')}</span> ·{' '}
              {money(issue.amount, issue.currency)} ·{' '}
              <Link to={`/bookings/${issue.bookingId}`}>booking {issue.bookingId.slice(0, 8)}</Link>{' '}
              <span className="muted small">since {dateTime(issue.since)}</span>
              <div className="small break">{issue.detail}</div>
            </div>
            {canAct ? (
              <div className="button-row">
                {issue.retryable ? (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={retry.isPending}
                    onClick={() => retry.mutate({ bookingId: issue.bookingId })}
                  >
                    Retry refund
                  </button>
                ) : null}
                <ConfirmButton
                  label="Mark settled"
                  confirmLabel="Yes, settled"
                  question="Settled by hand?"
                  tone="secondary"
                  busy={acknowledge.isPending}
                  onConfirm={() => acknowledge.mutate({ id: issue.id })}
                />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
