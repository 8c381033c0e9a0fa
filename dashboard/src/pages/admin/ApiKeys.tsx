import { useState, type SubmitEvent } from 'react';
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
import { dateTime } from '../../format';
import { SCOPES } from '../../scopes';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';

const ApiKeysQuery = graphql(`
  query DashboardApiKeys {
    apiKeys {
      id
      name
      prefix
      scopes
      rateLimitPerMinute
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

const CreateApiKey = graphql(`
  mutation DashboardCreateApiKey($name: String!, $scopes: [String!]!, $rateLimitPerMinute: Int) {
    createApiKey(name: $name, scopes: $scopes, rateLimitPerMinute: $rateLimitPerMinute) {
      apiKey
      apiKeyInfo {
        id
        name
      }
    }
  }
`);

const RevokeApiKey = graphql(`
  mutation DashboardRevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);

export function ApiKeysPage() {
  const keys = useGraphQL(['apiKeys'], ApiKeysQuery, {});
  const create = useGraphQLMutation(CreateApiKey, [['apiKeys']]);
  const revoke = useGraphQLMutation(RevokeApiKey, [['apiKeys']]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const limit = formText(form, 'rateLimitPerMinute').trim();
    create.mutate(
      {
        name: formText(form, 'name'),
        scopes: form.getAll('scopes').map(String),
        rateLimitPerMinute: limit ? Number(limit) : undefined,
      },
      {
        onSuccess: (data) => {
          setCreated({ name: data.createApiKey.apiKeyInfo.name, key: data.createApiKey.apiKey });
          formElement.reset();
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="API Keys"
        description="Keys let your own software call Portier's GraphQL and REST API. Each key holds only the scopes you give it."
      />
      <Section title="Create an API key">
        <form className="stack" onSubmit={submit} aria-label="Create an API key">
          <ErrorNotice error={formLevelError(create.error, ['name', 'scopes', 'rateLimitPerMinute'])} />
          <div className="form-row">
            <Field
              label="Name"
              name="name"
              required
              placeholder="e.g. Booking website"
              error={fieldErrorOf(create.error, 'name')}
            />
            <Field
              label="Requests per minute"
              name="rateLimitPerMinute"
              type="number"
              min={1}
              inputMode="numeric"
              hint="Leave empty for the server default."
              error={fieldErrorOf(create.error, 'rateLimitPerMinute')}
            />
          </div>
          <CheckboxGroup
            legend="Scopes"
            name="scopes"
            options={SCOPES.map((scope) => ({ value: scope, label: scope }))}
            error={fieldErrorOf(create.error, 'scopes')}
          />
          <div>
            <button type="submit" className="button button-primary" disabled={create.isPending}>
              Create API key
            </button>
          </div>
        </form>
        {created ? (
          <SecretReveal
            label={`API key “${created.name}”`}
            value={created.key}
            note="Copy it now: Portier stores only a hash and cannot show it again."
          />
        ) : null}
      </Section>
      <Section title="Keys">
        <ErrorNotice error={keys.error ?? revoke.error} />
        {keys.isPending ? (
          <Loading />
        ) : keys.data?.apiKeys.length === 0 ? (
          <Empty>No API keys yet.</Empty>
        ) : (
          <TableWrap label="API keys" stackable>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data?.apiKeys.map((key) => (
                <tr key={key.id}>
                  <td className="strong" data-label="Name">
                    {key.name}
                  </td>
                  <td data-label="Prefix">
                    <code>{key.prefix}…</code>
                  </td>
                  <td data-label="Scopes">
                    <ul className="tags">
                      {key.scopes.map((scope) => (
                        <li key={scope} className="tag tag-code">
                          {scope}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="nowrap" data-label="Created">
                    {dateTime(key.createdAt)}
                  </td>
                  <td className="nowrap" data-label="Last used">
                    {key.lastUsedAt ? dateTime(key.lastUsedAt) : 'Never'}
                  </td>
                  <td data-label="Status">{key.revokedAt ? <Badge value="REVOKED" /> : <Badge value="active" />}</td>
                  <td className="actions">
                    {key.revokedAt ? null : (
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel="Yes, revoke"
                        question={`Revoke “${key.name}”? It stops working at once.`}
                        busy={revoke.isPending}
                        onConfirm={() => revoke.mutate({ id: key.id })}
                      />
                    )}
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
