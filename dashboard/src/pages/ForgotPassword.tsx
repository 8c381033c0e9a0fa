import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { requestPasswordReset } from '../api/staff';
import { ErrorNotice, Field, SuccessNotice, fieldErrorOf } from '../components/ui';
import { formText } from '../form-data';
import { AuthCard } from './AuthCard';

/** "Forgot password?": asks for a reset link. The answer is the same whether the email is known. */
export function ForgotPasswordPage() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), 'email').trim();
    setBusy(true);
    setError(null);
    requestPasswordReset(email).then(
      () => {
        setBusy(false);
        setSentTo(email);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email you sign in with. We mail you a link to choose a new password."
    >
      {sentTo ? (
        <div className="stack">
          <SuccessNotice>
            If {sentTo} belongs to a Portier account, a link is on its way. It works once and for 30 minutes.
          </SuccessNotice>
          <p className="auth-footer">
            <Link to="/login">Back to sign-in</Link>
          </p>
        </div>
      ) : (
        <form onSubmit={submit} className="stack" noValidate>
          <ErrorNotice error={error && !fieldErrorOf(error, 'email') ? error : null} title="No link sent" />
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form: focus starts in the field to fill
            autoFocus
            error={fieldErrorOf(error, 'email')}
          />
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? 'Sending…' : 'Send me a link'}
          </button>
          <p className="auth-footer">
            <Link to="/login">Back to sign-in</Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
