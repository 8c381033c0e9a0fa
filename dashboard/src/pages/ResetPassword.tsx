import { Link, useSearchParams } from 'react-router';
import { resetPassword } from '../api/staff';
import { ErrorNotice, fieldErrorOf } from '../components/ui';
import { NewPasswordFields, useNewPasswordForm } from './new-password';
import { AuthCard } from './AuthCard';

/** The mailed reset link (?token=…): a new password, then every session ends and the user signs in. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { error, busy, submit } = useNewPasswordForm(
    (password) => resetPassword(token, password),
    'Your password is changed, and every session has ended. Sign in with it.',
  );

  if (!token)
    return (
      <AuthCard
        title="This link is incomplete"
        description="Open the link from the mail once more, or ask for a new one."
      >
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </AuthCard>
    );

  return (
    <AuthCard
      title="Choose a new password"
      description="At least 12 characters. Every session of your account ends, so you sign in again everywhere."
    >
      <form onSubmit={submit} className="stack" noValidate>
        <ErrorNotice error={error && !fieldErrorOf(error, 'password') ? error : null} title="Password not changed" />
        <NewPasswordFields label="New password" error={error} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Saving…' : 'Set the new password'}
        </button>
        <p className="auth-footer">
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </form>
    </AuthCard>
  );
}
