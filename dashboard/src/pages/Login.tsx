import { useState, type SubmitEvent } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSessionApi } from '../session';
import { ErrorNotice, Field } from '../components/ui';
import { formText } from '../form-data';

export function LoginPage() {
  const { state, signIn } = useSessionApi();
  const location = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? '/';

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
    <div className="login">
      <main className="login-card">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true">
            P
          </span>
          <span className="brand-name">Portier</span>
        </div>
        <h1>Sign in to your venue</h1>
        <p className="page-description">Bookings, doors and devices in one place.</p>
        <form onSubmit={submit} className="stack" noValidate>
          <ErrorNotice error={error} title="Sign-in failed" />
          {/* The page's one task is this form: focus starts in its first field. */}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
          <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </main>
    </div>
  );
}
