import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import type { UserRole } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SelectField,
  SuccessNotice,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../format';
import { useSession } from '../../session';
import { AuditLog } from './AuditLog';
import { Invitations } from './Invitations';
import { formText } from '../../form-data';

const UsersQuery = graphql(`
  query DashboardUsers {
    users {
      id
      email
      role
      createdAt
      passwordChangedAt
    }
  }
`);

const CreateUser = graphql(`
  mutation DashboardCreateUser($email: String!, $password: String!, $role: UserRole) {
    createUser(email: $email, password: $password, role: $role) {
      id
      email
    }
  }
`);

const UpdateRole = graphql(`
  mutation DashboardUpdateUserRole($id: ID!, $role: UserRole!) {
    updateUserRole(id: $id, role: $role) {
      id
      role
    }
  }
`);

const RemoveUser = graphql(`
  mutation DashboardRemoveUser($id: ID!) {
    removeUser(id: $id) {
      removedUserId
    }
  }
`);

const ROLE_TEXT: Record<UserRole, string> = {
  ADMIN: 'Admin — everything, including API keys, webhooks and the team',
  STAFF: 'Staff — bookings, devices and the access log; reads the catalog and prices',
};

export function TeamPage() {
  const session = useSession();
  const users = useGraphQL(['users'], UsersQuery, {});
  const create = useGraphQLMutation(CreateUser, [['users'], ['auditLog']]);
  const updateRole = useGraphQLMutation(UpdateRole, [['users'], ['auditLog']]);
  const remove = useGraphQLMutation(RemoveUser, [['users'], ['auditLog']]);
  const [invited, setInvited] = useState<string | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    create.mutate(
      {
        email: formText(form, 'email'),
        password: formText(form, 'password'),
        role: formText(form, 'role', 'STAFF') as UserRole,
      },
      {
        onSuccess: (data) => {
          setInvited(data.createUser.email);
          formElement.reset();
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Team"
        description="People who sign in to this dashboard. A role grants the same scopes API keys use, so the API enforces it."
      />
      <Invitations />
      <Section
        title="Add with a password"
        description="Without mail: you choose an initial password and hand it over; they change it after signing in."
      >
        <form className="stack" onSubmit={submit} aria-label="Add a team member with a password">
          <ErrorNotice error={formLevelError(create.error, ['email', 'password', 'role'])} />
          {invited ? (
            <SuccessNotice>
              {invited} can sign in now. Hand over the initial password; they change it under Your account → Password.
            </SuccessNotice>
          ) : null}
          <div className="form-row">
            <Field
              label="Email address"
              name="email"
              type="email"
              required
              autoComplete="off"
              error={fieldErrorOf(create.error, 'email')}
            />
            <Field
              label="Initial password"
              name="password"
              type="password"
              required
              minLength={12}
              autoComplete="new-password"
              hint="At least 12 characters."
              error={fieldErrorOf(create.error, 'password')}
            />
            <SelectField label="Role" name="role" defaultValue="STAFF" error={fieldErrorOf(create.error, 'role')}>
              <option value="STAFF">Staff</option>
              <option value="ADMIN">Admin</option>
            </SelectField>
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={create.isPending}>
              Add member
            </button>
          </div>
        </form>
      </Section>
      <Section title="Members" description={`${ROLE_TEXT.ADMIN}. ${ROLE_TEXT.STAFF}.`}>
        <ErrorNotice error={users.error ?? updateRole.error ?? remove.error} />
        {users.isPending ? (
          <Loading />
        ) : users.data?.users.length === 0 ? (
          <Empty>No users.</Empty>
        ) : (
          <TableWrap label="Team members" stackable>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                <th scope="col">Password changed</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data?.users.map((user) => {
                const self = user.id === session.user.id;
                return (
                  <tr key={user.id}>
                    <td className="strong" data-label="Email">
                      {user.email} {self ? <Badge value="info" label="you" /> : null}
                    </td>
                    <td data-label="Role">
                      {self ? (
                        <span>{user.role === 'ADMIN' ? 'Admin' : 'Staff'}</span>
                      ) : (
                        <select
                          aria-label={`Role of ${user.email}`}
                          value={user.role}
                          disabled={updateRole.isPending}
                          onChange={(event) => updateRole.mutate({ id: user.id, role: event.target.value as UserRole })}
                          className="select-inline"
                        >
                          <option value="ADMIN">Admin</option>
                          <option value="STAFF">Staff</option>
                        </select>
                      )}
                    </td>
                    <td className="nowrap" data-label="Member since">
                      {dateTime(user.createdAt)}
                    </td>
                    <td className="nowrap" data-label="Password changed">
                      {dateTime(user.passwordChangedAt)}
                    </td>
                    <td className="actions">
                      {self ? null : (
                        <ConfirmButton
                          label="Remove"
                          confirmLabel="Yes, remove"
                          question={`Remove ${user.email}? Their sessions end at once.`}
                          busy={remove.isPending}
                          onConfirm={() => remove.mutate({ id: user.id })}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </TableWrap>
        )}
      </Section>
      <AuditLog />
    </>
  );
}
