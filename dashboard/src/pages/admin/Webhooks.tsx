import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
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
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { TestResult } from './TestResult';
import { dateTime } from '../../format';
import { useSession } from '../../session';
import { formText } from '../../form-data';

/** Every type a subscription may list (docs/webhooks.md); the booking lifecycle ones are checked by default. */
export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.rescheduled',
  'device.offline',
  'device.online',
  'webhook.disabled',
];
const DEFAULT_EVENT_TYPES = ['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.completed'];

const WebhooksQuery = graphql(`
  query DashboardWebhooks {
    webhooks {
      id
      url
      events
      active
      createdAt
    }
  }
`);

const CreateWebhook = graphql(`
  mutation DashboardCreateWebhook($url: String!, $events: [String!]!, $secret: String!) {
    createWebhook(url: $url, events: $events, secret: $secret) {
      webhook {
        id
      }
    }
  }
`);

export const DeleteWebhook = graphql(`
  mutation DashboardDeleteWebhook($webhookId: ID!) {
    deleteWebhook(webhookId: $webhookId) {
      deleted
    }
  }
`);

export const TestWebhook = graphql(`
  mutation DashboardTestWebhook($webhookId: ID!) {
    testWebhook(webhookId: $webhookId) {
      eventId
      success
      statusCode
      durationMs
      error
    }
  }
`);

/** A random signing secret: 32 bytes, base64 with whsec_ (the Standard Webhooks form). */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export function WebhooksPage() {
  const session = useSession();
  const canWrite = session.can('webhooks:write');
  const webhooks = useGraphQL(['webhooks'], WebhooksQuery, {});
  const create = useGraphQLMutation(CreateWebhook, [['webhooks']]);
  const remove = useGraphQLMutation(DeleteWebhook, [['webhooks']]);
  const test = useGraphQLMutation(TestWebhook, [['webhookDeliveries']]);
  const [secret, setSecret] = useState(randomSecret);
  const [testedId, setTestedId] = useState<string | null>(null);
  /**
   * The webhook just saved, with its secret: shown once in place of the form, so no other secret
   * stands beside it; "Add another webhook" opens a fresh form (a new secret, the defaults).
   */
  const [saved, setSaved] = useState<{ url: string; secret: string } | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const sent = { url: formText(form, 'url'), events: form.getAll('events').map(String), secret };
    setSaved(null);
    create.mutate(sent, {
      onSuccess: () => {
        formElement.reset();
        setSaved({ url: sent.url, secret: sent.secret });
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Portier POSTs booking events to your endpoints, signed with each subscription's secret (Standard Webhooks)."
      />
      {canWrite ? (
        <Section title="Add an endpoint">
          {saved ? (
            <div className="stack">
              <SecretReveal
                label={`Signing secret of the webhook to ${saved.url}`}
                value={saved.secret}
                note="This is the secret the webhook was saved with. Copy it into your receiver now: Portier never shows it again."
              />
              <div>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => {
                    create.reset();
                    setSecret(randomSecret());
                    setSaved(null);
                  }}
                >
                  Add another webhook
                </button>
              </div>
            </div>
          ) : (
            <form className="stack" onSubmit={submit} aria-label="Add a webhook endpoint">
              <ErrorNotice error={formLevelError(create.error, ['url', 'events', 'secret'])} />
              <Field
                label="Endpoint URL"
                name="url"
                type="url"
                required
                placeholder="https://example.com/portier-events"
                error={fieldErrorOf(create.error, 'url')}
              />
              <CheckboxGroup
                legend="Events"
                name="events"
                options={EVENT_TYPES.map((type) => ({ value: type, label: type }))}
                defaultChecked={DEFAULT_EVENT_TYPES}
                error={fieldErrorOf(create.error, 'events')}
              />
              <div className="secret-input">
                <Field
                  label="Signing secret"
                  name="secret"
                  value={secret}
                  onChange={(event) => setSecret(event.target.value)}
                  required
                  autoComplete="off"
                  spellCheck={false}
                  className="field-mono"
                  hint="Generated for this webhook; after Create it is shown once, in place of this form, to copy into your receiver."
                  error={fieldErrorOf(create.error, 'secret')}
                />
                <button type="button" className="button button-secondary" onClick={() => setSecret(randomSecret())}>
                  New secret
                </button>
              </div>
              <div>
                <button type="submit" className="button button-primary" disabled={create.isPending}>
                  Create webhook
                </button>
              </div>
            </form>
          )}
        </Section>
      ) : null}
      <Section title="Endpoints">
        <ErrorNotice error={webhooks.error ?? remove.error ?? test.error} />
        {test.data && testedId ? <TestResult result={test.data.testWebhook} /> : null}
        {webhooks.isPending ? (
          <Loading />
        ) : webhooks.data?.webhooks.length === 0 ? (
          <Empty>No webhooks yet.</Empty>
        ) : (
          <TableWrap label="Webhooks" stackable>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data?.webhooks.map((webhook) => (
                <tr key={webhook.id}>
                  <td className="break wide" data-label="Endpoint">
                    <Link to={`/admin/webhooks/${webhook.id}`}>{webhook.url}</Link>
                  </td>
                  <td data-label="Events">
                    <ul className="tags">
                      {webhook.events.map((type) => (
                        <li key={type} className="tag tag-code">
                          {type}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label="Status">
                    <Badge value={webhook.active ? 'active' : 'inactive'} />
                  </td>
                  <td className="nowrap" data-label="Created">
                    {dateTime(webhook.createdAt)}
                  </td>
                  <td className="actions">
                    <Link className="button button-secondary button-small" to={`/admin/webhooks/${webhook.id}`}>
                      Delivery log
                    </Link>
                    {canWrite ? (
                      <>
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={test.isPending}
                          onClick={() => {
                            setTestedId(webhook.id);
                            test.mutate({ webhookId: webhook.id });
                          }}
                        >
                          Send test
                        </button>
                        <ConfirmButton
                          label="Delete"
                          confirmLabel="Yes, delete"
                          question={`Delete the webhook to ${webhook.url} and its delivery log?`}
                          busy={remove.isPending}
                          onConfirm={() => remove.mutate({ webhookId: webhook.id })}
                        />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Section>
    </>
  );
}
