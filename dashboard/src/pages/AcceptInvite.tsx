import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { acceptInvitation, readInvitation } from '../api/staff';
import { ErrorNotice, Field, Loading, fieldErrorOf } from '../components/ui';
import { NewPasswordFields, useNewPasswordForm } from './new-password';
import { AuthCard } from './AuthCard';

/** The mailed invitation link (?token=…): the invitee chooses a password and becomes a user. */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => readInvitation(token),
    enabled: token !== '',
    retry: false,
  });
  const { error, busy, submit } = useNewPasswordForm(
    (password) => acceptInvitation(token, password),
    'Welcome aboard: your account is ready. Sign in with your new password.',
  );

  if (!token || invitation.isError)
    return (
      <AuthCard
        title="This invitation cannot be used"
        description={
          invitation.error instanceof Error
            ? invitation.error.message
            : 'The link is incomplete. Open the link from the mail once more.'
        }
      >
        <p>Ask the person who invited you to send a new invitation.</p>
        <p>
          <Link to="/login">Go to sign-in</Link>
        </p>
      </AuthCard>
    );
  if (!invitation.data)
    return (
      <AuthCard title="Your invitation">
        <Loading />
      </AuthCard>
    );

  const { email, role, tenant } = invitation.data;
  return (
    <AuthCard
      title={`Join ${tenant.name}`}
      description={`You are invited as ${role === 'admin' ? 'an admin' : 'a staff member'}. Choose the password you will sign in with.`}
    >
      <form onSubmit={submit} className="stack" noValidate>
        <ErrorNotice error={error && !fieldErrorOf(error, 'password') ? error : null} title="Not accepted" />
        <Field label="Email" name="email" type="email" autoComplete="username" value={email} readOnly />
        <NewPasswordFields label="Password" error={error} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating your account…' : 'Accept and create my account'}
        </button>
      </form>
    </AuthCard>
  );
}
