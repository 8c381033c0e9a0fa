import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import type { Locale, UserRole } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  Section,
  SelectField,
  SuccessNotice,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../format';
import { formText } from '../../form-data';

const InvitationsQuery = graphql(`
  query DashboardUserInvitations {
    userInvitations {
      id
      email
      role
      invitedBy
      createdAt
      expiresAt
      expired
    }
  }
`);

const InviteUser = graphql(`
  mutation DashboardInviteUser($email: String!, $role: UserRole, $locale: Locale) {
    inviteUser(email: $email, role: $role, locale: $locale) {
      id
      email
    }
  }
`);

const RevokeInvitation = graphql(`
  mutation DashboardRevokeUserInvitation($id: ID!) {
    revokeUserInvitation(id: $id) {
      revokedInvitationId
    }
  }
`);

const refreshes = [['userInvitations'], ['auditLog']];

/** "Invite by email" and the pending invitations (issue #43): the invitee chooses their own password. */
export function Invitations() {
  const invitations = useGraphQL(['userInvitations'], InvitationsQuery, {});
  const invite = useGraphQLMutation(InviteUser, refreshes);
  const revoke = useGraphQLMutation(RevokeInvitation, refreshes);
  const [sent, setSent] = useState<string | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setSent(null);
    invite.mutate(
      {
        email: formText(form, 'email'),
        role: formText(form, 'role', 'STAFF') as UserRole,
        locale: formText(form, 'locale', 'EN') as Locale,
      },
      {
        onSuccess: (data) => {
          setSent(data.inviteUser.email);
          formElement.reset();
        },
      },
    );
  };
  const resend = (invitation: { email: string; role: UserRole }) => {
    setSent(null);
    invite.mutate(
      { email: invitation.email, role: invitation.role },
      { onSuccess: (d) => setSent(d.inviteUser.email) },
    );
  };

  return (
    <>
      <Section
        title="Invite by email"
        description="The person gets a mail with a link, valid for 7 days, where they choose their own password."
      >
        <form className="stack" onSubmit={submit} aria-label="Invite by email">
          <ErrorNotice error={formLevelError(invite.error, ['email', 'role', 'locale'])} />
          {sent ? <SuccessNotice>Invitation mailed to {sent}.</SuccessNotice> : null}
          <div className="form-row">
            <Field
              label="Email address"
              name="email"
              type="email"
              required
              autoComplete="off"
              error={fieldErrorOf(invite.error, 'email')}
            />
            <SelectField label="Role" name="role" defaultValue="STAFF" error={fieldErrorOf(invite.error, 'role')}>
              <option value="STAFF">Staff</option>
              <option value="ADMIN">Admin</option>
            </SelectField>
            <SelectField label="Mail language" name="locale" defaultValue="EN">
              <option value="EN">English</option>
              <option value="DE">Deutsch</option>
            </SelectField>
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={invite.isPending}>
              {invite.isPending ? 'Sending…' : 'Send invitation'}
            </button>
          </div>
        </form>
      </Section>
      <Section title="Pending invitations" description="Sending again replaces the earlier link; revoking ends it.">
        <ErrorNotice error={invitations.error ?? revoke.error} />
        {invitations.isPending ? (
          <Loading />
        ) : invitations.data?.userInvitations.length === 0 ? (
          <Empty>No pending invitations.</Empty>
        ) : (
          <TableWrap label="Pending invitations" stackable>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited</th>
                <th scope="col">Link valid until</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.data?.userInvitations.map((invitation) => (
                <tr key={invitation.id}>
                  <td className="strong" data-label="Email">
                    {invitation.email}
                  </td>
                  <td data-label="Role">{invitation.role === 'ADMIN' ? 'Admin' : 'Staff'}</td>
                  <td className="nowrap" data-label="Invited">
                    {dateTime(invitation.createdAt)} by {invitation.invitedBy}
                  </td>
                  <td className="nowrap" data-label="Link valid until">
                    {invitation.expired ? <Badge value="PENDING" label="expired" /> : dateTime(invitation.expiresAt)}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      disabled={invite.isPending}
                      onClick={() => resend(invitation)}
                    >
                      Send again
                    </button>{' '}
                    <ConfirmButton
                      label="Revoke"
                      confirmLabel="Yes, revoke"
                      question={`Revoke the invitation of ${invitation.email}? Its link stops working.`}
                      busy={revoke.isPending}
                      onConfirm={() => revoke.mutate({ id: invitation.id })}
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
