import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  CheckboxGroup,
  Empty,
  ErrorNotice,
  Loading,
  PageHeader,
  SecretReveal,
  Section,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime, relative } from '../../format';
import { SCOPES } from '../../scopes';
import { formText } from '../../form-data';

const AppsQuery = graphql(`
  query DashboardOAuthApps {
    oauthApps {
      clientId
      name
      redirectUris
      scopes
      public
      createdAt
      secretRotatedAt
      authorizedTenantCount
    }
  }
`);

const CreateApp = graphql(`
  mutation DashboardCreateOAuthApp($name: String!, $redirectUris: [String!]!, $scopes: [String!]!, $public: Boolean) {
    createOAuthApp(name: $name, redirectUris: $redirectUris, scopes: $scopes, public: $public) {
      clientSecret
      app {
        clientId
        name
      }
    }
  }
`);

const RotateSecret = graphql(`
  mutation DashboardRotateOAuthAppSecret($clientId: ID!) {
    rotateOAuthAppSecret(clientId: $clientId) {
      clientSecret
      app {
        clientId
        name
      }
    }
  }
`);

const DeleteApp = graphql(`
  mutation DashboardDeleteOAuthApp($clientId: ID!) {
    deleteOAuthApp(clientId: $clientId)
  }
`);

const ConnectedQuery = graphql(`
  query DashboardConnectedApps {
    connectedApps {
      clientId
      name
      ownerTenantName
      scopes
      authorizedAt
      lastUsedAt
    }
  }
`);

const RevokeConnected = graphql(`
  mutation DashboardRevokeConnectedApp($clientId: ID!) {
    revokeConnectedApp(clientId: $clientId)
  }
`);

interface Credentials {
  name: string;
  clientId: string;
  clientSecret: string | null;
}

export function OAuthAppsPage() {
  const apps = useGraphQL(['oauthApps'], AppsQuery, {});
  const create = useGraphQLMutation(CreateApp, [['oauthApps']]);
  const rotate = useGraphQLMutation(RotateSecret, [['oauthApps']]);
  const remove = useGraphQLMutation(DeleteApp, [['oauthApps']]);
  const [shown, setShown] = useState<Credentials | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const redirectUris = formText(form, 'redirectUris')
      .split(/\s+/)
      .map((uri) => uri.trim())
      .filter(Boolean);
    create.mutate(
      {
        name: formText(form, 'name'),
        redirectUris,
        scopes: form.getAll('scopes').map(String),
        public: form.get('public') === 'on',
      },
      {
        onSuccess: (data) => {
          setShown({
            name: data.createOAuthApp.app.name,
            clientId: data.createOAuthApp.app.clientId,
            clientSecret: data.createOAuthApp.clientSecret,
          });
          formElement.reset();
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="OAuth Apps"
        description="Apps your venue builds for others: any Portier tenant can authorize them to act for it (authorization code with PKCE)."
      />
      <Section title="Register an app">
        <form className="stack" onSubmit={submit} aria-label="Register an OAuth app">
          <ErrorNotice error={formLevelError(create.error, ['name', 'redirectUris', 'scopes', 'public'])} />
          <div className="form-row">
            <div className="field">
              <label htmlFor="oauth-name">Name</label>
              <input
                id="oauth-name"
                name="name"
                required
                aria-invalid={fieldErrorOf(create.error, 'name') ? true : undefined}
              />
              {fieldErrorOf(create.error, 'name') ? (
                <p className="field-error">{fieldErrorOf(create.error, 'name')}</p>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor="oauth-redirects">Redirect URIs</label>
              <textarea
                id="oauth-redirects"
                name="redirectUris"
                rows={2}
                required
                aria-describedby="oauth-redirects-hint"
                placeholder="https://app.example.com/callback"
              />
              <p className="field-hint" id="oauth-redirects-hint">
                One per line; an authorization request must use one of them exactly.
              </p>
              {fieldErrorOf(create.error, 'redirectUris') ? (
                <p className="field-error">{fieldErrorOf(create.error, 'redirectUris')}</p>
              ) : null}
            </div>
          </div>
          <CheckboxGroup
            legend="Scopes it may ask for"
            name="scopes"
            options={SCOPES.filter((s) => s !== 'admin').map((scope) => ({ value: scope, label: scope }))}
            error={fieldErrorOf(create.error, 'scopes')}
          />
          <label className="checkbox">
            <input type="checkbox" name="public" />
            <span>Public app (mobile or single-page: no client secret)</span>
          </label>
          <div>
            <button type="submit" className="button button-primary" disabled={create.isPending}>
              Register app
            </button>
          </div>
        </form>
        {shown ? (
          <div className="stack">
            <SecretReveal
              label={`Client ID of “${shown.name}”`}
              value={shown.clientId}
              note="Public: it goes into the app's authorization requests."
            />
            {shown.clientSecret ? (
              <SecretReveal
                label="Client secret"
                value={shown.clientSecret}
                note="Shown only now: Portier keeps a hash of it."
              />
            ) : null}
          </div>
        ) : null}
      </Section>
      <Section title="Your apps">
        <ErrorNotice error={apps.error ?? rotate.error ?? remove.error} />
        {apps.isPending ? (
          <Loading />
        ) : apps.data?.oauthApps.length === 0 ? (
          <Empty>No OAuth apps registered.</Empty>
        ) : (
          <TableWrap label="OAuth apps" stackable>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Redirect URIs</th>
                <th scope="col">Scopes</th>
                <th scope="col" className="numeric">
                  Tenants
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data?.oauthApps.map((app) => (
                <tr key={app.clientId}>
                  <td className="text" data-label="App">
                    <span className="strong block">
                      {app.name} {app.public ? <Badge value="info" label="public" /> : null}
                    </span>
                    <code className="small">{app.clientId}</code>
                  </td>
                  <td className="break" data-label="Redirect URIs">
                    {app.redirectUris.join(', ')}
                  </td>
                  <td data-label="Scopes">
                    <ul className="tags">
                      {app.scopes.map((scope) => (
                        <li key={scope} className="tag tag-code">
                          {scope}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="numeric" data-label="Tenants">
                    {app.authorizedTenantCount}
                  </td>
                  <td className="actions">
                    {app.public ? null : (
                      <ConfirmButton
                        label="Rotate secret"
                        confirmLabel="Yes, rotate"
                        tone="secondary"
                        question="The old secret stops working at once."
                        busy={rotate.isPending}
                        onConfirm={() =>
                          rotate.mutate(
                            { clientId: app.clientId },
                            {
                              onSuccess: (data) =>
                                setShown({
                                  name: data.rotateOAuthAppSecret.app.name,
                                  clientId: data.rotateOAuthAppSecret.app.clientId,
                                  clientSecret: data.rotateOAuthAppSecret.clientSecret,
                                }),
                            },
                          )
                        }
                      />
                    )}
                    <ConfirmButton
                      label="Delete"
                      confirmLabel="Yes, delete"
                      question={`Delete ${app.name}? Every grant and token ends.`}
                      busy={remove.isPending}
                      onConfirm={() => remove.mutate({ clientId: app.clientId })}
                    />
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

export function ConnectedAppsPage() {
  const apps = useGraphQL(['connectedApps'], ConnectedQuery, {});
  const revoke = useGraphQLMutation(RevokeConnected, [['connectedApps']]);
  return (
    <>
      <PageHeader
        title="Connected apps"
        description="Apps you authorized to act for your venue. Revoking one ends all its tokens at once."
      />
      <Section title="Authorized apps">
        <ErrorNotice error={apps.error ?? revoke.error} />
        {apps.isPending ? (
          <Loading />
        ) : apps.data?.connectedApps.length === 0 ? (
          <Empty>No app is connected.</Empty>
        ) : (
          <TableWrap label="Connected apps" stackable>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Scopes</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data?.connectedApps.map((app) => (
                <tr key={app.clientId}>
                  <td className="text" data-label="App">
                    <span className="strong block">{app.name}</span>
                    <span className="muted small">by {app.ownerTenantName}</span>
                  </td>
                  <td data-label="Scopes">
                    <ul className="tags">
                      {app.scopes.map((scope) => (
                        <li key={scope} className="tag tag-code">
                          {scope}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="nowrap" data-label="Authorized">
                    {dateTime(app.authorizedAt)}
                  </td>
                  <td className="nowrap" data-label="Last used">
                    {relative(app.lastUsedAt)}
                  </td>
                  <td className="actions">
                    <ConfirmButton
                      label="Revoke"
                      confirmLabel="Yes, revoke"
                      question={`Disconnect ${app.name}?`}
                      busy={revoke.isPending}
                      onConfirm={() => revoke.mutate({ clientId: app.clientId })}
                    />
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
