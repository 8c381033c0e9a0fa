import { useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { graphql } from '../gql';
import { useGraphQLMutation } from '../api/hooks';
import { endOwnSession, listOwnSessions } from '../api/session';
import {
  Badge,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SuccessNotice,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../components/ui';
import { browserZone, dateTime, relative } from '../format';
import { shortUserAgent } from './user-agent';
import { ConfirmButton } from '../components/ConfirmButton';
import { useSession, useSessionApi } from '../session';
import { formText } from '../form-data';

// "Your account": every signed-in user's own page, whatever the role (staff cannot open Team).
// Password change, and signing out this browser or every session of the user.

export function AccountPage() {
  const session = useSession();
  return (
    <>
      <PageHeader
        title="Your account"
        description={
          <>
            <span className="break">{session.user.email}</span> · {session.user.role.toLowerCase()} at{' '}
            <span className="break">{session.tenant.name}</span>
          </>
        }
      />
      <ChangePassword />
      <Sessions />
    </>
  );
}

function Sessions() {
  const session = useSession();
  const { signOut } = useSessionApi();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['ownSessions'], queryFn: listOwnSessions });
  const end = useMutation({
    mutationFn: (id: string) => endOwnSession(session.csrfToken, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ownSessions'] }),
  });
  const everywhere = () => {
    setBusy(true);
    signOut(true).catch((e: unknown) => {
      setError(e);
      setBusy(false);
    });
  };
  return (
    <Section
      title="Your sessions"
      description="A session ends after 2 hours unused and 12 hours after sign-in. Lost a phone or used a shared computer? End every session, this one included."
    >
      <ErrorNotice error={error ?? end.error ?? list.error} title="Sign-out failed" />
      {list.isPending ? (
        <Loading />
      ) : list.data ? (
        <TableWrap label="Your sessions" stackable>
          <caption className="visually-hidden">Times in your browser's zone, {browserZone()}</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((own) => (
              <tr key={own.id} aria-current={own.current ? 'true' : undefined}>
                <td data-label="Browser">
                  <span className="strong" title={own.userAgent ?? undefined}>
                    {shortUserAgent(own.userAgent)}
                  </span>{' '}
                  {own.current ? <Badge value="active" label="this session" /> : null}
                  {own.ip ? <span className="small muted block">from {own.ip}</span> : null}
                </td>
                <td className="nowrap" data-label="Signed in">
                  {dateTime(own.createdAt)}
                </td>
                <td className="nowrap" data-label="Last used">
                  {own.current ? 'now' : relative(own.lastSeenAt)}
                </td>
                <td className="actions">
                  {/* This browser's own session signs out with "Sign out of this browser" below. */}
                  {own.current ? null : (
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      disabled={end.isPending}
                      aria-label={`Sign out ${shortUserAgent(own.userAgent)}, signed in ${dateTime(own.createdAt)}`}
                      onClick={() => end.mutate(own.id)}
                    >
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      ) : null}
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={() => signOut().catch(setError)}>
          Sign out of this browser
        </button>
        <ConfirmButton
          label="Sign out everywhere"
          confirmLabel="Yes, sign out everywhere"
          question="End every session of your account, on every device?"
          busy={busy}
          onConfirm={everywhere}
        />
      </div>
    </Section>
  );
}

const ChangePasswordMutation = graphql(`
  mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {
      signedOutSessions
    }
  }
`);

function ChangePassword() {
  const change = useGraphQLMutation(ChangePasswordMutation, [['users']]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    change.mutate(
      { currentPassword: formText(form, 'currentPassword'), newPassword: formText(form, 'newPassword') },
      { onSuccess: () => formElement.reset() },
    );
  };
  return (
    <Section title="Password" description="Changing it signs out your other sessions; this one stays signed in.">
      <form className="stack" onSubmit={submit} aria-label="Change your password">
        <ErrorNotice error={formLevelError(change.error, ['currentPassword', 'newPassword'])} />
        {change.data ? (
          <SuccessNotice>
            Password changed; {change.data.changePassword.signedOutSessions} other{' '}
            {change.data.changePassword.signedOutSessions === 1 ? 'session was' : 'sessions were'} signed out.
          </SuccessNotice>
        ) : null}
        <div className="form-row">
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
            error={fieldErrorOf(change.error, 'currentPassword')}
          />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            hint="At least 12 characters."
            error={fieldErrorOf(change.error, 'newPassword')}
          />
        </div>
        <div>
          <button type="submit" className="button button-secondary" disabled={change.isPending}>
            Change password
          </button>
        </div>
      </form>
    </Section>
  );
}
