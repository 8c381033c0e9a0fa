import { Fragment, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { WebhookDeliveryStatus } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { Badge, Empty, ErrorNotice, Loading, PageHeader, Section, SelectField, TableWrap } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { TestResult } from './TestResult';
import { DeleteWebhook, TestWebhook } from './Webhooks';
import { dateTime } from '../../format';
import { useSession } from '../../session';

const WebhookQuery = graphql(`
  query DashboardWebhook($id: ID!, $status: WebhookDeliveryStatus) {
    webhook(id: $id) {
      id
      url
      events
      active
      createdAt
    }
    webhookDeliveries(webhookId: $id, status: $status, first: 50) {
      deliveries {
        id
        eventId
        eventType
        status
        attemptCount
        lastStatusCode
        lastError
        lastAttemptAt
        nextAttemptAt
        createdAt
        attempts {
          attemptedAt
          statusCode
          durationMs
          error
        }
      }
    }
  }
`);

const Redeliver = graphql(`
  mutation DashboardRedeliver($webhookId: ID!, $eventId: ID!) {
    redeliverWebhookEvent(webhookId: $webhookId, eventId: $eventId) {
      delivery {
        id
        status
      }
    }
  }
`);

export function WebhookPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const canWrite = session.can('webhooks:write');
  const navigate = useNavigate();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const query = useGraphQL(['webhookDeliveries', id], WebhookQuery, { id, status: status || undefined }, { refetchInterval: 10_000 });
  const test = useGraphQLMutation(TestWebhook, [['webhookDeliveries']]);
  const redeliver = useGraphQLMutation(Redeliver, [['webhookDeliveries']]);
  const remove = useGraphQLMutation(DeleteWebhook, [['webhooks']]);

  const webhook = query.data?.webhook;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/admin/webhooks">Webhooks</Link> / Delivery log
      </p>
      <PageHeader
        title="Webhook deliveries"
        description={webhook ? <span className="break">{webhook.url}</span> : undefined}
        actions={
          canWrite && webhook ? (
            <>
              <button type="button" className="button button-secondary" disabled={test.isPending} onClick={() => test.mutate({ webhookId: id })}>
                Send test
              </button>
              <ConfirmButton
                label="Delete"
                confirmLabel="Yes, delete"
                question="Delete this webhook and its delivery log?"
                onConfirm={() => remove.mutate({ webhookId: id }, { onSuccess: () => void navigate('/admin/webhooks') })}
              />
            </>
          ) : undefined
        }
      />
      <ErrorNotice error={query.error ?? test.error ?? redeliver.error ?? remove.error} />
      {test.data ? <TestResult result={test.data.testWebhook} /> : null}
      {webhook ? (
        <Section title="Subscription">
          <dl className="facts facts-row">
            <div>
              <dt>Status</dt>
              <dd>
                <Badge value={webhook.active ? 'active' : 'inactive'} />
              </dd>
            </div>
            <div>
              <dt>Events</dt>
              <dd>{webhook.events.join(', ')}</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{dateTime(webhook.createdAt)}</dd>
            </div>
          </dl>
        </Section>
      ) : null}
      <Section
        title="Delivery log"
        description="Newest first. Each delivery keeps its event id on every attempt."
        actions={
          <SelectField label="Status" value={status} onChange={(event) => setStatus(event.target.value as WebhookDeliveryStatus | '')} className="field-compact">
            <option value="">All</option>
            <option value="PENDING">Pending</option>
            <option value="SUCCEEDED">Succeeded</option>
            <option value="FAILED">Failed</option>
          </SelectField>
        }
      >
        {query.isPending ? (
          <Loading />
        ) : query.data?.webhookDeliveries.deliveries.length === 0 ? (
          <Empty>No deliveries yet. Send a test event to check the endpoint.</Empty>
        ) : (
          <TableWrap label="Deliveries" stackable>
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
              {query.data?.webhookDeliveries.deliveries.map((delivery) => (
                <Fragment key={delivery.id}>
                  <tr>
                    <td data-label="Event">
                      <span className="strong block">{delivery.eventType}</span>
                      <code className="small muted">{delivery.eventId}</code>
                    </td>
                    <td data-label="Status">
                      <Badge value={delivery.status} />
                      {delivery.nextAttemptAt ? <p className="small muted">next {dateTime(delivery.nextAttemptAt)}</p> : null}
                    </td>
                    <td data-label="Attempts">
                      <button type="button" className="link-button" aria-expanded={open === delivery.id} onClick={() => setOpen(open === delivery.id ? null : delivery.id)}>
                        {delivery.attemptCount} {delivery.attemptCount === 1 ? 'attempt' : 'attempts'}
                      </button>
                    </td>
                    <td data-label="Last response">{delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '—')}</td>
                    <td className="nowrap" data-label="Created">
                      {dateTime(delivery.createdAt)}
                    </td>
                    <td className="actions">
                      {canWrite ? (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={redeliver.isPending}
                          onClick={() => redeliver.mutate({ webhookId: id, eventId: delivery.eventId })}
                        >
                          Redeliver
                        </button>
                      ) : null}
                    </td>
                  </tr>
                  {open === delivery.id ? (
                    <tr className="subrow">
                      <td colSpan={6}>
                        <ol className="attempts">
                          {delivery.attempts.map((attempt, index) => (
                            <li key={attempt.attemptedAt + String(index)}>
                              <span className="strong">Attempt {index + 1}</span> · {dateTime(attempt.attemptedAt)} ·{' '}
                              {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : 'no response'} · {attempt.durationMs} ms
                              {attempt.error ? ` · ${attempt.error}` : ''}
                            </li>
                          ))}
                        </ol>
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Section>
    </>
  );
}
