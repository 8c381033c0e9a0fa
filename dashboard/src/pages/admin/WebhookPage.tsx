import { Fragment, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { WebhookDeliveryStatus } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  CheckboxGroup,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  SecretReveal,
  Section,
  SelectField,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { TestResult } from './TestResult';
import { DeleteWebhook, EVENT_TYPES, TestWebhook } from './Webhooks';
import { dateTime } from '../../format';
import { useSession } from '../../session';
import { formText } from '../../form-data';

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
          requestHeaders {
            name
            value
          }
          requestBody
          responseHeaders {
            name
            value
          }
          responseBody
          responseBodyTruncated
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

const UpdateWebhook = graphql(`
  mutation DashboardUpdateWebhook($webhookId: ID!, $url: String, $events: [String!], $active: Boolean) {
    updateWebhook(webhookId: $webhookId, url: $url, events: $events, active: $active) {
      webhook {
        id
      }
    }
  }
`);

const RotateSecret = graphql(`
  mutation DashboardRotateWebhookSecret($webhookId: ID!) {
    rotateWebhookSecret(webhookId: $webhookId) {
      secret
      previousSecretExpiresAt
    }
  }
`);

interface Exchange {
  statusCode: number | null;
  error: string | null;
  requestHeaders: { name: string; value: string }[] | null;
  requestBody: string | null;
  responseHeaders: { name: string; value: string }[] | null;
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

/** A JSON body indented for reading; anything else as it came. */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Headers({ headers, label }: { headers: { name: string; value: string }[]; label: string }) {
  return (
    <dl className="headers" aria-label={label}>
      {headers.map((header) => (
        <div key={header.name}>
          <dt>{header.name}</dt>
          <dd>{header.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What one attempt sent and what came back (the response body's first 4 KiB). */
function AttemptExchange({ attempt, number }: { attempt: Exchange; number: number }) {
  if (!attempt.requestHeaders && !attempt.requestBody)
    return <p className="small muted">The request of this attempt was not kept (made before Portier kept them).</p>;
  return (
    <div className="exchange">
      <section aria-label={`Attempt ${number}: request`}>
        <h4>Request</h4>
        {attempt.requestHeaders ? (
          <Headers headers={attempt.requestHeaders} label={`Attempt ${number}: request headers`} />
        ) : null}
        {attempt.requestBody ? (
          <pre className="body" role="region" tabIndex={0} aria-label={`Attempt ${number}: request body`}>
            {readable(attempt.requestBody)}
          </pre>
        ) : null}
      </section>
      <section aria-label={`Attempt ${number}: response`}>
        <h4>Response{attempt.statusCode !== null ? ` · HTTP ${attempt.statusCode}` : ''}</h4>
        {attempt.responseHeaders ? (
          <>
            <Headers headers={attempt.responseHeaders} label={`Attempt ${number}: response headers`} />
            {attempt.responseBody ? (
              <pre className="body" role="region" tabIndex={0} aria-label={`Attempt ${number}: response body`}>
                {readable(attempt.responseBody)}
              </pre>
            ) : (
              <p className="small muted">Empty body.</p>
            )}
            {attempt.responseBodyTruncated ? (
              <p className="small muted">Only the first 4 KiB of the body is kept.</p>
            ) : null}
          </>
        ) : (
          <p className="small muted">No response arrived{attempt.error ? `: ${attempt.error}` : ''}.</p>
        )}
      </section>
    </div>
  );
}

/** Edit the receiver URL, the events and whether it is active; rotate the signing secret. */
function EditWebhook({ webhook }: { webhook: { id: string; url: string; events: string[]; active: boolean } }) {
  const update = useGraphQLMutation(UpdateWebhook, [['webhookDeliveries'], ['webhooks']]);
  const rotate = useGraphQLMutation(RotateSecret, [['webhookDeliveries']]);
  const [editing, setEditing] = useState(false);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    update.mutate(
      {
        webhookId: webhook.id,
        url: formText(form, 'url'),
        events: form.getAll('events').map(String),
        active: form.get('active') === 'on',
      },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <>
      {editing ? (
        <form className="stack inset" onSubmit={submit} aria-label="Edit the webhook">
          <ErrorNotice error={formLevelError(update.error, ['url', 'events', 'active'])} />
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            required
            defaultValue={webhook.url}
            error={fieldErrorOf(update.error, 'url')}
          />
          <CheckboxGroup
            legend="Events"
            name="events"
            options={EVENT_TYPES.map((type) => ({ value: type, label: type }))}
            defaultChecked={webhook.events}
            error={fieldErrorOf(update.error, 'events')}
          />
          <label className="checkbox">
            <input type="checkbox" name="active" defaultChecked={webhook.active} />
            <span>Active (deliveries are sent)</span>
          </label>
          <div className="button-row">
            <button type="submit" className="button button-primary button-small" disabled={update.isPending}>
              Save webhook
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <ErrorNotice error={rotate.error} />
      {rotate.data?.rotateWebhookSecret.secret ? (
        <SecretReveal
          label="The webhook's new signing secret"
          value={rotate.data.rotateWebhookSecret.secret}
          note={`Copy it into your receiver now: Portier never shows it again. Until ${dateTime(rotate.data.rotateWebhookSecret.previousSecretExpiresAt)} deliveries are signed with the old secret too.`}
        />
      ) : null}
      <div className="button-row">
        {!editing ? (
          <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
            Edit webhook
          </button>
        ) : null}
        <ConfirmButton
          label="Rotate secret"
          confirmLabel="Yes, rotate"
          tone="secondary"
          question="Generate a new signing secret? The old one keeps signing for 24 hours."
          busy={rotate.isPending}
          onConfirm={() => rotate.mutate({ webhookId: webhook.id })}
        />
      </div>
    </>
  );
}

export function WebhookPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const canWrite = session.can('webhooks:write');
  const navigate = useNavigate();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const query = useGraphQL(
    ['webhookDeliveries', id],
    WebhookQuery,
    { id, status: status || undefined },
    { refetchInterval: 10_000 },
  );
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
              <button
                type="button"
                className="button button-secondary"
                disabled={test.isPending}
                onClick={() => test.mutate({ webhookId: id })}
              >
                Send test
              </button>
              <ConfirmButton
                label="Delete"
                confirmLabel="Yes, delete"
                question="Delete this webhook and its delivery log?"
                onConfirm={() =>
                  remove.mutate({ webhookId: id }, { onSuccess: () => void navigate('/admin/webhooks') })
                }
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
          {canWrite ? (
            <EditWebhook key={`${webhook.url} ${webhook.events.join()} ${String(webhook.active)}`} webhook={webhook} />
          ) : null}
        </Section>
      ) : null}
      <Section
        title="Delivery log"
        description="Newest first. Each delivery keeps its event id on every attempt."
        actions={
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => setStatus(event.target.value as WebhookDeliveryStatus | '')}
            className="field-compact"
          >
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
                      <span className="strong block nowrap">{delivery.eventType}</span>
                      <code className="small muted">{delivery.eventId}</code>
                    </td>
                    <td data-label="Status">
                      <Badge value={delivery.status} />
                      {delivery.nextAttemptAt ? (
                        <p className="small muted">next {dateTime(delivery.nextAttemptAt)}</p>
                      ) : null}
                    </td>
                    <td data-label="Attempts">
                      <button
                        type="button"
                        className="link-button"
                        aria-expanded={open === delivery.id}
                        onClick={() => setOpen(open === delivery.id ? null : delivery.id)}
                      >
                        {delivery.attemptCount} {delivery.attemptCount === 1 ? 'attempt' : 'attempts'}
                      </button>
                    </td>
                    <td data-label="Last response">
                      {delivery.lastStatusCode !== null
                        ? `HTTP ${delivery.lastStatusCode}`
                        : (delivery.lastError ?? '—')}
                    </td>
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
                              {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : 'no response'} ·{' '}
                              {attempt.durationMs} ms
                              {attempt.error ? ` · ${attempt.error}` : ''}
                              <AttemptExchange attempt={attempt} number={index + 1} />
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
