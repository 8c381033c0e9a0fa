import { useState, type SubmitEvent } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useSessionApi } from '../session';
import { ErrorNotice, Field, SuccessNotice } from '../components/ui';
import { formText } from '../form-data';
import { AuthCard } from './AuthCard';

export function LoginPage() {
  const { state, signIn } = useSessionApi();
  const location = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // After a reset or an accepted invitation: the email to prefill and what just happened.
  const came = location.state as { from?: string; email?: string; notice?: string } | null;
  const from = came?.from ?? '/';

  if (state.status === 'signedIn') return <Navigate to={from} replace />;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    signIn(formText(form, 'email'), formText(form, 'password')).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };

  return (
    <AuthCard title="Sign in to your venue" description="Bookings, doors and devices in one place.">
      <form onSubmit={submit} className="stack" noValidate>
        {came?.notice && !error ? <SuccessNotice>{came.notice}</SuccessNotice> : null}
        <ErrorNotice error={error} title="Sign-in failed" />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus={!came?.email}
          defaultValue={came?.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form: focus starts in the field to fill
          autoFocus={Boolean(came?.email)}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="auth-footer">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
      </form>
    </AuthCard>
  );
}
